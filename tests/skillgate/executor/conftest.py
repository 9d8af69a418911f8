"""Fixtures of the safe-execution tests: the shipped integrations the paging and shaping
tests page through, pointed at the loopback provider, and a gateway of their own to open
on them; a ready key on the test app's sample integration."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import Catalog
from tests.conftest import Harness
from tests.skillgate.executor.paged import (
    Caller,
    OpenGateway,
    gateway,
    point_at,
    ready,
    shipped_catalog,
)
from tests.upstream import Provider


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


@pytest.fixture
async def caller(harness: Harness) -> Caller:
    """A pro user's key (it confirms destructive calls) that has connected the sample
    integration."""
    return await ready(harness)
