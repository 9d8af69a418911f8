"""No value is silently dropped (issue 25.1): a body object given whole and one of
its fields given on its own (Calendar's `start` and `start_timeZone`) are merged as
the body's shape defines, in either catalog order; a field given both ways is
refused with a 400 naming both. Checked on the wire against a loopback upstream."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, load_catalog
from tests.conftest import Harness, open_harness
from tests.upstream import Provider

EVENT = {"calendarId": "primary", "eventId": "ev1"}


@pytest.fixture(scope="module")
def calendar() -> Catalog:
    return load_catalog([SHIPPED_DIR / "google_calendar.yaml"], shipped=False)


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    calendar: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    monkeypatch.setenv("SKILLGATE_GOOGLE_CALENDAR_BASE_URL", provider.url)
    async with open_harness(database_url, tmp_path, calendar) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        await harness.connect_token(full, "google_calendar")
        provider.clear()
        yield harness, full


async def test_an_object_and_its_own_fields_are_merged(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    start = {"dateTime": "2026-12-01T10:00:00"}
    r = await harness.run(
        full,
        "google_calendar",
        "update_event",
        **EVENT,
        start=start,
        start_timeZone="UTC",
        end_dateTime="2026-12-01T11:00:00Z",
    )
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert json.loads(sent.body) == {
        "start": {"dateTime": "2026-12-01T10:00:00", "timeZone": "UTC"},
        "end": {"dateTime": "2026-12-01T11:00:00Z"},
    }
    assert start == {"dateTime": "2026-12-01T10:00:00"}  # the caller's object unchanged


async def test_a_field_given_both_ways_is_refused_naming_both(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    r = await harness.run(
        full,
        "google_calendar",
        "update_event",
        **EVENT,
        start={"date": "2026-12-01"},
        start_date="2026-12-02",
    )
    assert r.status_code == 400
    assert "start and start_date: both give start.date; give one of them" in r.text
    assert provider.api_requests() == []
