"""The Activity page's chart: the per-day aggregation on SQLite and PostgreSQL, and the
server-rendered SVG (bars, failed parts, legend, labels, filters, no script or style)."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select, text

from skillgate.dashboard.activity_chart import DAYS, build_chart, window_start
from skillgate.db.base import new_sortable_id, utcnow
from skillgate.executions.models import Execution
from skillgate.executions.repository import DayCount, ExecutionRepository
from tests.conftest import Harness
from tests.skillgate.dashboard.conftest import Web, full_key_of
from tests.upstream import Provider, Reply


def _row(user_id: str, at: datetime, integration: str, status: int | None, error: str | None):
    return Execution(
        id=new_sortable_id("exe"),
        user_id=user_id,
        key_id=None,
        integration=integration,
        endpoint="get_user",
        upstream_status=status,
        error=error,
        duration_ms=5,
        created_at=at,
    )


async def _insert(harness: Harness, rows: list[Execution]) -> None:
    async with harness.sessionmaker() as session:
        session.add_all(rows)
        await session.commit()


async def _landed(harness: Harness, n: int) -> None:
    """Wait for the execution writer's background batch (a flush does not wait for a
    batch already in flight) so the page's counts are deterministic."""
    for _ in range(100):
        await harness.executions.flush()
        async with harness.sessionmaker() as session:
            if await session.scalar(select(func.count()).select_from(Execution)) == n:
                return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the execution log never held {n} rows")


async def test_daily_counts_group_by_utc_day_integration_and_outcome(harness: Harness) -> None:
    ada = await harness.user("ada@example.com")
    eve = await harness.user("eve@example.com")
    today = datetime(2026, 11, 23, tzinfo=UTC)
    day = timedelta(days=1)
    await _insert(
        harness,
        [
            # 22 Nov, the last microsecond and the first of 23 Nov: two different UTC days
            _row(ada.id, today - timedelta(microseconds=1), "sample", 200, None),
            _row(ada.id, today, "sample", 200, None),
            _row(ada.id, today + timedelta(hours=23), "sample", 404, None),
            _row(ada.id, today + timedelta(hours=1), "sample", None, "upstream_timeout"),
            _row(ada.id, today + timedelta(hours=2), "oauthy", None, "integration_not_connected"),
            _row(ada.id, today + timedelta(hours=3), "oauthy", 302, None),
            _row(ada.id, today - 13 * day, "oauthy", 201, None),  # the first day shown
            _row(ada.id, today - 14 * day, "oauthy", 200, None),  # before the window
            _row(eve.id, today, "sample", 200, None),  # someone else's
        ],
    )
    since = window_start(today.date())
    assert since == today - 13 * day
    async with harness.sessionmaker() as session:
        if session.get_bind().dialect.name == "postgresql":
            # Far from UTC: the days must still be UTC days.
            await session.execute(text("SET TIME ZONE 'Pacific/Kiritimati'"))
        repo = ExecutionRepository(session)
        everything = await repo.daily_counts(ada.id, since=since)
        only_sample = await repo.daily_counts(ada.id, since=since, integration="sample")
        failed = await repo.daily_counts(ada.id, since=since, outcome="error")
        succeeded = await repo.daily_counts(ada.id, since=since, outcome="success")
    assert everything == [
        DayCount("2026-11-10", "oauthy", True, 1),
        DayCount("2026-11-22", "sample", True, 1),
        DayCount("2026-11-23", "oauthy", False, 1),
        DayCount("2026-11-23", "oauthy", True, 1),
        DayCount("2026-11-23", "sample", False, 2),
        DayCount("2026-11-23", "sample", True, 1),
    ]
    assert {(c.day, c.ok, c.count) for c in only_sample} == {
        ("2026-11-22", True, 1),
        ("2026-11-23", True, 1),
        ("2026-11-23", False, 2),
    }
    assert {(c.day, c.integration, c.count) for c in failed} == {
        ("2026-11-23", "sample", 2),
        ("2026-11-23", "oauthy", 1),
    }
    assert all(c.ok for c in succeeded)
    assert sum(c.count for c in succeeded) == 4


def test_chart_geometry_stacks_per_day() -> None:
    today = datetime(2026, 11, 23, tzinfo=UTC).date()
    counts = [
        DayCount("2026-11-23", "sample", True, 6),
        DayCount("2026-11-23", "sample", False, 2),
        DayCount("2026-11-23", "oauthy", False, 2),
        DayCount("2026-11-20", "oauthy", True, 5),
        DayCount("2026-10-01", "oauthy", True, 99),  # outside the window: ignored
    ]
    chart = build_chart(counts, {"sample": "Sample", "oauthy": "OAuthy"}, today)
    assert len(chart.bars) == DAYS
    assert chart.bars[0].iso == "2026-11-10"
    assert chart.bars[-1].iso == "2026-11-23"
    last = chart.bars[-1]
    assert (last.total, last.failed) == (10, 2 + 2)
    assert chart.total == 15
    assert chart.busiest is last
    assert [t.value for t in chart.ticks] == [0, 5, 10]
    # Stacked: each segment starts where the one below ends; the top one reaches the max.
    bottom = chart.baseline
    for seg in last.segments:
        assert seg.y + seg.height == pytest.approx(bottom)
        bottom = seg.y
    assert bottom == pytest.approx(12)  # the plot's top margin: 10 of an axis of 10
    assert [(s.integration, s.ok) for s in last.segments] == [
        ("oauthy", False),
        ("sample", True),
        ("sample", False),
    ]
    assert {i.integration: (i.total, i.failed) for i in chart.legend} == {
        "oauthy": (7, 2),
        "sample": (8, 2),
    }
    assert len({i.fill for i in chart.legend}) == 2


_DAY_RE = re.compile(r'<g class="day" data-day="([\d-]+)" data-total="(\d+)" data-failed="(\d+)">')
_SEG_RE = re.compile(r'data-integration="(\w+)" data-outcome="(\w+)" data-count="(\d+)"')


def _days(page: str) -> dict[str, tuple[int, int]]:
    return {d: (int(t), int(f)) for d, t, f in _DAY_RE.findall(page)}


def _segments(page: str) -> list[tuple[str, str, int]]:
    return [(i, o, int(n)) for i, o, n in _SEG_RE.findall(page)]


@pytest.mark.usefixtures("provider")
async def test_activity_page_draws_the_chart_with_the_filters(
    harness: Harness, signed_in: Web, provider: Provider
) -> None:
    empty = await signed_in.get("/activity")
    assert "No calls in the last 14 days" in empty.text
    assert '<svg class="activity-chart"' not in empty.text

    key = full_key_of((await signed_in.create_key("agent")).text)
    await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    provider.reply("GET", "/users/missing", Reply(404, {"message": "Not Found"}))
    assert (await harness.run(key, "sample", "get_user", username="octocat")).status_code == 200
    assert (await harness.run(key, "sample", "get_user", username="missing")).status_code == 200
    assert (await harness.run(key, "oauthy", "get_thing", thing_id="t1")).status_code == 403
    me = (await harness.client.get("/v1/me", headers={"Authorization": f"Bearer {key}"})).json()
    await _landed(harness, 3)
    three_days_ago = utcnow() - timedelta(days=3)
    await _insert(harness, [_row(me["id"], three_days_ago, "sample", 200, None)])

    page = await signed_in.get("/activity")
    assert page.status_code == 200
    days = _days(page.text)
    assert len(days) == DAYS
    today = utcnow().date().isoformat()
    assert days[today] == (3, 2)
    assert days[three_days_ago.date().isoformat()] == (1, 0)
    assert sum(t for t, _ in days.values()) == 4
    assert sorted(_segments(page.text)) == [
        ("oauthy", "error", 1),
        ("sample", "error", 1),
        ("sample", "success", 1),
        ("sample", "success", 1),
    ]
    assert 'role="img"' in page.text
    assert 'aria-labelledby="activity-chart-title"' in page.text
    assert '<title id="activity-chart-title">Calls per day' in page.text
    assert "4 calls from" in page.text  # the text summary
    assert "2 failed" in page.text
    assert "Hatched: failed" in page.text  # the legend
    assert re.search(r"<title>\w{3} \d+ \w{3}: 3 calls, 2 failed</title>", page.text)
    assert 'fill="url(#activity-chart-hatch)"' in page.text
    # The CSP allows neither: the chart needs no script and no inline style.
    assert "<script" not in page.text.split("</header>", 1)[-1]
    assert " style=" not in page.text

    only_sample = await signed_in.get("/activity", params={"integration": "sample"})
    assert _days(only_sample.text)[today] == (2, 1)
    assert {i for i, _, _ in _segments(only_sample.text)} == {"sample"}
    assert "matching these filters" in only_sample.text
    failed = await signed_in.get("/activity", params={"outcome": "error"})
    assert _days(failed.text)[today] == (2, 2)
    assert {o for _, o, _ in _segments(failed.text)} == {"error"}
    assert sum(t for t, _ in _days(failed.text).values()) == 2
