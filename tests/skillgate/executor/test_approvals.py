"""Out-of-band approval (issue 28 item 2): a call a key's policy holds is stored, not
sent; a person (an `approve` key, never the agent's) decides; the approved request is
sent once, exactly as shown. Against the loopback upstream that records what it
received, on SQLite and PostgreSQL, on the HTTP and MCP doors."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from skillgate.catalog.loader import Catalog
from skillgate.db.base import utcnow
from skillgate.executor.models import Approval
from tests.conftest import Harness, bearer, open_harness
from tests.skillgate.executor.paged import Caller, ready
from tests.skillgate.executor.test_policy import mcp_run, put_policy
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}
HOLD_WRITES = {"rules": [{"name": "writes wait", "match": {"class": "write"}, "action": "approve"}]}


async def held(caller: Caller) -> Caller:
    r = await put_policy(caller, HOLD_WRITES)
    assert r.status_code == 200, r.text
    return caller


async def approver(harness: Harness, email: str = "ada@example.com") -> str:
    """A key with the `approve` scope, created by the person (access token)."""
    full, key = await harness.key(email, name="my approvals", scopes=["approve"])
    assert key["scopes"] == ["approve"]
    return full


async def decide(harness: Harness, key: str, approval_id: str, verb: str) -> httpx.Response:
    return await harness.client.post(f"/v1/approvals/{approval_id}/{verb}", headers=bearer(key))


async def hold(caller: Caller, params: dict[str, Any] = ISSUE) -> dict[str, Any]:
    r = await caller.sample("create_issue", params)
    assert r.status_code == 202, r.text
    body: dict[str, Any] = r.json()
    assert body["error"] == "approval_pending"
    return dict(body["approval"])


@pytest.fixture
async def agent(caller: Caller, provider: Provider) -> Caller:
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    await held(caller)
    provider.clear()  # the connection's check
    return caller


async def test_a_held_call_is_stored_and_shown_and_nothing_is_sent(
    agent: Caller, provider: Provider
) -> None:
    provider.clear()
    dry = await agent.sample("create_issue", ISSUE, dry_run=True)
    assert dry.json()["policy"] == {
        "action": "approve",
        "rule": {"index": 1, "name": "writes wait"},
    }
    approval = await hold(agent)
    assert approval["state"] == "pending"
    assert approval["request"] == dry.json()["request"]  # what will be sent, as the dry run
    assert approval["rule"] == "rule 1 ('writes wait')"
    assert approval["approve_url"].endswith(f"/approvals/{approval['id']}")
    assert approval["poll_url"].endswith(f"/v1/approvals/{approval['id']}")
    # The same call again: the same approval (the retry pattern); other params: a new one.
    assert (await hold(agent))["id"] == approval["id"]
    other = await hold(agent, {**ISSUE, "title": "Another"})
    assert other["id"] != approval["id"]
    # Reads are not held by this policy.
    assert (await agent.sample("list_issues", {"owner": "o", "repo": "r"})).status_code == 200
    assert [r.method for r in provider.api_requests()] == ["GET"]
    polled = await agent.harness.client.get(
        f"/v1/approvals/{approval['id']}", headers=bearer(agent.full)
    )
    assert polled.json()["state"] == "pending"
    assert ("create_issue", "approval_pending") in await agent.log("endpoint", "error")


async def test_the_agent_cannot_approve_itself(agent: Caller, provider: Provider) -> None:
    harness = agent.harness
    approval = await hold(agent)
    # Its own key: no `approve` scope.
    r = await decide(harness, agent.full, approval["id"], "approve")
    assert r.status_code == 403
    assert "approve" in r.json()["message"]
    # It cannot mint one: `*` does not include `approve`.
    r = await harness.client.post(
        "/api-keys", json={"name": "x", "scopes": ["approve"]}, headers=bearer(agent.full)
    )
    assert r.status_code == 403, r.text
    r = await harness.client.post(
        "/api-keys", json={"name": "x", "scopes": ["*", "approve"]}, headers=bearer(agent.full)
    )
    assert r.status_code == 403, r.text
    # No option of the call makes it run: a confirmation token, an idempotency key.
    r = await agent.sample("create_issue", ISSUE, confirm="cf_whatever")
    assert r.status_code in (202, 409), r.text
    r = await agent.sample("create_issue", ISSUE, idem="k1")
    assert r.status_code == 202
    assert provider.api_requests() == []


async def test_approved_once_sent_once_exactly_as_shown(agent: Caller, provider: Provider) -> None:
    harness = agent.harness
    approval = await hold(agent)
    person = await approver(harness)
    provider.clear()
    r = await decide(harness, person, approval["id"], "approve")
    assert r.status_code == 200, r.text
    decided = r.json()
    assert decided["state"] == "sent"
    assert decided["result"] == {"status": 201, "data": {"number": 7}}
    [sent] = provider.api_requests()
    assert f"{provider.url}{sent.path}" == approval["request"]["url"]
    assert sent.json() == approval["request"]["body"] == {"title": "Bug"}
    assert sent.headers["authorization"] == "Bearer good-token"
    # Replayed: the decision is taken, nothing sent again.
    again = await decide(harness, person, approval["id"], "approve")
    assert again.status_code == 409
    assert (await decide(harness, person, approval["id"], "deny")).status_code == 409
    # The agent's retry gets the envelope, once; the next identical call is a new hold.
    r = await agent.sample("create_issue", ISSUE)
    assert r.status_code == 200, r.text
    assert r.json() == {"status": 201, "data": {"number": 7}}
    assert (await hold(agent))["id"] != approval["id"]
    assert len(provider.api_requests()) == 1
    log = await agent.log("endpoint", "error", "outcome", "status")
    assert log[:3] == [
        ("create_issue", "approval_pending", "error", None),  # the next call, held
        ("create_issue", "replayed", "replayed", 201),  # the answer delivered to the retry
        ("create_issue", "approved", "success", 201),  # the send, when the person approved
    ]


async def test_denied_and_expired_calls_tell_the_agent(agent: Caller, provider: Provider) -> None:
    harness = agent.harness
    person = await approver(harness)
    first = await hold(agent)
    r = await decide(harness, person, first["id"], "deny")
    assert r.json()["state"] == "denied"
    r = await agent.sample("create_issue", ISSUE)
    assert r.status_code == 403
    assert r.json()["error"] == "approval_denied"
    assert "was denied" in r.json()["message"]

    second = await hold(agent, {**ISSUE, "title": "Late"})
    async with harness.sessionmaker() as session, session.begin():
        await session.execute(
            update(Approval)
            .where(Approval.id == second["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    polled = await harness.client.get(f"/v1/approvals/{second['id']}", headers=bearer(agent.full))
    assert polled.json()["state"] == "expired"
    assert (await decide(harness, person, second["id"], "approve")).status_code == 409
    r = await agent.sample("create_issue", {**ISSUE, "title": "Late"})
    assert r.status_code == 403
    assert "expired" in r.json()["message"]
    assert provider.api_requests() == []


async def test_other_keys_and_users_do_not_see_an_approval(agent: Caller) -> None:
    harness = agent.harness
    approval = await hold(agent)
    path = f"/v1/approvals/{approval['id']}"
    sibling, _ = await harness.key("ada@example.com", name="sibling")
    assert (await harness.client.get(path, headers=bearer(sibling))).status_code == 404
    await harness.user("eve@example.com", plan="pro")
    eve_key, _ = await harness.key("eve@example.com")
    eve_approver = await approver(harness, "eve@example.com")
    missing = await harness.client.get("/v1/approvals/apr_missing", headers=bearer(eve_key))
    other = await harness.client.get(path, headers=bearer(eve_key))
    assert other.status_code == missing.status_code == 404
    assert other.json()["message"] == missing.json()["message"]
    assert (await decide(harness, eve_approver, approval["id"], "approve")).status_code == 404


async def test_a_long_poll_answers_when_the_person_decides(agent: Caller) -> None:
    harness = agent.harness
    approval = await hold(agent)
    person = await approver(harness)
    started = time.monotonic()
    path = f"/v1/approvals/{approval['id']}?wait=20"
    poll = asyncio.create_task(harness.client.get(path, headers=bearer(agent.full)))
    await asyncio.sleep(0.3)
    assert not poll.done()  # held by the wait, not answered at once
    await decide(harness, person, approval["id"], "approve")
    r = await poll
    assert r.json()["state"] == "sent"
    assert time.monotonic() - started < 10
    # A bounded wait: over the limit is a 400 naming it.
    r = await harness.client.get(
        f"/v1/approvals/{approval['id']}?wait=31", headers=bearer(agent.full)
    )
    assert r.status_code == 400
    assert "wait" in r.json()["message"]


async def test_mcp_held_then_delivered(agent: Caller, provider: Provider) -> None:
    harness = agent.harness
    result = await mcp_run(harness, agent.full, "create_issue", ISSUE)
    assert result["isError"] is True
    pending = result["structuredContent"]
    assert pending["error"] == "approval_pending"
    await decide(harness, await approver(harness), pending["approval"]["id"], "approve")
    result = await mcp_run(harness, agent.full, "create_issue", ISSUE)
    assert result["isError"] is False, result
    assert result["structuredContent"] == {"status": 201, "data": {"number": 7}}
    assert len(provider.api_requests()) == 1


async def test_two_instances_send_an_approval_once_and_it_survives_a_restart(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with open_harness(database_url, tmp_path / "a", test_catalog) as first:
        agent = await held(await ready(first))
        provider.clear()
        approval = await hold(agent)
        assert provider.api_requests() == []
        person = await approver(first)
    # The first instance is gone; two others decide at the same moment.
    async with (
        open_harness(database_url, tmp_path / "a", test_catalog) as one,
        open_harness(database_url, tmp_path / "b", test_catalog) as two,
    ):
        provider.clear()
        answers = await asyncio.gather(
            decide(one, person, approval["id"], "approve"),
            decide(two, person, approval["id"], "approve"),
        )
        assert sorted(r.status_code for r in answers) == [200, 409]
        assert len(provider.api_requests()) == 1
