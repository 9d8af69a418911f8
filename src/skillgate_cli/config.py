"""Where the client's settings come from: the environment first, then the project's `.env`.

The project root is found like git finds `.git`: the first directory holding a
`.env`, looking in the working directory then each parent, stopping at the
first directory that contains `.git` (inclusive) or at the filesystem root.
Without a `.env` it is that git root, else the working directory. Platform
detection, the skill directories and `svc login`'s writes all use it.

| variable       | default                  | meaning                                   |
|----------------|--------------------------|-------------------------------------------|
| SVC_BASE_URL   | http://127.0.0.1:8000    | the gateway's address                     |
| SVC_API_KEY    | (none)                   | the API key sent as a Bearer token        |
| SVC_PLATFORM   | detected                 | claude, cursor, windsurf, codex, gemini,  |
|                |                          | copilot or generic                        |
| SVC_TIMEOUT    | 60                       | seconds to wait for the gateway           |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from skillgate_cli.envfile import EnvFileError, read_values
from skillgate_cli.errors import LOGIN_HINT, CliError

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT = 60.0
ENV_FILE = ".env"


def project_root(cwd: Path) -> Path:
    """The directory of the nearest `.env` up to the git root; else the git root or `cwd`."""
    for directory in (cwd, *cwd.parents):
        if (directory / ENV_FILE).is_file():
            return directory
        if (directory / ".git").exists():
            return directory
    return cwd


@dataclass
class Config:
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
    _file: dict[str, str] | None = None
    root: Path = field(init=False)

    def __post_init__(self) -> None:
        self.root = project_root(self.cwd)

    @classmethod
    def load(cls, cwd: Path | None = None) -> Config:
        return cls(cwd or Path.cwd(), dict(os.environ))

    @property
    def env_path(self) -> Path:
        return self.root / ENV_FILE

    def shown(self, path: Path) -> str:
        """`path` (under the project root) as the user should read it: relative to cwd."""
        return os.path.relpath(self.root / path, self.cwd)

    def file_values(self) -> dict[str, str]:
        """The project's `.env`, read once and only when a value is not in the environment."""
        if self._file is None:
            try:
                self._file = read_values(self.env_path)
            except EnvFileError as exc:
                raise CliError(str(exc)) from None
        return self._file

    def get(self, name: str) -> tuple[str | None, str | None]:
        """(value, where it came from): 'environment', the `.env` path or None."""
        value = self.env.get(name)
        if value:
            return value, "environment"
        value = self.file_values().get(name)
        if value:
            return value, self.shown(Path(ENV_FILE))
        return None, None

    @property
    def base_url(self) -> str:
        url = (self.get("SVC_BASE_URL")[0] or DEFAULT_BASE_URL).strip().rstrip("/")
        if not url.startswith(("http://", "https://")):
            raise CliError(f"SVC_BASE_URL {url!r} must start with http:// or https://")
        return url

    @property
    def api_key(self) -> str | None:
        value = self.get("SVC_API_KEY")[0]
        return value.strip() if value else None

    def require_key(self) -> str:
        key = self.api_key
        if not key:
            raise CliError(f"no API key: {LOGIN_HINT} (or set SVC_API_KEY)", error="no_api_key")
        return key

    @property
    def platform(self) -> str | None:
        value = self.get("SVC_PLATFORM")[0]
        return value.strip().lower() if value else None

    @property
    def timeout(self) -> float:
        raw = self.env.get("SVC_TIMEOUT")
        if not raw:
            return DEFAULT_TIMEOUT
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if not value > 0:
            raise CliError(f"SVC_TIMEOUT {raw!r} must be a positive number of seconds")
        return value
