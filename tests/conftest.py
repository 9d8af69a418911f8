"""Shared fixtures: real databases (SQLite always, PostgreSQL when configured), the app
driven in-process through httpx, and helpers to make users and keys."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from skillgate.app import create_app
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.db import migrate
from skillgate.db.engine import create_engine
from skillgate.db.models import Base
from skillgate.db.session import commit
from skillgate.settings import Settings
from skillgate.users.service import UserService
from tests.upstream import Provider

FIXTURES = Path(__file__).parent / "fixtures"
PG_URL = os.environ.get("SKILLGATE_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("SKILLGATE_TEST_REDIS_URL")
PASSWORD = "correct-horse-battery"


T = TypeVar("T")


def pytest_report_header() -> list[str]:
    return [
        f"postgres: {'on' if PG_URL else 'off (set SKILLGATE_TEST_DATABASE_URL)'}",
        f"redis: {'on' if REDIS_URL else 'off (set SKILLGATE_TEST_REDIS_URL)'}",
    ]


def _pg_async(url: str) -> str:
    return url.replace("postgresql://", "postgresql+asyncpg://", 1)


@pytest.fixture(scope="session")
async def pg_database() -> AsyncIterator[str | None]:
    """A fresh PostgreSQL database for this test session, dropped at the end."""
    if not PG_URL:
        yield None
        return
    name = "sg_test_" + secrets.token_hex(4)
    admin = create_async_engine(_pg_async(PG_URL), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = PG_URL.rsplit("/", 1)[0] + "/" + name
    await migrate.upgrade(url)
    yield url
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    await admin.dispose()


@pytest.fixture(scope="session")
def sqlite_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="sg-test-") as d:
        yield Path(d)


@pytest.fixture(scope="session")
async def sqlite_database(sqlite_dir: Path) -> str:
    url = f"sqlite+aiosqlite:///{sqlite_dir / 'test.db'}"
    await migrate.upgrade(url)
    return url


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(
    request: pytest.FixtureRequest, sqlite_database: str, pg_database: str | None
) -> AsyncIterator[str]:
    """Each test that uses the database runs on SQLite and on PostgreSQL."""
    if request.param == "postgres":
        if pg_database is None:
            pytest.skip("PostgreSQL tests need SKILLGATE_TEST_DATABASE_URL")
        url = pg_database
    else:
        url = sqlite_database
    yield url
    engine = create_engine(url)  # with the app's SQLite busy timeout

    async with engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            await conn.execute(table.delete())
    await engine.dispose()


@pytest.fixture(scope="session")
def test_catalog() -> Catalog:
    return load_catalog([FIXTURES / "catalog"], shipped=False)


def make_settings(database_url: str, data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "env": "test",
        "database_url": database_url,
        "data_dir": data_dir,
        "secret_key": "test-secret-key-" + "x" * 40,
        "encryption_keys": "k1:" + "A" * 43 + "=",
        "log_format": "json",
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture(scope="session")
def provider_server() -> Iterator[Provider]:
    server = Provider()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def provider(provider_server: Provider, monkeypatch: pytest.MonkeyPatch) -> Provider:
    """The loopback provider, reset, with the fixture integrations pointed at it."""
    fresh = Provider()
    provider_server.__dict__.update(
        {k: v for k, v in fresh.__dict__.items() if k not in ("port", "_server", "_thread")}
    )
    url = provider_server.url
    monkeypatch.setenv("SKILLGATE_SAMPLE_BASE_URL", url)
    monkeypatch.setenv("SKILLGATE_OAUTHY_BASE_URL", url + "/v2")
    monkeypatch.setenv("SKILLGATE_OAUTHY_AUTHORIZE_URL", url + "/oauth/authorize")
    monkeypatch.setenv("SKILLGATE_OAUTHY_TOKEN_URL", url + "/oauth/token")
    monkeypatch.setenv("SKILLGATE_OAUTHY_CLIENT_ID", "client-123")
    monkeypatch.setenv("SKILLGATE_OAUTHY_CLIENT_SECRET", "client-secret-456")
    return provider_server


@dataclass
class Harness:
    app: FastAPI
    client: httpx.AsyncClient

    @property
    def state(self) -> Any:
        return self.app.state.gateway

    def service(self, kind: type[T]) -> T:
        """The app's one instance of a service (as `http.provide` hands it to routes)."""
        found: T = self.app.state.services[kind]
        return found

    async def user(self, email: str = "ada@example.com", plan: str = "free") -> Any:
        async with self.state.sessionmaker() as session:
            user = await UserService(session).create(email, PASSWORD, plan=plan)
            await commit(session)
            return user

    async def token(self, email: str = "ada@example.com") -> str:
        r = await self.client.post("/auth/login", json={"email": email, "password": PASSWORD})
        assert r.status_code == 200, r.text
        token: str = r.json()["access_token"]
        return token

    async def key(self, email: str = "ada@example.com", **body: Any) -> tuple[str, dict[str, Any]]:
        """A new key for `email` (created with an access token): (full key, api_key object)."""
        token = await self.token(email)
        body.setdefault("name", "test key")
        r = await self.client.post("/api-keys", json=body, headers=bearer(token))
        assert r.status_code == 201, r.text
        data = r.json()
        return data["full_key"], data["api_key"]

    async def connect_token(
        self, full_key: str, slug: str = "sample", token: str = "good-token"
    ) -> None:
        r = await self.client.put(
            f"/v1/connections/{slug}", json={"token": token}, headers=bearer(full_key)
        )
        assert r.status_code == 200, r.text

    async def run(self, full_key: str, slug: str, endpoint: str, **params: Any) -> httpx.Response:
        return await self.client.post(
            f"/v1/{slug}/{endpoint}", json={"params": params}, headers=bearer(full_key)
        )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.asynccontextmanager
async def open_harness(
    database_url: str, data_dir: Path, catalog: Catalog, **overrides: Any
) -> AsyncIterator[Harness]:
    """An app of its own (settings `overrides`), started, with a client."""
    app = create_app(make_settings(database_url, data_dir, **overrides), catalog=catalog)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield Harness(app, client)


@pytest.fixture
async def harness(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> AsyncIterator[Harness]:
    async with open_harness(database_url, tmp_path, test_catalog) as harness:
        yield harness
