"""Approval webhooks delivered until they arrive (issue 28): each event is a row
(`webhook_deliveries`) written with the change it announces, sent by the delivery
loop, retried with backoff on failure (the same `webhook-id` and body each time),
across a restart, once across two instances (a conditional UPDATE claims each
attempt), capped; `approval.decided` and `approval.expired` besides
`approval.pending`; the settings by API (/notification-webhook). Against the run's
loopback receiver, which records what it receives and answers what a test says.

The tests send with `drain()` on apps whose loop is stopped (test_webhook.py,
`driven`): each attempt is the test's, none a loop's that ticked meanwhile; the loop
itself has its own test."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select, update

from skillgate.catalog.loader import Catalog
from skillgate.db.base import utcnow
from skillgate.executor.models import Approval
from skillgate.users.models import WebhookDelivery
from skillgate.users.webhook import MAX_ATTEMPTS, RETRY_DELAYS
from tests.conftest import Harness, bearer, open_harness, state_of
from tests.skillgate.dashboard.test_webhook import (
    ISSUE,
    _held_key,
    _hooks,
    _save,
    _signed_in,
    _verify,
    driven,
    hooked,
)
from tests.upstream import Provider, Recorded, Reply

__all__ = ["hooked"]


def flaky(*statuses: int) -> Any:
    """A receiver answering `statuses` in turn, then 204."""
    left = list(statuses)

    def answer(_: Recorded) -> Reply:
        return Reply(left.pop(0) if left else 204)

    return answer


async def deliveries(harness: Harness) -> list[WebhookDelivery]:
    async with state_of(harness.app).sessionmaker() as session:
        rows = await session.scalars(select(WebhookDelivery).order_by(WebhookDelivery.created_at))
        return list(rows)


async def make_due(harness: Harness) -> None:
    """Time passes: every pending delivery's next attempt is now."""
    async with state_of(harness.app).sessionmaker() as session, session.begin():
        await session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.state == "pending")
            .values(next_attempt_at=utcnow() - timedelta(seconds=1))
        )


async def drain(harness: Harness) -> int:
    return await state_of(harness.app).webhooks.drain()


async def test_a_failed_delivery_is_retried_with_the_same_message_until_it_arrives(
    hooked: Harness, provider: Provider
) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    secret = await _save(ada, f"{provider.url}/hooks/ada")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", flaky(503))
    provider.clear()
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    await drain(hooked)

    [row] = await deliveries(hooked)
    assert (row.state, row.attempts, row.last_status) == ("pending", 1, 503)
    wait = (row.next_attempt_at - utcnow()).total_seconds()
    assert RETRY_DELAYS[0] - 5 < wait <= RETRY_DELAYS[0]  # backoff: not before its time
    assert await drain(hooked) == 0  # not due yet: nothing sent
    page = (await ada.get("/approvals")).text
    assert 'data-state="pending"' in page
    assert "answered 503" in page

    await make_due(hooked)
    assert await drain(hooked) == 1
    [row] = await deliveries(hooked)
    assert (row.state, row.attempts, row.last_status) == ("delivered", 2, 204)
    first, second = _hooks(provider)
    assert first.headers["webhook-id"] == second.headers["webhook-id"] == row.msg_id
    assert first.body == second.body  # the same message, signed again
    _verify(secret, first)
    _verify(secret, second)
    assert 'data-state="delivered"' in (await ada.get("/approvals")).text


async def test_deliveries_survive_a_restart(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    provider.reply("POST", "/hooks/ada", Reply(500))
    async with driven(database_url, tmp_path / "one", test_catalog) as first:
        ada = await _signed_in(first, "ada@example.com")
        await _save(ada, f"{provider.url}/hooks/ada")
        full = await _held_key(first, "ada@example.com")
        provider.clear()
        assert (await first.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
        await drain(first)
        assert len(_hooks(provider)) == 1
    # The server stopped with the event undelivered; another starts on the same database.
    provider.reply("POST", "/hooks/ada", Reply(204))
    async with driven(database_url, tmp_path / "two", test_catalog) as second:
        await make_due(second)
        assert await drain(second) == 1
        [row] = await deliveries(second)
        assert (row.state, row.attempts) == ("delivered", 2)
        assert [h.json()["type"] for h in _hooks(provider)] == ["approval.pending"] * 2


async def test_two_instances_deliver_each_attempt_once(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    provider.reply("POST", "/hooks/ada", flaky(500))
    async with (
        driven(database_url, tmp_path / "a", test_catalog) as one,
        driven(database_url, tmp_path / "b", test_catalog) as two,
    ):
        ada = await _signed_in(one, "ada@example.com")
        await _save(ada, f"{provider.url}/hooks/ada")
        full = await _held_key(one, "ada@example.com")
        provider.clear()
        assert (await one.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
        assert sorted(await asyncio.gather(drain(one), drain(two))) == [0, 1]
        assert len(_hooks(provider)) == 1  # the first attempt, once
        await make_due(one)
        sent = await asyncio.gather(drain(one), drain(two), drain(one), drain(two))
        assert sorted(sent) == [0, 0, 0, 1]
        assert len(_hooks(provider)) == 2  # the retry, once
        [row] = await deliveries(one)
        assert (row.state, row.attempts) == ("delivered", 2)


async def test_attempts_are_capped(hooked: Harness, provider: Provider) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    await _save(ada, f"{provider.url}/hooks/ada")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", Reply(500))
    provider.clear()
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    for _ in range(MAX_ATTEMPTS + 2):
        await drain(hooked)
        await make_due(hooked)
    [row] = await deliveries(hooked)
    assert (row.state, row.attempts) == ("failed", MAX_ATTEMPTS)
    assert len(_hooks(provider)) == MAX_ATTEMPTS
    assert 'data-state="failed"' in (await ada.get("/approvals")).text


async def test_decided_and_expired_are_announced(hooked: Harness, provider: Provider) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    await _save(ada, f"{provider.url}/hooks/ada")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", Reply(204))
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    provider.clear()

    approved = (await hooked.run(full, "sample", "create_issue", **ISSUE)).json()["approval"]
    r = await ada.post(
        f"/approvals/{approved['id']}/approve", {}, csrf_from=f"/approvals/{approved['id']}"
    )
    assert r.status_code == 200, r.text
    denied = (await hooked.run(full, "sample", "create_issue", **dict(ISSUE, title="No"))).json()
    r = await ada.post(
        f"/approvals/{denied['approval']['id']}/deny",
        {},
        csrf_from=f"/approvals/{denied['approval']['id']}",
    )
    assert r.status_code == 200, r.text
    late = (await hooked.run(full, "sample", "create_issue", **dict(ISSUE, title="Late"))).json()
    async with state_of(hooked.app).sessionmaker() as session, session.begin():
        await session.execute(
            update(Approval)
            .where(Approval.id == late["approval"]["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
    # One pass: its sweep expires the late one, then it sends the six events.
    assert await drain(hooked) == 6

    events = [h.json() for h in _hooks(provider)]
    kinds = {(e["type"], e["data"]["approval_id"]) for e in events}
    assert kinds == set(
        [
            ("approval.pending", approved["id"]),
            ("approval.decided", approved["id"]),
            ("approval.pending", denied["approval"]["id"]),
            ("approval.decided", denied["approval"]["id"]),
            ("approval.pending", late["approval"]["id"]),
            ("approval.expired", late["approval"]["id"]),
        ]
    )
    decided = {e["data"]["approval_id"]: e["data"] for e in events
               if e["type"] == "approval.decided"}  # fmt: skip
    yes, no = decided[approved["id"]], decided[denied["approval"]["id"]]
    assert (yes["decision"], yes["state"], yes["upstream_status"]) == ("approved", "sent", 201)
    assert yes["decided_by"] == "session:ada@example.com"
    async with state_of(hooked.app).sessionmaker() as session:
        for event, approval_id in ((yes, approved["id"]), (no, denied["approval"]["id"])):
            stored = await session.get(Approval, approval_id)
            assert stored is not None
            assert stored.decided_at is not None
            assert event["decided_at"] == stored.decided_at.isoformat()  # as the row keeps it
    assert (no["decision"], no["state"], no["upstream_status"]) == ("denied", "denied", None)
    expired = next(e["data"] for e in events if e["type"] == "approval.expired")
    assert expired["endpoint"] == "create_issue"
    assert "expired_at" in expired
    rows = await deliveries(hooked)
    assert [row.state for row in rows] == ["delivered"] * 6  # one row per event


async def test_the_webhook_settings_by_api(hooked: Harness, provider: Provider) -> None:
    await hooked.user("ada@example.com")
    token = await hooked.token("ada@example.com")
    path = "/notification-webhook"
    assert (await hooked.client.get(path, headers=bearer(token))).status_code == 404
    bad = await hooked.client.put(
        path, json={"webhook_url": "http://hooks.example.com/x"}, headers=bearer(token)
    )
    assert bad.status_code == 400
    assert "webhook_url" in bad.json()["message"]
    r = await hooked.client.put(
        path, json={"webhook_url": f"{provider.url}/hooks/ada"}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    secret = r.json()["secret"]
    assert secret.startswith("whsec_")
    shown = await hooked.client.get(path, headers=bearer(token))
    assert shown.status_code == 200
    assert shown.json()["webhook_url"] == f"{provider.url}/hooks/ada"
    assert shown.json()["last_delivery"] is None
    assert secret not in shown.text  # shown once, at the PUT
    # An API key (an agent's) cannot read or point a person's notifications elsewhere.
    full, _ = await hooked.key("ada@example.com")
    for method in ("GET", "PUT", "DELETE"):
        refused = await hooked.client.request(
            method, path, json={"webhook_url": "https://evil.example/x"}, headers=bearer(full)
        )
        assert refused.status_code == 401, (method, refused.text)
    # Another user sees only their own (none).
    await hooked.user("eve@example.com")
    eve = await hooked.token("eve@example.com")
    assert (await hooked.client.get(path, headers=bearer(eve))).status_code == 404
    # The events reach the URL set by API, and GET shows the last delivery.
    provider.reply("POST", "/hooks/ada", Reply(204))
    await hooked.connect_token(full)
    policy = {"rules": [{"match": {"endpoint": "create_issue"}, "action": "approve"}]}
    key_id = (await hooked.client.get("/v1/me", headers=bearer(full))).json()["api_key"]["id"]
    r = await hooked.client.put(f"/api-keys/{key_id}/policy", json=policy, headers=bearer(token))
    assert r.status_code == 200
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    await drain(hooked)
    last = (await hooked.client.get(path, headers=bearer(token))).json()["last_delivery"]
    assert (last["event"], last["state"], last["attempts"]) == ("approval.pending", "delivered", 1)
    assert (await hooked.client.delete(path, headers=bearer(token))).status_code == 204
    assert (await hooked.client.get(path, headers=bearer(token))).status_code == 404


async def test_events_pending_when_notifications_stop_are_dropped(
    hooked: Harness, provider: Provider
) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    await _save(ada, f"{provider.url}/hooks/ada")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", Reply(500))
    provider.clear()
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    await drain(hooked)
    r = await ada.post("/approvals/webhook/remove", {}, csrf_from="/approvals")
    assert r.status_code == 303
    await make_due(hooked)
    await drain(hooked)
    [row] = await deliveries(hooked)
    assert row.state == "dropped"
    assert len(_hooks(provider)) == 1  # nothing more to a URL the person removed


async def test_the_loop_sends_by_itself_when_kicked_and_when_due(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    """The loop the other tests stop: the held call's kick sends its event at once, and
    a retry goes when it is due, with no `drain()`."""
    provider.reply("POST", "/hooks/ada", flaky(503))
    async with open_harness(
        database_url, tmp_path, test_catalog, webhook_allow_loopback=True
    ) as app:
        hooks = state_of(app.app).webhooks
        hooks.interval = 3600.0  # no tick in this test's time: what is sent, a kick sent
        hooks.kick()  # the loop waits with the new interval from now on
        ada = await _signed_in(app, "ada@example.com")
        await _save(ada, f"{provider.url}/hooks/ada")
        full = await _held_key(app, "ada@example.com")
        provider.clear()
        assert (await app.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
        row = await _until(app, lambda row: row.last_status is not None)
        assert (row.state, row.attempts, row.last_status) == ("pending", 1, 503)
        hooks.interval = 0.05
        hooks.kick()  # (nothing due: the retry waits its backoff) and the tick is short
        await make_due(app)
        row = await _until(app, lambda row: row.state != "pending")
        assert (row.state, row.attempts, row.last_status) == ("delivered", 2, 204)
        assert len(_hooks(provider)) == 2


async def _until(harness: Harness, done: Callable[[WebhookDelivery], bool]) -> WebhookDelivery:
    """The delivery once `done` holds for it (the loop sends on its own; 10 s at most)."""
    for _ in range(200):
        [row] = await deliveries(harness)
        if done(row):
            return row
        await asyncio.sleep(0.05)
    raise AssertionError(f"the loop did not send it: {row.state}, {row.attempts} attempts")
