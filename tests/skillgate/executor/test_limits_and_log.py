"""Rate limits per key by plan, and the execution log."""

from __future__ import annotations

import asyncio

import pytest

from skillgate.kit.ratecount import MemoryCounter
from skillgate.users.limiter import PlanLimiter
from tests.conftest import Harness, bearer
from tests.skillgate.executor.paged import ready
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


@pytest.mark.usefixtures("steady_clock")
async def test_31st_call_in_a_minute_is_429_and_other_keys_are_unaffected(
    harness: Harness, provider: Provider
) -> None:
    ada = await ready(harness, plan="free")
    statuses = []
    for _ in range(31):
        r = await ada.sample("get_user", {"username": "x"})
        statuses.append(r.status_code)
    assert statuses == [200] * 30 + [429]
    assert r.json()["error"] == "rate_limited"
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= 60
    assert r.headers["ratelimit-policy"] == '"minute";q=30;w=60, "day";q=10000;w=86400'
    assert r.headers["ratelimit"].startswith('"minute";r=0;t=')
    # Another user's key has its own budget.
    other = await ready(harness, "other@example.com", plan="free")
    ok = await other.sample("get_user", {"username": "x"})
    assert ok.status_code == 200
    assert ok.headers["ratelimit"].startswith('"minute";r=29;')


async def test_unlimited_plan_has_no_limit_headers(harness: Harness, provider: Provider) -> None:
    ada = await ready(harness, plan="unlimited")
    r = await ada.sample("get_user", {"username": "x"})
    assert r.status_code == 200
    assert "ratelimit" not in r.headers


async def test_day_window_counts_too() -> None:
    limiter = PlanLimiter(MemoryCounter())
    for _ in range(3):
        assert (await limiter.check("k", None, 3)).allowed
    verdict = await limiter.check("k", None, 3)
    assert not verdict.allowed
    assert verdict.retry_after > 0
    assert verdict.headers["RateLimit-Policy"] == '"day";q=3;w=86400'


async def test_execution_log_lists_own_calls_newest_first(
    harness: Harness, provider: Provider
) -> None:
    await harness.user(plan="pro")
    full, key = await harness.key()
    await harness.connect_token(full)
    await harness.run(full, "sample", "get_user", username="first")
    from tests.upstream import Reply

    provider.reply("GET", "/users/missing", Reply(404, {"message": "Not Found"}))
    await harness.run(full, "sample", "get_user", username="missing")
    await harness.run(full, "sample", "create_issue", owner="o", repo="r")  # invalid: no title
    await harness.executions.flush()
    r = await harness.client.get("/v1/executions", headers=bearer(full))
    assert r.status_code == 200
    rows = r.json()["executions"]
    assert [(e["endpoint"], e["status"], e["error"]) for e in rows] == [
        ("create_issue", None, "bad_request"),
        ("get_user", 404, None),
        ("get_user", 200, None),
    ]
    assert all(e["key_id"] == key["id"] and e["integration"] == "sample" for e in rows)
    assert all(isinstance(e["duration_ms"], int) for e in rows)
    assert "first" not in r.text  # parameter values are never logged
    errors = (await harness.client.get("/v1/executions?outcome=error", headers=bearer(full))).json()
    assert [e["endpoint"] for e in errors["executions"]] == ["create_issue", "get_user"]
    page = (await harness.client.get("/v1/executions?limit=2", headers=bearer(full))).json()
    assert len(page["executions"]) == 2
    assert page["next_cursor"]
    rest = (
        await harness.client.get(
            f"/v1/executions?limit=2&cursor={page['next_cursor']}", headers=bearer(full)
        )
    ).json()
    assert [e["endpoint"] for e in rest["executions"]] == ["get_user"]
    assert rest["next_cursor"] is None
    await harness.user("b@example.com")
    other, _ = await harness.key("b@example.com")
    theirs = (await harness.client.get("/v1/executions", headers=bearer(other))).json()
    assert theirs == {"executions": [], "next_cursor": None}
    bad = await harness.client.get("/v1/executions?cursor=garbage!", headers=bearer(full))
    assert bad.status_code == 400


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_execution_log_is_written_off_the_request_path_in_batches(
    harness: Harness, provider: Provider
) -> None:
    ada = await ready(harness, plan="unlimited")
    writer = harness.executions
    await writer.close()  # stop the periodic flush so the count below is exact
    before = writer.written
    await asyncio.gather(*(ada.sample("get_user", {"username": "x"}) for _ in range(25)))
    assert writer.written == before  # nothing written while answering
    await writer.flush()
    assert writer.written == before + 25


async def test_pending_rows_are_flushed_at_shutdown(
    database_url: str, tmp_path: object, test_catalog: object
) -> None:
    from pathlib import Path

    from sqlalchemy import func, select

    from skillgate.app import create_app
    from skillgate.executions.models import Execution
    from tests.conftest import make_settings

    app = create_app(make_settings(database_url, Path(str(tmp_path))), catalog=test_catalog)  # type: ignore[arg-type]
    state = app.state.gateway
    async with app.router.lifespan_context(app):
        user = None
        from skillgate.db.session import commit
        from skillgate.users.service import UserService

        async with state.sessionmaker() as s:
            user = await UserService(s).create("shut@example.com", "password123")
            await commit(s)
        for _ in range(7):
            state.executions.record(
                user_id=user.id,
                key_id=None,
                integration="sample",
                endpoint="get_user",
                upstream_status=200,
                error=None,
                duration_ms=1.0,
            )
    # The app is shut down; its engine is disposed. Count with a fresh one.
    from skillgate.db.engine import create_engine

    engine = create_engine(database_url)
    async with engine.connect() as conn:
        count = (await conn.execute(select(func.count()).select_from(Execution))).scalar_one()
    await engine.dispose()
    assert count == 7


async def test_log_rows_read_back_like_the_orm_writes(harness: Harness) -> None:
    """The writer's batch insert (on SQLite its own connection and thread, one JSON
    parameter per batch) stores what SQLAlchemy would: types, NULLs, times."""
    from datetime import UTC, datetime, timedelta, timezone

    from sqlalchemy import select

    from skillgate.executions.models import Execution
    from skillgate.executions.sinks import SessionSink, SqliteSink

    sink = harness.executions._sink
    sqlite = harness.settings.is_sqlite
    assert isinstance(sink, SqliteSink if sqlite else SessionSink)

    user = await harness.user()
    at = datetime(2026, 11, 21, 5, 6, 7, 890123, tzinfo=UTC)
    writer = harness.executions
    writer.record(
        user_id=user.id,
        key_id="key_x",
        integration="sample",
        endpoint="get_user",
        upstream_status=201,
        error=None,
        duration_ms=12.6,
        at=at,
    )
    later = datetime(2026, 11, 21, 7, 0, 0, tzinfo=timezone(timedelta(hours=2)))  # 05:00 UTC
    writer.record(
        user_id=user.id,
        key_id=None,
        integration="sample",
        endpoint="nope\u00e9",
        upstream_status=None,
        error="not_found",
        duration_ms=0.2,
        at=later,
    )
    await writer.flush()
    async with harness.sessionmaker() as s:
        rows = (await s.execute(select(Execution).order_by(Execution.created_at))).scalars().all()
    got = [
        (r.user_id, r.key_id, r.endpoint, r.upstream_status, r.error, r.duration_ms, r.created_at)
        for r in rows
    ]
    assert got == [
        (user.id, None, "nope\u00e9", None, "not_found", 0, later),
        (user.id, "key_x", "get_user", 201, None, 13, at),
    ]


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_log_rows_wait_while_the_database_refuses_them(harness: Harness) -> None:
    from sqlalchemy import func, select, text

    from skillgate.executions.models import Execution

    user = await harness.user()
    writer = harness.executions
    await writer.close()  # no periodic flush during the test
    for _ in range(3):
        writer.record(
            user_id=user.id, key_id=None, integration="sample", endpoint="get_user",
            upstream_status=200, error=None, duration_ms=1,
        )  # fmt: skip
    async with harness.engine.begin() as conn:
        await conn.execute(text("ALTER TABLE executions RENAME TO executions_away"))
    try:
        await writer.flush()  # fails: the rows stay pending
        assert writer.written == 0
    finally:
        async with harness.engine.begin() as conn:
            await conn.execute(text("ALTER TABLE executions_away RENAME TO executions"))
    await writer.flush()
    assert writer.written == 3
    async with harness.sessionmaker() as s:
        assert (await s.execute(select(func.count()).select_from(Execution))).scalar_one() == 3


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_metrics_count_requests_and_executions(harness: Harness, provider: Provider) -> None:
    ada = await ready(harness)
    await ada.sample("get_user", {"username": "x"})
    await ada.sample("create_issue", {"owner": "o", "repo": "r"})  # invalid
    await ada.sample("nope", {})  # unknown: not a label
    r = await harness.client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    series = "skillgate_executions_total{{endpoint={!r},integration={!r},outcome={!r}}} 1.0"
    assert series.format("get_user", "sample", "success").replace("'", '"') in text
    assert series.format("create_issue", "sample", "bad_request").replace("'", '"') in text
    assert 'endpoint="nope"' not in text
    assert 'skillgate_http_requests_total{status_class="2xx"}' in text
    assert "skillgate_execution_duration_seconds_bucket" in text
    assert ada.full not in text
    assert "ada@example.com" not in text
