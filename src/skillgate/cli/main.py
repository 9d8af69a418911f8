"""`skillgate`: serve, migrate, manage users and keys, check the catalog.

Every command prints JSON when its output is not a terminal.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
from datetime import datetime

import click
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.cli.catalog import PID_FILE
from skillgate.cli.checked import CheckedGroup
from skillgate.cli.context import load_settings, run_db
from skillgate.cli.output import emit, fail
from skillgate.settings import Settings
from skillgate.users.plans import PLANS


@click.group(cls=CheckedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="skillgate", prog_name="skillgate")
def cli() -> None:
    """Skill Gateway server and operator commands."""


SERVE_EPILOG = """\b
Environment (all settings: docs/configuration.md):
  SKILLGATE_DATA_DIR        where skillgate.db and the generated secrets live
                            (default: the nearest directory, from here upward,
                            holding them; else this directory)
  SKILLGATE_DATABASE_URL    postgresql://... or sqlite:///path (default: SQLite
                            in the data directory)
  SKILLGATE_REDIS_URL       shared rate limits and state across instances
  SKILLGATE_BASE_URL        public address of the API, for the links it hands
                            out (default: http://HOST:PORT served on; behind a
                            proxy, its X-Forwarded-Host/-Proto if trusted)
  SKILLGATE_APP_URL         public address of the dashboard (= base URL)
  SKILLGATE_TRUSTED_PROXIES proxies whose X-Forwarded-* headers are believed
                            (default: 127.0.0.1,::1)
  SKILLGATE_SECRET_KEY      signing secret (generated into the data directory)
  SKILLGATE_ENCRYPTION_KEYS key ring for stored credentials (generated likewise)
  SKILLGATE_CATALOG_PATH    extra catalog files or directories, ':'-separated
  SKILLGATE_ENV             development | production (production needs the
                            database URL and both secrets set explicitly)
"""


@cli.command(epilog=SERVE_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64))
def serve(host: str, port: int, workers: int) -> None:
    """Run the HTTP server (migrates the database first unless SKILLGATE_AUTO_MIGRATE=false)."""
    # No automatic cycle collection during the start-up: what it builds lives on, and
    # the app's lifespan collects once, freezes it and turns the collector back on
    # (skillgate.app.app_factory). With several workers, each does so in its process.
    gc.disable()

    from skillgate.catalog import workers as workers_mod
    from skillgate.catalog.loader import CatalogError, hand_over, load_catalog
    from skillgate.db import migrate
    from skillgate.errors import ConfigError
    from skillgate.kit.public import served_on
    from skillgate.kit.vault import Vault

    # The app (in each worker) builds its settings from the environment: tell it the
    # address, the links' default when SKILLGATE_BASE_URL is unset (kit/public.py).
    listening = served_on(host, port)
    os.environ["SKILLGATE_SERVED_ON"] = listening
    settings = load_settings(may_create=True)
    paths = settings.catalog_paths()
    try:
        catalog = load_catalog(paths)
        Vault(settings.encryption_keys or "")
    except CatalogError as exc:
        fail(f"refusing to start: {exc}")
    except ConfigError as exc:
        fail(f"refusing to start: {exc}", code=2)
    if settings.auto_migrate:
        asyncio.run(migrate.upgrade(settings.resolved_database_url))
    click.echo(f"skillgate: serving on {listening} ({_database(settings)})", err=True)
    _warn_if_shared(settings)
    pid_file = settings.data_dir / PID_FILE
    pid_file.write_text(f"{os.getpid()}\n")
    workers_mod.begin_serving(settings.data_dir, os.getpid(), workers)

    def forget_pid(signum: int, _frame: object) -> None:
        # uvicorn shuts down on SIGTERM/SIGINT, then raises the signal again with the
        # handlers it found at start: these. Remove the pid file, then die of it.
        pid_file.unlink(missing_ok=True)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, forget_pid)
    if workers > 1:
        gc.enable()  # this process only supervises the workers
    else:
        hand_over(paths, catalog)  # its one worker runs here: no second load
    del catalog
    try:
        _run_uvicorn(host, port, workers)
    finally:
        pid_file.unlink(missing_ok=True)


def _database(settings: Settings) -> str:
    """Which database a server uses, for its first line."""
    if settings.is_sqlite:
        return "SQLite " + settings.resolved_database_url.split("///")[-1]
    return "PostgreSQL"


def _run_uvicorn(host: str, port: int, workers: int) -> None:
    import uvicorn

    from skillgate.http.protocol import TimedHttpToolsProtocol

    uvicorn.run(
        "skillgate.app:app_factory",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        loop="uvloop",
        http=TimedHttpToolsProtocol,  # httptools with a deadline for the request head
        access_log=False,
        proxy_headers=False,  # applied in the app, from SKILLGATE_TRUSTED_PROXIES (http/public.py)
        server_header=False,
    )


def _warn_if_shared(settings: Settings) -> None:
    """A database file other users may read (created before it was made 0600): say so."""
    from skillgate.db.engine import loose_mode, sqlite_file

    path = sqlite_file(settings.resolved_database_url)
    mode = loose_mode(path) if path else None
    if mode is not None:
        click.echo(
            f"skillgate: warning: {path} is open to other users (mode {mode:04o}); "
            f"restrict it with `chmod 600 {path}*`",
            err=True,
        )


@cli.group()
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every pending migration (creates the database when there is none)."""
    from skillgate.db import migrate

    settings = load_settings(may_create=True)
    asyncio.run(migrate.upgrade(settings.resolved_database_url))
    emit({"status": "ok", "revision": migrate.current_head()})


@cli.group()
def users() -> None:
    """User accounts."""


def _user_dict(u: object) -> dict[str, object]:
    return {
        "id": getattr(u, "id"),  # noqa: B009
        "email": getattr(u, "email"),  # noqa: B009
        "display_name": getattr(u, "display_name"),  # noqa: B009
        "plan": getattr(u, "plan"),  # noqa: B009
        "created_at": getattr(u, "created_at"),  # noqa: B009
    }


@users.command("create")
@click.option("--email", required=True)
@click.option("--password", required=True, help="At least 8 characters.")
@click.option("--plan", type=click.Choice(PLANS), default="free", show_default=True)
@click.option("--display-name", default=None)
def users_create(email: str, password: str, plan: str, display_name: str | None) -> None:
    """Create a user who can sign in to the dashboard."""
    from skillgate.users.service import UserService

    async def work(session: AsyncSession, _: Settings) -> dict[str, object]:
        user = await UserService(session).create(
            email, password, plan=plan, display_name=display_name
        )
        return _user_dict(user)

    emit(run_db(work))


@users.command("set-plan")
@click.option("--email", required=True)
@click.option("--plan", type=click.Choice(PLANS), required=True)
def users_set_plan(email: str, plan: str) -> None:
    """Change a user's plan."""
    from skillgate.users.service import UserService

    async def work(session: AsyncSession, _: Settings) -> dict[str, object]:
        return _user_dict(await UserService(session).set_plan(email, plan))

    emit(run_db(work))


@users.command("list")
def users_list() -> None:
    """List every user."""
    from skillgate.users.service import UserService

    async def work(session: AsyncSession, _: Settings) -> list[dict[str, object]]:
        return [_user_dict(u) for u in await UserService(session).list()]

    emit(run_db(work))


@cli.group()
def keys() -> None:
    """API keys."""


@keys.command("create")
@click.option("--email", required=True, help="The user who owns the key.")
@click.option("--name", required=True)
@click.option("--scopes", default="*", show_default=True, help="Comma-separated: github,slack:read")
@click.option("--expires-at", type=click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"]), default=None)
def keys_create(email: str, name: str, scopes: str, expires_at: datetime | None) -> None:
    """Create an API key; the full key is printed once."""
    from datetime import UTC

    from skillgate.api_keys import keyformat
    from skillgate.api_keys.scopes import names_integrations
    from skillgate.api_keys.service import ApiKeys
    from skillgate.catalog.loader import load_catalog
    from skillgate.errors import NotFound
    from skillgate.users.repository import UserRepository
    from skillgate.users.service import normalize_email

    async def work(session: AsyncSession, settings: Settings) -> dict[str, object]:
        assert settings.secret_key is not None
        user = await UserRepository(session).by_email(normalize_email(email))
        if user is None:
            raise NotFound(
                f"no user with email {email!r}; create one with `skillgate users create`."
            )
        wanted = [s for s in scopes.split(",") if s.strip()]
        # The catalog (~0.5 s to load) only to check the integrations a scope names.
        slugs = load_catalog(settings.catalog_paths()).slugs if names_integrations(wanted) else ()
        keys = ApiKeys(
            pepper=keyformat.derive_pepper(settings.secret_key), slugs=slugs, verifier=None
        )
        key, full_key = await keys.create(
            session,
            user.id,
            name,
            wanted,
            expires_at.replace(tzinfo=UTC) if expires_at else None,
        )
        return {
            "id": key.id,
            "name": key.name,
            "key_prefix": key.key_prefix,
            "scopes": key.scopes,
            "expires_at": key.expires_at,
            "created_at": key.created_at,
            "full_key": full_key,
        }

    result = run_db(work)
    emit(result)
    if sys.stdout.isatty():
        click.echo("Store the full key now: it is not shown again.", err=True)


def command() -> click.Group:
    """The whole `skillgate` command: `cli` with the catalog and connections groups, which
    are imported only here (the other commands' modules load without them)."""
    from skillgate.cli.catalog import catalog
    from skillgate.cli.connections import connections

    cli.add_command(catalog)
    cli.add_command(connections)
    return cli


def main() -> None:
    command()(prog_name="skillgate")


if __name__ == "__main__":
    main()
