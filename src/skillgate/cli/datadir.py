"""Which data directory a `skillgate` command works on, decided once per command.

An operator command run from another directory must not silently start a second,
empty database. The order:

1. `SKILLGATE_DATA_DIR`, when set, as given.
2. The nearest directory, from the working directory upward, that holds
   `skillgate.db` or the generated secrets file `.skillgate-secrets.json`.
3. With `SKILLGATE_DATABASE_URL` set (the database is elsewhere): the working
   directory, as before.
4. `serve` and `db upgrade` (the commands allowed to create a database): the
   working directory. Every other command refuses (exit 2).

The answer is exported as `SKILLGATE_DATA_DIR`, so the settings of this process
and of the server's worker processes read the same directory.
"""

from __future__ import annotations

import os
from pathlib import Path

from skillgate.settings import DEFAULT_DB_FILE, SECRETS_FILE

DATA_DIR_ENV = "SKILLGATE_DATA_DIR"
DATABASE_URL_ENV = "SKILLGATE_DATABASE_URL"


class NoDataDir(Exception):
    """No database here or above, and this command may not create one."""


def find_marked_dir(start: Path) -> Path | None:
    """The nearest of `start` and its parents holding the database or the secrets file."""
    for folder in (start, *start.parents):
        if (folder / DEFAULT_DB_FILE).is_file() or (folder / SECRETS_FILE).is_file():
            return folder
    return None


def resolve_data_dir(*, may_create: bool, cwd: Path | None = None) -> Path:
    """The data directory for this command; raises NoDataDir with the one-line reason."""
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit)
    here = (cwd or Path.cwd()).resolve()
    found = find_marked_dir(here)
    if found is not None:
        return found
    if os.environ.get(DATABASE_URL_ENV) or may_create:
        return here
    raise NoDataDir(
        f"no database found in {here} or its parents; run this where `skillgate serve` "
        f"runs, or set {DATA_DIR_ENV} / {DATABASE_URL_ENV}, "
        "or create one with `skillgate db upgrade`"
    )


def settle_data_dir(*, may_create: bool) -> Path:
    """Resolve the data directory and export it for this process and its children."""
    folder = resolve_data_dir(may_create=may_create)
    os.environ[DATA_DIR_ENV] = str(folder)
    return folder
