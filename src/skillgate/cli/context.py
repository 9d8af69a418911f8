"""Run one database unit of work from a CLI command, on the same database as `serve`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.catalog.loader import CatalogError
from skillgate.cli.datadir import NoDataDir, settle_data_dir
from skillgate.cli.output import fail
from skillgate.db import migrate
from skillgate.db.engine import create_engine, create_sessionmaker
from skillgate.db.transaction import commit
from skillgate.errors import ConfigError, SkillGateError
from skillgate.settings import Settings, get_settings

T = TypeVar("T")


def load_settings(*, may_create: bool = False) -> Settings:
    """The settings on the data directory this command works on (see `datadir`): only
    `serve` and `db upgrade` may start a new database in the working directory."""
    try:
        settle_data_dir(may_create=may_create)
    except NoDataDir as exc:
        fail(str(exc), code=2)
    try:
        return get_settings()
    except ConfigError as exc:
        fail(str(exc), code=2)
        raise  # unreachable


def run_db(work: Callable[[AsyncSession, Settings], Awaitable[T]]) -> T:
    """Migrate if allowed, run `work` in one transaction, commit on success."""
    settings = load_settings()

    async def main() -> T:
        if settings.auto_migrate:
            await migrate.upgrade(settings.resolved_database_url)
        engine = create_engine(settings.resolved_database_url)
        try:
            async with create_sessionmaker(engine)() as session:
                result = await work(session, settings)
                await commit(session)
                return result
        finally:
            await engine.dispose()

    try:
        return asyncio.run(main())
    except SkillGateError as exc:
        fail(exc.message)
        raise  # unreachable
    except CatalogError as exc:
        fail(str(exc))
        raise  # unreachable
    except ConfigError as exc:
        fail(str(exc), code=2)
        raise  # unreachable
