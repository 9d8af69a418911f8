"""The approval pages in-process: only the signed-in owner sees and decides a held call
(another user 404), each decision needs the form's CSRF token, and a second decision
(a stale page, two tabs) is refused without sending anything again."""

from __future__ import annotations

import orjson
import pytest

from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web, full_key_of
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")
HOLD = {"rules": [{"match": {"endpoint": "create_issue"}, "action": "approve"}]}
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}


async def _held(harness: Harness, web: Web, provider: Provider) -> tuple[str, str]:
    """(the agent's key, the id of its held create_issue)."""
    await harness.user("ada@example.com", plan="pro")
    assert (await web.login("ada@example.com")).status_code == 303
    full, key = await harness.key("ada@example.com")
    await harness.connect_token(full)
    token = await harness.token("ada@example.com")
    r = await harness.client.put(f"/api-keys/{key['id']}/policy", json=HOLD, headers=bearer(token))
    assert r.status_code == 200, r.text
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 3}))
    provider.clear()
    r = await harness.run(full, "sample", "create_issue", **ISSUE)
    assert r.status_code == 202, r.text
    return full, str(r.json()["approval"]["id"])


async def test_the_owner_denies_on_the_page_and_the_agent_is_told(
    harness: Harness, web: Web, provider: Provider
) -> None:
    full, approval_id = await _held(harness, web, provider)
    listing = await web.get("/approvals")
    assert approval_id in listing.text
    page = await web.get(f"/approvals/{approval_id}")
    assert "Approve and send" in page.text
    assert "Bearer [redacted]" in page.text
    assert "good-token" not in page.text
    r = await web.post(f"/approvals/{approval_id}/deny", {}, csrf_from=None)
    assert r.status_code == 403  # no CSRF token: nothing decided
    r = await web.post(f"/approvals/{approval_id}/deny", {}, csrf_from="/approvals")
    assert r.status_code == 200
    assert 'id="approval-state">denied' in r.text
    r = await web.post(f"/approvals/{approval_id}/approve", {}, csrf_from="/approvals")
    assert r.status_code == 409  # decided already (a stale page)
    assert "no longer pending" in r.text
    told = await harness.run(full, "sample", "create_issue", **ISSUE)
    assert told.status_code == 403
    assert told.json()["error"] == "approval_denied"
    assert provider.api_requests() == []


async def test_another_user_cannot_see_or_decide(
    harness: Harness, web: Web, other_web: Web, provider: Provider
) -> None:
    _, approval_id = await _held(harness, web, provider)
    await harness.user("eve@example.com", plan="pro")
    assert (await other_web.login("eve@example.com")).status_code == 303
    assert approval_id not in (await other_web.get("/approvals")).text
    assert (await other_web.get(f"/approvals/{approval_id}")).status_code == 404
    r = await other_web.post(f"/approvals/{approval_id}/approve", {}, csrf_from="/approvals")
    assert r.status_code == 404
    assert provider.api_requests() == []


async def test_the_person_creates_an_approve_key_on_the_keys_page(
    harness: Harness, web: Web, provider: Provider
) -> None:
    _, approval_id = await _held(harness, web, provider)
    r = await web.create_key("my terminal", access="approve")
    assert r.status_code == 201, r.text
    approve_key = full_key_of(r.text)
    decided = await harness.client.post(
        f"/v1/approvals/{approval_id}/approve", headers=bearer(approve_key)
    )
    assert decided.json()["state"] == "sent"
    assert len(provider.api_requests()) == 1


async def test_a_session_approval_is_on_the_activity_page_and_in_the_export(
    harness: Harness, web: Web, provider: Provider
) -> None:
    _, approval_id = await _held(harness, web, provider)
    r = await web.post(f"/approvals/{approval_id}/approve", {}, csrf_from="/approvals")
    assert r.status_code == 200, r.text
    assert len(provider.api_requests()) == 1
    activity = await web.get("/activity")
    assert "approved by session:ada@example.com" in activity.text
    assert '<td data-label="Decision">held</td>' in activity.text
    exported = await web.get("/activity/export")
    rows = [orjson.loads(line) for line in exported.content.splitlines()]
    sent = [e for e in rows if e["decision"] == "approved"]
    assert [(e["approval_id"], e["decided_by"], e["status"]) for e in sent] == [
        (approval_id, "session:ada@example.com", 201)
    ]
