"""Server settings: environment variables with the prefix SKILLGATE_.

With nothing set the server runs on a SQLite file in the working directory and
generates its secrets once into a 0600 file beside it. In production
(`SKILLGATE_ENV=production`) missing secrets or database URL stop the start-up
with a one-line reason (`ConfigError`).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from skillgate.errors import ConfigError
from skillgate.kit.origins import OriginPolicy
from skillgate.kit.public import DEFAULT_BASE_URL

DEFAULT_DB_FILE = "skillgate.db"
SECRETS_FILE = ".skillgate-secrets.json"


# The settings of one integration: SKILLGATE_<SLUG>_<SUFFIX> (its host, its OAuth app).
INTEGRATION_SUFFIXES = ("BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "AUTHORIZE_URL", "TOKEN_URL")
_PREFIX = "SKILLGATE_"


def integration_vars(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every `SKILLGATE_<SLUG>_<SUFFIX>` set (not empty) in `environ` (the process's
    environment when None), by its name."""
    environ = os.environ if environ is None else environ
    return {
        name: value
        for name, value in environ.items()
        if value
        and name.startswith(_PREFIX)
        and any(
            name.endswith("_" + suffix) and len(name) > len(_PREFIX) + len(suffix)
            for suffix in INTEGRATION_SUFFIXES
        )
    }


class _Environment(EnvSettingsSource):
    """The environment, but for `integration_vars`: those are gathered from their own
    variables (`integration_vars()`), never from a SKILLGATE_INTEGRATION_VARS."""

    def __call__(self) -> dict[str, Any]:
        data = super().__call__()
        data.pop("integration_vars", None)
        return data


def split_catalog_path(value: str | None) -> list[str]:
    """SKILLGATE_CATALOG_PATH's entries (`:`-separated on POSIX), blanks left out."""
    return [p for p in (value or "").split(os.pathsep) if p.strip()]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKILLGATE_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    database_url: str | None = None
    data_dir: Path = Field(default_factory=Path.cwd)
    redis_url: str | None = None
    # The public addresses links name (kit/public.py): unset, they follow the address
    # `skillgate serve` listens on (`served_on`, which serve sets) or a trusted proxy.
    base_url: str | None = None
    app_url: str | None = None
    served_on: str | None = None
    # Peers whose X-Forwarded-Proto/-For/-Host are believed: addresses or networks,
    # comma-separated, or "*"; unset: uvicorn's FORWARDED_ALLOW_IPS, else loopback.
    trusted_proxies: str | None = None
    secret_key: str | None = None
    # Comma-separated `id:base64key` entries (or bare base64 keys); the first encrypts.
    encryption_keys: str | None = None
    catalog_path: str | None = None
    log_level: str = "INFO"
    log_format: Literal["json", "console"] = "json"
    # OpenTelemetry spans of decisions and executions (kit/tracing.py): off when unset.
    otel_exporter: Literal["console", "otlp"] | None = None
    auto_migrate: bool = True

    max_request_bytes: int = Field(default=1_048_576, ge=1024)
    # Seconds a client may take to send a request's head (line and headers), and
    # to send each part of its body; then the connection is closed (head) or
    # answered 408 `request_timeout` (body).
    header_timeout: float = Field(default=10.0, gt=0, le=300)
    body_timeout: float = Field(default=30.0, gt=0, le=3600)
    # Seconds to connect to Redis and for each Redis reply; a hung Redis costs a
    # request this long (twice at most: a dead pooled connection is retried once).
    redis_timeout: float = Field(default=0.5, gt=0, le=30)
    access_token_ttl: int = Field(default=900, ge=60, le=86_400)
    session_idle_ttl: int = Field(default=7 * 86_400, ge=300)
    session_absolute_ttl: int = Field(default=30 * 86_400, ge=3600)
    # How long an instance may trust a cached key verification (revocation
    # reaches other instances within this time).
    key_cache_ttl: float = Field(default=1.0, ge=0, le=60)

    # Rate limits per API key by plan; 0 means no limit.
    rate_free_per_minute: int = Field(default=30, ge=0)
    rate_free_per_day: int = Field(default=10_000, ge=0)
    rate_pro_per_minute: int = Field(default=600, ge=0)
    rate_pro_per_day: int = Field(default=0, ge=0)
    rate_unlimited_per_minute: int = Field(default=0, ge=0)
    rate_unlimited_per_day: int = Field(default=0, ge=0)
    # Upstream calls: default timeouts (a catalog entry may override) and size cap.
    upstream_connect_timeout: float = Field(default=5.0, gt=0, le=60)
    upstream_total_timeout: float = Field(default=30.0, gt=0, le=300)
    upstream_max_bytes: int = Field(default=10 * 1024 * 1024, ge=1024)
    # Browser origins that may call /mcp besides the server's own (kit/origins.py):
    # comma-separated `scheme://host[:port]`, or `*` for any. No Origin always passes.
    mcp_allowed_origins: str | None = None
    # The OAuth authorization server of /mcp (docs/mcp.md, "Sign-in with OAuth"): the
    # access token's and refresh token's lifetimes in seconds, and, for tests only, client
    # ID metadata documents on loopback http addresses (never in production).
    oauth_access_ttl: int = Field(default=3600, ge=60, le=86_400)
    oauth_refresh_ttl: int = Field(default=30 * 86_400, ge=3600, le=365 * 86_400)
    oauth_cimd_allow_loopback: bool = False
    # For tests only: a user's approval webhook may be a loopback http:// URL
    # (docs/execution.md, "Approvals"); never in production.
    webhook_allow_loopback: bool = False
    # The largest answer (envelope) of one execution, all its pages together; also
    # the most an Idempotency-Key stores for a replay (executor.capped).
    max_answer_bytes: int = Field(default=10 * 1024 * 1024, ge=4096)
    # The largest file one upload parameter may carry (executor.uploads): 413 naming
    # the parameter when over. Its base64 must also fit in SKILLGATE_MAX_REQUEST_BYTES
    # (the default is what base64 carries in the default 1 MiB request): raise both.
    max_upload_bytes: int = Field(default=786_432, ge=1024)
    # Each integration's own settings (SKILLGATE_<SLUG>_BASE_URL, _CLIENT_ID, ...), read
    # from the environment once, when the settings are made; tests may pass them.
    integration_vars: dict[str, str] = Field(default_factory=integration_vars, repr=False)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, _Environment(settings_cls), dotenv_settings, file_secret_settings

    @field_validator("base_url", "app_url")
    @classmethod
    def _no_trailing_slash(cls, v: str | None) -> str | None:
        return v.rstrip("/") if v else v

    @property
    def is_production(self) -> bool:
        return self.env == "production"

    @property
    def resolved_trusted_proxies(self) -> str:
        return self.trusted_proxies or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1"

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / DEFAULT_DB_FILE).resolve()}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def secrets_file(self) -> Path:
        return self.data_dir / SECRETS_FILE

    @property
    def own_catalog_dir(self) -> Path:
        """Where `skillgate catalog import` writes an operator's integrations when
        SKILLGATE_CATALOG_PATH names no directory; always part of the catalog."""
        return self.data_dir / "catalog"

    def catalog_paths(self) -> list[str]:
        """The catalog's extra files and directories: SKILLGATE_CATALOG_PATH, then the
        data directory's own `catalog/` when it exists."""
        paths = split_catalog_path(self.catalog_path)
        if self.own_catalog_dir.is_dir() and str(self.own_catalog_dir) not in paths:
            paths.append(str(self.own_catalog_dir))
        return paths

    def upstream_base_url(self, slug: str, catalog_base_url: str) -> str:
        """The integration's host: `SKILLGATE_<SLUG>_BASE_URL`, else the catalog's."""
        return (self.integration_env(slug, "BASE_URL") or catalog_base_url).rstrip("/")

    def upstream_base_url_set(self, slug: str) -> bool:
        """Whether the operator set the integration's host (`SKILLGATE_<SLUG>_BASE_URL`)."""
        return self.integration_env(slug, "BASE_URL") is not None

    def upstream_hosts(self) -> dict[str, str]:
        """slug -> the host its operator set (`SKILLGATE_<SLUG>_BASE_URL`, no trailing /)."""
        suffix = "_BASE_URL"
        return {
            name[len(_PREFIX) : -len(suffix)].lower(): value.rstrip("/")
            for name, value in self.integration_vars.items()
            if name.endswith(suffix)
        }

    def mcp_origins(self) -> OriginPolicy:
        """Who may call /mcp from a browser: the origins of the public URLs (API and
        dashboard; when unset, the address `skillgate serve` listens on unless it is a
        wildcard, as kit.public derives links) and SKILLGATE_MCP_ALLOWED_ORIGINS.
        ConfigError names a bad entry."""
        listening = self.served_on or DEFAULT_BASE_URL
        wildcard = any(w in listening for w in ("//0.0.0.0:", "//[::]:"))
        derived = None if self.base_url or wildcard else listening  # a wildcard: no origin
        own = (self.base_url, self.app_url, derived)
        return OriginPolicy.parse(self.mcp_allowed_origins, own=own)

    def integration_env(self, slug: str, suffix: str) -> str | None:
        """`SKILLGATE_<SLUG>_<SUFFIX>` as it was when the settings were made, e.g. the
        GitHub client id (`suffix` one of INTEGRATION_SUFFIXES)."""
        return self.integration_vars.get(f"{_PREFIX}{slug.upper()}_{suffix}")


def _generate_secrets() -> dict[str, str]:
    return {
        "secret_key": secrets.token_urlsafe(48),
        "encryption_keys": "k1:" + base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
    }


def _load_or_create_secrets(path: Path) -> dict[str, str]:
    """Read the generated secrets, creating the 0600 file once (race-safe)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        data = _generate_secrets()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first; read theirs
        else:
            with os.fdopen(fd, "w") as fh:
                json.dump(data, fh)
                fh.flush()
                os.fsync(fh.fileno())
            return data
    try:
        loaded = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read generated secrets from {path}: {exc}") from None
    if not isinstance(loaded, dict) or not {"secret_key", "encryption_keys"} <= loaded.keys():
        raise ConfigError(f"{path} is not a Skill Gateway secrets file; move it away to regenerate")
    return {str(k): str(v) for k, v in loaded.items()}


def finalize(settings: Settings) -> Settings:
    """Fill the embedded defaults, or refuse a production config that lacks them."""
    settings.mcp_origins()  # a bad allowed origin stops the start-up with its reason
    if settings.is_production:
        missing = [
            f"SKILLGATE_{name.upper()}"
            for name in ("database_url", "secret_key", "encryption_keys")
            if not getattr(settings, name)
        ]
        if missing:
            raise ConfigError(
                "production mode needs explicit "
                + ", ".join(missing)
                + " (see docs/configuration.md)"
            )
        if settings.secret_key and len(settings.secret_key) < 32:
            raise ConfigError("SKILLGATE_SECRET_KEY must be at least 32 characters")
        if settings.oauth_cimd_allow_loopback:
            raise ConfigError(
                "SKILLGATE_OAUTH_CIMD_ALLOW_LOOPBACK is for tests: it may not be set in "
                "production mode"
            )
        if settings.webhook_allow_loopback:
            raise ConfigError(
                "SKILLGATE_WEBHOOK_ALLOW_LOOPBACK is for tests: it may not be set in "
                "production mode"
            )
        return settings
    if settings.secret_key and settings.encryption_keys:
        return settings
    generated = _load_or_create_secrets(settings.secrets_file)
    return settings.model_copy(
        update={
            "secret_key": settings.secret_key or generated["secret_key"],
            "encryption_keys": settings.encryption_keys or generated["encryption_keys"],
        }
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return finalize(Settings())
