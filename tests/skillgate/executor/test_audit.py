"""Audit (issue 28 item 4): every decision on a call (allowed, denied by a rule, held,
approved by whom, rejected by whom, expired) is a row of the execution log, exported
as JSON lines (the caller's own rows, by date range) and, when turned on, an
OpenTelemetry span. Against the loopback upstream, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import orjson
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from sqlalchemy import update

from skillgate.db.base import utcnow
from skillgate.executor.models import Approval
from skillgate.kit import tracing
from tests.conftest import Harness, bearer
from tests.skillgate.executor.paged import Caller
from tests.skillgate.executor.test_approvals import ISSUE, agent, approver, decide, hold
from tests.skillgate.executor.test_policy import put_policy

pytestmark = pytest.mark.usefixtures("provider")
__all__ = ["agent"]  # the fixture, shared with test_approvals
DENY_READS = {"rules": [{"name": "no reads", "match": {"class": "read"}, "action": "deny"}]}
LIST = {"owner": "o", "repo": "r"}


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    tracing.configure(processor=SimpleSpanProcessor(exporter))
    yield exporter
    tracing.configure(None)
    assert tracing.SPANS is None


async def expire(harness: Harness, approval_id: str) -> None:
    async with harness.sessionmaker() as session, session.begin():
        await session.execute(
            update(Approval)
            .where(Approval.id == approval_id)
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )


async def export(harness: Harness, key: str, **query: str) -> list[dict[str, Any]]:
    r = await harness.client.get("/v1/executions/export", params=query, headers=bearer(key))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/x-ndjson"
    assert "attachment" in r.headers["content-disposition"]
    return [orjson.loads(line) for line in r.content.splitlines()]


async def every_decision(agent: Caller) -> tuple[str, dict[str, str]]:
    """Allowed, held + approved, held + rejected, held + expired, denied by a rule; the
    approver's full key and the approvals' ids by what became of them."""
    harness = agent.harness
    person = await approver(harness)
    assert (await agent.sample("list_issues", LIST)).status_code == 200  # allowed
    approved = await hold(agent)
    assert (await decide(harness, person, approved["id"], "approve")).status_code == 200
    rejected = await hold(agent, {**ISSUE, "title": "No"})
    assert (await decide(harness, person, rejected["id"], "deny")).status_code == 200
    late = await hold(agent, {**ISSUE, "title": "Late"})
    await expire(harness, late["id"])
    assert (await put_policy(agent, DENY_READS)).status_code == 200
    assert (await agent.sample("list_issues", LIST)).status_code == 403  # denied by the rule
    ids = {"approved": approved["id"], "rejected": rejected["id"], "expired": late["id"]}
    return person, ids


async def test_every_decision_is_logged_and_exported_once(agent: Caller) -> None:
    harness = agent.harness
    person, ids = await every_decision(agent)
    rows = await export(harness, agent.full)
    again = await export(harness, agent.full)
    assert [r["id"] for r in again] == [r["id"] for r in rows], [
        (r["decision"], r["endpoint"]) for r in again
    ]  # the expiry logged once
    decisions = [(r["endpoint"], r["decision"], r["error"], r["approval_id"]) for r in rows]
    assert decisions == [
        ("list_issues", "allowed", None, None),
        ("create_issue", "held", "approval_pending", ids["approved"]),
        ("create_issue", "approved", "approved", ids["approved"]),
        ("create_issue", "held", "approval_pending", ids["rejected"]),
        ("create_issue", "rejected", "approval_rejected", ids["rejected"]),
        ("create_issue", "held", "approval_pending", ids["expired"]),
        ("list_issues", "denied", "policy_denied", None),
        ("create_issue", "expired", "approval_expired", ids["expired"]),  # when first seen
    ], decisions
    by = {r["decision"]: r["decided_by"] for r in rows if r["decided_by"]}
    assert by["expired"] == "timeout"
    assert by["approved"] == by["rejected"]
    assert by["approved"].startswith("api_key:")
    shown_prefix = by["approved"].removeprefix("api_key:")
    assert person.startswith(shown_prefix)
    assert len(shown_prefix) < len(person) // 2
    assert rows[2]["status"] == 201
    assert rows[2]["outcome"] == "success"
    # No secret in the export: neither key, nor the connection's token.
    text = orjson.dumps(rows).decode()
    assert person not in text
    assert agent.full not in text
    assert "good-token" not in text
    # The list shows the same fields; a range that ends before the calls is empty.
    listed = await harness.client.get("/v1/executions", headers=bearer(agent.full))
    assert listed.json()["executions"][0]["decision"] == "expired"
    long_ago = (utcnow() - timedelta(days=60)).date().isoformat()
    assert await export(harness, agent.full, until=long_ago) == []


async def test_the_export_is_the_callers_own_and_checks_its_range(agent: Caller) -> None:
    harness = agent.harness
    assert (await agent.sample("list_issues", LIST)).status_code == 200
    await harness.user("eve@example.com", plan="pro")
    eve_key, _ = await harness.key("eve@example.com")
    assert await export(harness, eve_key) == []  # ada's row is not hers
    assert len(await export(harness, agent.full)) == 1
    for query, field in (
        ({"since": "yesterday"}, "since"),
        ({"until": "2026-13-01"}, "until"),
        ({"since": "2026-11-02", "until": "2026-11-01"}, "since"),
        ({"since": "2024-01-01", "until": "2026-01-01"}, "since"),
        ({"format": "csv"}, "format"),
    ):
        r = await harness.client.get(
            "/v1/executions/export", params=query, headers=bearer(agent.full)
        )
        assert r.status_code == 400, (query, r.text)
        assert r.json()["message"].startswith(field), r.text
    r = await harness.client.get("/v1/executions/export")
    assert r.status_code == 401


def _attrs(found: list[ReadableSpan], name: str) -> list[dict[str, Any]]:
    return [dict(s.attributes or {}) for s in found if s.name == name]


async def test_spans_of_calls_and_decisions_without_credentials(
    agent: Caller, spans: InMemorySpanExporter
) -> None:
    person, ids = await every_decision(agent)
    await export(agent.harness, agent.full)  # meets the expired approval
    found = list(spans.get_finished_spans())
    calls = _attrs(found, "skillgate.execute")
    assert [(a["skillgate.endpoint"], a["skillgate.decision"]) for a in calls] == [
        ("list_issues", "allowed"),
        ("create_issue", "held"),
        ("create_issue", "held"),
        ("create_issue", "held"),
        ("list_issues", "denied"),
    ]
    assert calls[0]["http.response.status_code"] == 200
    assert calls[1]["skillgate.approval_id"] == ids["approved"]
    assert calls[4]["skillgate.error"] == "policy_denied"
    assert {a["skillgate.door"] for a in calls} == {"api_key"}
    decided = _attrs(found, "skillgate.approval.decide")
    assert [(a["skillgate.decision"], a["skillgate.approval_id"]) for a in decided] == [
        ("approved", ids["approved"]),
        ("rejected", ids["rejected"]),
        ("expired", ids["expired"]),
    ]
    assert decided[0]["http.response.status_code"] == 201
    assert decided[0]["skillgate.decided_by"].startswith("api_key:")
    assert decided[2]["skillgate.decided_by"] == "timeout"
    # Every span ends after it starts; no credential in any attribute.
    assert all(s.end_time is not None and s.start_time <= s.end_time for s in found)
    values = orjson.dumps([dict(s.attributes or {}) for s in found]).decode()
    assert person not in values
    assert agent.full not in values
    assert "good-token" not in values
    assert all(s.resource.attributes["service.name"] == "skillgate" for s in found)


async def test_spans_are_off_by_default(agent: Caller) -> None:
    assert tracing.SPANS is None
    assert (await agent.sample("list_issues", LIST)).status_code == 200


def test_an_unknown_or_missing_exporter_is_named() -> None:
    with pytest.raises(ValueError, match="SKILLGATE_OTEL_EXPORTER"):
        tracing.processor_for("zipkin")
    with pytest.raises(ValueError, match="opentelemetry-exporter-otlp-proto-http"):
        tracing.processor_for("otlp")  # not installed by default
