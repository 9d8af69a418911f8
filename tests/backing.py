"""Databases a single test owns (it may break them), and SQL run against them from
the test process while a server process uses them."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from skillgate.db import migrate
from tests.conftest import PG_URL


def _async(url: str) -> str:
    return url.replace("postgresql://", "postgresql+asyncpg://", 1)


async def _admin(sql: str) -> None:
    assert PG_URL is not None
    engine = create_async_engine(_async(PG_URL), isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@contextmanager
def own_database(kind: str, directory: Path) -> Iterator[str]:
    """A migrated database only the calling test uses: a SQLite file or a PostgreSQL db."""
    if kind == "sqlite":
        url = f"sqlite:///{directory / 'skillgate.db'}"
        asyncio.run(migrate.upgrade(url))
        yield url
        return
    assert PG_URL is not None
    name = "sg_own_" + secrets.token_hex(4)
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    url = PG_URL.rsplit("/", 1)[0] + "/" + name
    try:
        asyncio.run(migrate.upgrade(url))
        yield url
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def run_sql(url: str, *statements: str) -> list[Any]:
    """Run statements in one transaction; the rows of the last one."""
    if url.startswith("sqlite"):
        conn = sqlite3.connect(make_url(url).database or "", timeout=30)
        try:
            rows: list[Any] = []
            for statement in statements:
                rows = conn.execute(statement).fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()

    async def work() -> list[Any]:
        engine = create_async_engine(_async(url))
        try:
            async with engine.begin() as conn:
                result: list[Any] = []
                for statement in statements:
                    found = await conn.execute(text(statement))
                    result = list(found.fetchall()) if found.returns_rows else []
                return result
        finally:
            await engine.dispose()

    return asyncio.run(work())
