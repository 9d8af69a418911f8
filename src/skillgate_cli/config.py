"""Where the client's settings come from: the environment first, then `./.env`.

| variable       | default                  | meaning                                   |
|----------------|--------------------------|-------------------------------------------|
| SVC_BASE_URL   | http://127.0.0.1:8000    | the gateway's address                     |
| SVC_API_KEY    | (none)                   | the API key sent as a Bearer token        |
| SVC_PLATFORM   | detected                 | claude, cursor, windsurf or generic       |
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


@dataclass
class Config:
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
    _file: dict[str, str] | None = None

    @classmethod
    def load(cls, cwd: Path | None = None) -> Config:
        return cls(cwd or Path.cwd(), dict(os.environ))

    @property
    def env_path(self) -> Path:
        return self.cwd / ENV_FILE

    def file_values(self) -> dict[str, str]:
        """`./.env`, read once and only when a value is not in the environment."""
        if self._file is None:
            try:
                self._file = read_values(self.env_path)
            except EnvFileError as exc:
                raise CliError(str(exc)) from None
        return self._file

    def get(self, name: str) -> tuple[str | None, str | None]:
        """(value, where it came from): 'environment', './.env' or None."""
        value = self.env.get(name)
        if value:
            return value, "environment"
        value = self.file_values().get(name)
        if value:
            return value, f"./{ENV_FILE}"
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
