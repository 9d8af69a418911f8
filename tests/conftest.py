"""Shared fixtures: real databases (SQLite always, PostgreSQL when configured), the app
driven in-process through httpx, and helpers to make users and keys."""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import tempfile
import time
import types
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from skillgate.api_keys import keyformat
from skillgate.api_keys.usage import UsageRecorder
from skillgate.api_keys.verifier import KeyVerifier
from skillgate.app import create_app
from skillgate.auth.tokens import TokenSigner
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.models import Integration
from skillgate.connections.status import StatusCache
from skillgate.db import migrate
from skillgate.db.engine import create_engine
from skillgate.db.models import Base
from skillgate.db.session import commit
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.executions.writer import ExecutionWriter
from skillgate.gateway import Gateway
from skillgate.kit import ratecount
from skillgate.kit.ratecount import MemoryCounter
from skillgate.kit.vault import Vault
from skillgate.settings import Settings
from skillgate.users.models import User
from skillgate.users.passwords import hash_password_sync
from skillgate.users.repository import UserRepository
from skillgate.users.service import normalize_email
from tests.upstream import Provider

FIXTURES = Path(__file__).parent / "fixtures"
PG_URL = os.environ.get("SKILLGATE_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("SKILLGATE_TEST_REDIS_URL")
PASSWORD = "correct-horse-battery"


T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "own_app: the harness builds this test an app of its own (see `harness`)"
    )


# `make test` runs the suite on two pytest-xdist workers (`--dist loadgroup`). These files'
# tests share something outside their process with any other test that uses it: fixed
# ports (the docs' commands), the one Redis server's keys and channels (rate counters by
# address, cache invalidations), real clients that build in a shared folder. They run one
# after another on one worker; everything else is spread over both.
SHARED = "shared"
SHARED_FILES = frozenset(
    {
        "tests/test_docs_commands.py",
        "tests/test_readme.py",
        "tests/skillgate/test_multi_instance.py",
        "tests/skillgate/kit/test_ratecount.py",
        "tests/skillgate/kit/test_outage.py",
        "tests/skillgate/doors/mcp/test_mcp_two_instances.py",
        "tests/skillgate/mcpauth/test_two_instances.py",
        "tests/skillgate/device/test_device_abuse.py",
        "tests/skillgate/device/test_device_flow.py",
    }
)
ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        where = item.path.resolve().relative_to(ROOT).as_posix()
        if where in SHARED_FILES or where.startswith("tests/clients/"):
            item.add_marker(pytest.mark.xdist_group(SHARED))


@functools.cache
def password_hash() -> str:
    """A real argon2id hash of PASSWORD (production parameters), made once per run."""
    return hash_password_sync(PASSWORD)


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


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> float:
    """The counters' wall clock held mid-way through this hour's windows (900 s, 3,600 s
    and their divisors), so a test counting up to a limit never straddles a window's
    edge, where a new key starts from 0 (fixed windows: kit/ratecount.py)."""
    now = time.time()
    steady = now - now % 3600 + 2250  # 450 s into a 900 s window, 2,250 into the hour's
    clock = types.SimpleNamespace(time=lambda: steady, monotonic=time.monotonic)
    monkeypatch.setattr(ratecount, "time", clock)
    return steady


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


def provider_vars(url: str) -> dict[str, str]:
    """The settings that point the fixture integrations at the loopback provider `url`."""
    return {
        "SKILLGATE_SAMPLE_BASE_URL": url,
        "SKILLGATE_OAUTHY_BASE_URL": url + "/v2",
        "SKILLGATE_OAUTHY_AUTHORIZE_URL": url + "/oauth/authorize",
        "SKILLGATE_OAUTHY_TOKEN_URL": url + "/oauth/token",
        "SKILLGATE_OAUTHY_CLIENT_ID": "client-123",
        "SKILLGATE_OAUTHY_CLIENT_SECRET": "client-secret-456",
    }


@pytest.fixture
def provider(provider_server: Provider, monkeypatch: pytest.MonkeyPatch) -> Provider:
    """The loopback provider, reset, with the fixture integrations pointed at it (in the
    environment: settings made from now on, and servers started from now on, read it)."""
    provider_server.reset()
    for name, value in provider_vars(provider_server.url).items():
        monkeypatch.setenv(name, value)
    return provider_server


def state_of(app: FastAPI) -> Gateway:
    """The one place tests reach into what the app holds (the composition root that
    create_app leaves on app.state for tooling and tests)."""
    gateway: Gateway = app.state.gateway
    return gateway


@dataclass
class Harness:
    """The app in-process and a client on it. A test reads the app's services through the
    accessors here, never through the app's own attributes."""

    app: FastAPI
    client: httpx.AsyncClient

    @property
    def settings(self) -> Settings:
        return state_of(self.app).settings

    @property
    def sessionmaker(self) -> async_sessionmaker[AsyncSession]:
        return state_of(self.app).sessionmaker

    @property
    def engine(self) -> AsyncEngine:
        return state_of(self.app).engine

    @property
    def catalog(self) -> Catalog:
        return state_of(self.app).catalog

    @property
    def verifier(self) -> KeyVerifier:
        return state_of(self.app).verifier

    @property
    def usage(self) -> UsageRecorder:
        return state_of(self.app).usage

    @property
    def signer(self) -> TokenSigner:
        return state_of(self.app).signer

    @property
    def pepper(self) -> bytes:
        secret = state_of(self.app).settings.secret_key
        assert secret is not None
        return keyformat.derive_pepper(secret)

    @property
    def rendered(self) -> RenderedCatalog:
        return state_of(self.app).rendered

    @property
    def statuses(self) -> StatusCache:
        return state_of(self.app).connections.statuses

    @property
    def vault(self) -> Vault:
        return state_of(self.app).vault

    @property
    def executions(self) -> ExecutionWriter:
        return state_of(self.app).executions

    def connection_changed(self, user_id: str, integration: str) -> None:
        state_of(self.app).connections.changed(user_id, integration)

    def service(self, kind: type[T]) -> T:
        """The app's one instance of a service (as `http.provide` hands it to routes)."""
        found: T = self.app.state.services[kind]
        return found

    async def reset(self) -> None:
        """Between two tests on the session's app, forget what the last one left in memory
        that the next could see. (`database_url` then empties every table.)

        - pending execution-log rows and key usage are written now, not into the next
          test's tables;
        - the fixed-window counters start empty: sign-in (per email), device codes (per
          address: every test calls from 127.0.0.1) and plan limits.
        The key, status and credential caches are keyed by random ids (keys, users) that
        no later test reuses, and a revocation forgets its key, so they are left alone.
        """
        state = state_of(self.app)
        await state.executions.flush()
        await state.usage.flush()
        counter = state.limiter.counter  # shared with sign-in and the device flow
        assert isinstance(counter, MemoryCounter)
        counter.clear()

    async def user(self, email: str = "ada@example.com", plan: str = "free") -> Any:
        """A user whose password is PASSWORD. The account is stored as sign-up stores it,
        with the run's one argon2id hash of PASSWORD (each hash costs ~0.1 s of CPU; the
        sign-up path itself, hashing included, has its own tests)."""
        user = User(
            email=normalize_email(email),
            display_name=email.split("@")[0],
            password_hash=password_hash(),
            plan=plan,
        )
        async with self.sessionmaker() as session:
            await UserRepository(session).add(user)
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

    async def connect_pasted(
        self, full_key: str, integration: Integration, token: str = "good-token"
    ) -> None:
        """Connect `integration` as its connect form would: the token (Basic's password
        when it has `basic`), a username and the second key part when it asks for them,
        and each connection variable's documented example."""
        body: dict[str, Any] = {"token": token}
        if integration.auth.basic is not None:
            body["username"] = "someone@example.com"
        elif integration.auth.token is not None and integration.auth.token.key is not None:
            body["key"] = "app-key"
        if integration.variables:
            body["variables"] = {v.name: v.example for v in integration.variables}
        r = await self.client.put(
            f"/v1/connections/{integration.slug}", json=body, headers=bearer(full_key)
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


class SessionApps:
    """One app per database for the whole test run, started on first use; its fixture
    integrations point at the run's loopback provider (settings are read once)."""

    def __init__(
        self, stack: AsyncExitStack, data_dir: Path, catalog: Catalog, provider_url: str
    ) -> None:
        self._stack = stack
        self._data_dir = data_dir
        self._catalog = catalog
        self._vars = provider_vars(provider_url)
        self._apps: dict[str, FastAPI] = {}

    async def get(self, database_url: str) -> FastAPI:
        app = self._apps.get(database_url)
        if app is None:
            data_dir = self._data_dir / f"app-{len(self._apps)}"
            data_dir.mkdir()
            settings = make_settings(database_url, data_dir, integration_vars=self._vars)
            app = create_app(settings, catalog=self._catalog)
            await self._stack.enter_async_context(app.router.lifespan_context(app))
            # Its webhook delivery loop is stopped: every ~5 s it would claim, on this
            # worker's database, a delivery a test's own app is about to send, and fail
            # it (it allows no loopback receiver). The tests that deliver send with
            # `Webhooks.drain()` (tests/skillgate/dashboard/test_webhook.py, `driven`).
            await state_of(app).webhooks.close()
            self._apps[database_url] = app
        return app


@pytest.fixture(scope="session")
async def session_apps(
    tmp_path_factory: pytest.TempPathFactory, test_catalog: Catalog, provider_server: Provider
) -> AsyncIterator[SessionApps]:
    async with AsyncExitStack() as stack:
        apps = tmp_path_factory.mktemp("apps")
        yield SessionApps(stack, apps, test_catalog, provider_server.url)


@asynccontextmanager
async def client_for(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


@pytest.fixture
async def harness(
    request: pytest.FixtureRequest,
    database_url: str,
    tmp_path: Path,
    test_catalog: Catalog,
    session_apps: SessionApps,
) -> AsyncIterator[Harness]:
    """The app of this run for `database_url` (tables emptied after each test), with a
    fresh client (its own cookies). A test marked `own_app` (it closes the log writer,
    changes settings, or counts from zero) gets a new app of its own instead, with the
    settings of the environment `provider` makes when the test uses it."""
    if request.node.get_closest_marker("own_app"):
        if "provider" in request.fixturenames:
            request.getfixturevalue("provider")  # its settings, before the app reads them
        app = create_app(make_settings(database_url, tmp_path), catalog=test_catalog)
        async with app.router.lifespan_context(app), client_for(app) as client:
            yield Harness(app, client)
        return
    app = await session_apps.get(database_url)
    async with client_for(app) as client:
        harness = Harness(app, client)
        yield harness
    await harness.reset()
