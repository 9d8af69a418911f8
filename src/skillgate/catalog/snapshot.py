"""A catalog file's integration as loaded, kept so the next start does not parse it again.

Loading a compiled integration (YAML overlay, compiled JSON, overlay applied, every
model validated, examples checked) costs ~0.15 ms of CPU per endpoint; a server
start, a test's server and every `SIGHUP` paid it again for the same bytes. After a
file loads, its integration is written here as JSON tables: each distinct parameter
and error documentation once (2,571 shipped endpoints carry 11,269 parameters but
only 4,288 distinct ones, and 7,106 error entries but 561 distinct), the endpoints
naming them by index. The next load of the same bytes builds the models from the
tables without validating them again (`model_construct`), and identical parameters
and errors are one shared frozen object: less CPU and less memory.

An entry is keyed by the file's resolved path, its bytes and the code that loads it
(this package's modules, pydantic's version); it names the compiled file the overlay
read and that file's SHA-256, which must still match. Anything else (a missing,
unreadable or malformed entry) is a miss: the file is loaded in full, as without a
snapshot. An entry is written only when the models built from it equal the ones just
validated. The directory: `SKILLGATE_CACHE_DIR`, else `$XDG_CACHE_HOME/skillgate/
catalog` (`~/.cache/...`); `SKILLGATE_CACHE_DIR=` (empty) turns snapshots off. At
most `MAX_ENTRIES` entries are kept (the oldest go). Entries are JSON, never code.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import orjson
import pydantic

from skillgate.catalog.hosts import ConnectionVariable
from skillgate.catalog.models import (
    Auth,
    Endpoint,
    ErrorDoc,
    Integration,
    Pagination,
    Parameter,
    Timeouts,
    VerifyRequest,
)

ENV = "SKILLGATE_CACHE_DIR"
# 2: endpoints' own `base_url`, connection `variables`; 3: `fills`, `from_connection`;
# 4: endpoints' `aliases`
FORMAT = 4
# More than any one catalog's files: a catalog of more files than this re-parses the
# excess at every start (the 10x bench catalog's 430 files did at 256).
MAX_ENTRIES = 4096
_SUFFIX = ".json"


def directory() -> Path | None:
    """Where snapshots are kept; None when they are turned off."""
    given = os.environ.get(ENV)
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "skillgate" / "catalog"


def trusted(folder: Path) -> bool:
    """Whether entries in `folder` may be served: it is this user's and no one else
    can write to it (a snapshot skips validation: whoever writes one writes the
    catalog). A folder that does not exist yet is created 0700 when one is written."""
    try:
        info = folder.stat()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


@cache
def code() -> bytes:
    """What decides a loaded integration besides its files: this package's code (and
    pydantic's version), as a digest."""
    h = hashlib.sha256(b"%d:%s" % (FORMAT, pydantic.VERSION.encode()))
    for source in sorted(Path(__file__).parent.glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes())
    return h.digest()


def key(path: Path, raw: bytes) -> str:
    h = hashlib.sha256(code())
    h.update(str(path.resolve()).encode() + b"\0" + raw)
    return h.hexdigest()


def _interned(rows: list[dict[str, Any]], table: dict[bytes, int]) -> list[int]:
    """Each row's index in `table` (rows added once, by their JSON)."""
    return [table.setdefault(orjson.dumps(row), len(table)) for row in rows]


def tables(integration: Integration) -> dict[str, Any]:
    """The integration as JSON tables: distinct parameters and errors once each."""
    shell = integration.model_dump(exclude={"endpoints"})
    params: dict[bytes, int] = {}
    errors: dict[bytes, int] = {}
    endpoints = []
    for e in integration.endpoints:
        row = e.model_dump()
        row["parameters"] = _interned(row["parameters"], params)
        row["errors"] = _interned(row["errors"], errors)
        endpoints.append(row)
    return {
        "integration": shell,
        "parameters": [orjson.loads(p) for p in params],
        "errors": [orjson.loads(x) for x in errors],
        "endpoints": endpoints,
    }


_M = TypeVar("_M", bound=pydantic.BaseModel)
_SET = object.__setattr__


@cache
def _all_fields(cls: type[pydantic.BaseModel]) -> set[str]:
    return set(cls.model_fields)


def _made(cls: type[_M], values: dict[str, Any]) -> _M:
    """A model of `values` (every field, in order, already valid: they were validated
    before the snapshot was written), as pydantic's own unpickling makes one; 20 times
    cheaper than `model_construct`, and every instance shares one fields-set."""
    model = cls.__new__(cls)
    _SET(model, "__dict__", values)
    _SET(model, "__pydantic_fields_set__", _all_fields(cls))
    _SET(model, "__pydantic_extra__", None)
    _SET(model, "__pydantic_private__", None)
    return model


def _parameter(row: dict[str, Any]) -> Parameter:
    enum = row["enum"]
    row["enum"] = tuple(enum) if enum is not None else None
    row["also"] = tuple(row["also"])
    return _made(Parameter, row)


def _endpoint(row: dict[str, Any], params: list[Parameter], errors: list[ErrorDoc]) -> Endpoint:
    row["parameters"] = tuple(params[i] for i in row["parameters"])
    row["errors"] = tuple(errors[i] for i in row["errors"])
    paging = row["pagination"]
    row["pagination"] = _made(Pagination, paging) if paging is not None else None
    row["scopes"] = tuple(row["scopes"])
    row["says"] = tuple(row["says"])
    row["aliases"] = tuple(row["aliases"])
    return _made(Endpoint, row)


def integration(data: dict[str, Any]) -> Integration:
    """The models `tables` was made from (its rows are taken, not copied)."""
    params = [_parameter(row) for row in data["parameters"]]
    errors = [_made(ErrorDoc, row) for row in data["errors"]]
    shell = data["integration"]
    shell["auth"] = Auth.model_validate(shell["auth"])
    shell["verify"] = VerifyRequest.model_validate(shell["verify"])
    shell["variables"] = tuple(ConnectionVariable.model_validate(v) for v in shell["variables"])
    shell["common_errors"] = tuple(ErrorDoc.model_construct(**x) for x in shell["common_errors"])
    timeouts = shell["timeouts"]
    shell["timeouts"] = Timeouts.model_construct(**timeouts) if timeouts is not None else None
    endpoints = tuple(_endpoint(row, params, errors) for row in data["endpoints"])
    return Integration.model_construct(**shell, endpoints=endpoints)


def _read_verified(entry: dict[str, Any], limit: int) -> list[tuple[Path, bytes]] | None:
    """The other files the entry was loaded from, read again; None when one changed."""
    found = []
    for name, sha in entry["files"]:
        path = Path(name)
        with path.open("rb") as fh:
            raw = fh.read(limit + 1)
        if hashlib.sha256(raw).hexdigest() != sha:
            return None
        found.append((path, raw))
    return found


def load(path: Path, raw: bytes, limit: int) -> tuple[Integration, list[tuple[Path, bytes]]] | None:
    """The snapshot of the file `path` holding `raw`, and the other files it was built
    from (read again, at most `limit` bytes each, and unchanged); None when there is
    none that still holds."""
    folder = directory()
    if folder is None or not trusted(folder):
        return None
    try:
        entry = orjson.loads((folder / (key(path, raw) + _SUFFIX)).read_bytes())
        if entry.get("format") != FORMAT:
            return None
        files = _read_verified(entry, limit)
        if files is None:
            return None
        return integration(entry["tables"]), files
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def save(
    path: Path, raw: bytes, loaded: Integration, files: list[tuple[Path, bytes]]
) -> Integration:
    """Keep `loaded` (read from `path`, then `files`) for the next load; the integration
    to serve: built from the snapshot (shared parameters) when it equals `loaded`."""
    folder = directory()
    if folder is None or not trusted(folder):
        return loaded
    data = tables(loaded)
    encoded = orjson.dumps(
        {
            "format": FORMAT,
            "files": [[str(p.resolve()), hashlib.sha256(b).hexdigest()] for p, b in files],
            "tables": data,
        }
    )
    try:
        rebuilt = integration(orjson.loads(encoded)["tables"])
    except (ValueError, TypeError, KeyError):
        return loaded
    if rebuilt.model_dump() != loaded.model_dump():
        return loaded  # a value JSON does not hold as it was (never in the shipped files)
    with contextlib.suppress(OSError):
        _write(folder, key(path, raw) + _SUFFIX, encoded)
    return rebuilt


def _write(folder: Path, name: str, encoded: bytes) -> None:
    write(folder, name, encoded, "*" + _SUFFIX, MAX_ENTRIES)


def write(folder: Path, name: str, encoded: bytes, pattern: str, keep: int) -> None:
    """`encoded` as `folder`/`name`, readable by this user only, written whole or not at
    all; then only the `keep` newest files matching `pattern` are kept."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = folder / f".{name}.{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(encoded)
    os.replace(tmp, folder / name)
    prune(folder, pattern, keep)


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Remove all but the `keep` newest files matching `pattern` in `folder`."""
    entries = []
    for entry in folder.glob(pattern):
        with contextlib.suppress(OSError):
            entries.append((entry.stat().st_mtime, entry))
    for _, old in sorted(entries)[:-keep]:
        old.unlink(missing_ok=True)
