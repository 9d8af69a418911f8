"""Fixtures of the paging and shaping tests (test_paginate, test_fields_and_max_bytes):
the shipped integrations they page through, pointed at the loopback provider."""

from __future__ import annotations

import pytest

from skillgate.catalog.loader import Catalog
from tests.skillgate.executor.paged import point_at, shipped_catalog
from tests.upstream import Provider


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return shipped_catalog()


@pytest.fixture
def paged_upstream(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shipped integration the paging tests use calls the loopback provider."""
    point_at(provider, monkeypatch)
