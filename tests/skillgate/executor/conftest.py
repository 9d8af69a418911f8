"""Fixtures of the safe-execution tests: the shipped integrations the paging and shaping
tests page through, pointed at the loopback provider, and a gateway of their own to open
on them; the whole shipped catalog and a gateway on it (the wire tests); a ready key on
the test app's sample integration."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import Catalog, load_catalog
from tests.conftest import Harness, open_harness
from tests.skillgate.executor.paged import (
    Caller,
    OpenGateway,
    gateway,
    point_at,
    ready,
    shipped_catalog,
)
from tests.upstream import Provider, serve_catalog

# `open_whole`: (plan, key settings) -> the harness, the key and the user.
OpenWhole = Callable[..., AbstractAsyncContextManager[tuple[Harness, str, Any]]]


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return shipped_catalog()


@pytest.fixture
def paged_upstream(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shipped integration the paging tests use calls the loopback provider."""
    point_at(provider, monkeypatch)


@pytest.fixture
def open_gateway(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider, paged_upstream: None
) -> OpenGateway:
    """Opens `gateway` on the shipped integrations (a user on `plan`, settings `settings`);
    the test registers its upstream replies first, as the integrations connect on open."""

    def open_(plan: str = "pro", **settings: Any) -> AbstractAsyncContextManager[Caller]:
        return gateway(database_url, tmp_path, shipped, provider, plan, **settings)

    return open_


@pytest.fixture(scope="module")
def whole() -> Catalog:
    """Every shipped integration (`shipped` above is the paging tests' five)."""
    return load_catalog()


@pytest.fixture
def open_whole(
    database_url: str,
    tmp_path: Path,
    whole: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> OpenWhole:
    """Opens a gateway on the whole shipped catalog, every integration pointed at the
    loopback provider with its base path kept (the paths it receives are the wire's): a
    user on `plan` and a key made with `key`'s settings."""
    serve_catalog(provider, whole, monkeypatch)

    @asynccontextmanager
    async def open_(plan: str = "pro", **key: Any) -> AsyncIterator[tuple[Harness, str, Any]]:
        async with open_harness(database_url, tmp_path, whole) as harness:
            user = await harness.user(plan=plan)
            full, _ = await harness.key(**key)
            yield harness, full, user

    return open_


@pytest.fixture
async def caller(harness: Harness) -> Caller:
    """A pro user's key (it confirms destructive calls) that has connected the sample
    integration."""
    return await ready(harness)
