"""Dry runs and confirmation of destructive calls, against the loopback upstream that
records what it received, on SQLite and PostgreSQL (the tokens live in the database)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from skillgate.db.base import utcnow
from skillgate.executor.models import Confirmation
from tests.conftest import Harness, bearer
from tests.skillgate.executor.paged import Caller, assert_refused, ready
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")
DELETE = {"owner": "o", "repo": "r", "number": 7}
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}


async def test_dry_run_builds_the_request_and_sends_nothing(
    caller: Caller, provider: Provider
) -> None:
    provider.clear()
    r = await caller.sample("create_issue", {**ISSUE, "labels": ["a"]}, dry_run=True)
    assert r.status_code == 200, r.text
    assert "x-ratelimit-remaining" not in r.headers  # no rate limit spent
    assert r.json() == {
        "dry_run": True,
        "request": {
            "method": "POST",
            "url": f"{provider.url}/repos/o/r/issues",
            "headers": {
                "User-Agent": r.json()["request"]["headers"]["User-Agent"],
                "Accept": "application/json",
                "Content-Type": "application/json",
                "Authorization": "Bearer [redacted]",
            },
            "body": {"title": "Bug", "labels": ["a"]},
        },
        "destructive": False,
        "confirmation_required": False,
    }
    assert "good-token" not in r.text
    assert provider.api_requests() == []
    # The same call for real sends exactly what the dry run showed.
    real = await caller.sample("create_issue", {**ISSUE, "labels": ["a"]})
    assert real.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.json() == {"title": "Bug", "labels": ["a"]}
    assert f"{provider.url}{sent.path}" == r.json()["request"]["url"]

    assert await caller.log("endpoint", "error", "outcome") == [
        ("create_issue", None, "success"),
        ("create_issue", "dry_run", "dry_run"),
    ]


async def test_dry_run_still_validates_like_a_real_call(caller: Caller) -> None:
    r = await caller.sample("create_issue", {"owner": "o"}, dry_run=True)
    assert r.status_code == 400
    assert "title: is required" in r.json()["message"]
    r = await caller.sample("create_issue", ISSUE, dry_run="yes")
    assert_refused(r, "dry_run")


async def test_unconfirmed_destructive_call_sends_nothing_and_confirmed_sends_once(
    caller: Caller, provider: Provider
) -> None:
    # `caller`'s key is new: new keys confirm destructive calls.
    provider.reply("DELETE", "/repos/o/r/issues/7", Reply(204))
    provider.clear()
    r = await caller.sample("delete_issue", DELETE)
    assert r.status_code == 409
    body = r.json()
    assert set(body) == {"error", "message", "preview", "confirm", "expires_in"}
    assert body["error"] == "confirmation_required"
    assert body["expires_in"] == 300
    assert body["preview"]["method"] == "DELETE"
    assert body["preview"]["url"] == f"{provider.url}/repos/o/r/issues/7"
    assert body["preview"]["headers"]["Authorization"] == "Bearer [redacted]"
    assert body["confirm"].startswith("cf_")
    assert provider.api_requests() == []

    ok = await caller.sample("delete_issue", DELETE, confirm=body["confirm"])
    assert ok.status_code == 200, ok.text
    assert ok.json()["status"] == 204
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("DELETE", "/repos/o/r/issues/7")

    again = await caller.sample("delete_issue", DELETE, confirm=body["confirm"])
    assert again.status_code == 409
    assert again.json()["error"] == "confirmation_invalid"
    assert "already used" in again.json()["message"]
    assert len(provider.api_requests()) == 1  # the replay sent nothing


async def test_a_token_is_bound_to_its_key_endpoint_and_params(
    harness: Harness, caller: Caller, provider: Provider
) -> None:
    other_key, _ = await harness.key()
    provider.clear()
    token = (await caller.sample("delete_issue", DELETE)).json()["confirm"]
    for who, params in (
        (caller, {**DELETE, "number": 8}),  # other params
        (caller, {**DELETE, "reason": "spam"}),  # one more param
        (Caller(harness, other_key), DELETE),  # another key of the same user
    ):
        r = await who.sample("delete_issue", params, confirm=token)
        assert r.status_code == 409
        assert r.json()["error"] == "confirmation_invalid"
        assert "another request" in r.json()["message"]
    assert provider.api_requests() == []
    # Refused attempts do not use the token up: the request it was made for still runs.
    provider.reply("DELETE", "/repos/o/r/issues/7", Reply(204))
    r = await caller.sample("delete_issue", DELETE, confirm=token)
    assert r.json()["status"] == 204
    # Another user's token is unknown to this user.
    bo = await ready(harness, "bo@example.com")
    bo_token = (await bo.sample("delete_issue", DELETE)).json()["confirm"]
    r = await caller.sample("delete_issue", DELETE, confirm=bo_token)
    assert r.status_code == 409
    assert "unknown" in r.json()["message"]
    r = await caller.sample("delete_issue", DELETE, confirm="cf_made_up")
    assert "unknown" in r.json()["message"]
    assert [x.method for x in provider.api_requests() if x.method == "DELETE"] == ["DELETE"]


async def test_an_expired_token_is_refused(caller: Caller, provider: Provider) -> None:
    provider.clear()
    token = (await caller.sample("delete_issue", DELETE)).json()["confirm"]
    async with caller.harness.sessionmaker() as s, s.begin():
        await s.execute(update(Confirmation).values(expires_at=utcnow() - timedelta(seconds=1)))
    r = await caller.sample("delete_issue", DELETE, confirm=token)
    assert r.status_code == 409
    assert "expired" in r.json()["message"]
    assert provider.api_requests() == []


async def test_the_keys_policy_decides(harness: Harness, provider: Provider) -> None:
    await harness.user(plan="pro")
    never_key, made = await harness.key(confirm="never")
    assert made["confirm"] == "never"
    writes_key, _ = await harness.key(confirm="writes")
    await harness.connect_token(never_key)
    never, writes = Caller(harness, never_key), Caller(harness, writes_key)
    provider.reply("DELETE", "/repos/o/r/issues/7", Reply(204))
    provider.clear()
    r = await never.sample("delete_issue", DELETE)
    assert r.json()["status"] == 204  # no confirmation asked
    r = await writes.sample("create_issue", ISSUE)
    assert r.status_code == 409  # every write asks
    assert "changes data" in r.json()["message"]
    r = await writes.sample("list_issues", {"owner": "o", "repo": "r"})
    assert r.status_code == 200  # reads never ask
    dry = await writes.sample("create_issue", ISSUE, dry_run=True)
    assert dry.json()["confirmation_required"] is True
    assert len(provider.api_requests()) == 2  # the delete and the list


async def test_a_key_cannot_make_a_key_that_confirms_less(harness: Harness) -> None:
    await harness.user(plan="pro")
    strict, _ = await harness.key(confirm="writes")
    r = await harness.client.post(
        "/api-keys", json={"name": "x", "confirm": "never"}, headers=bearer(strict)
    )
    assert_refused(r, "confirm", 403)
    r = await harness.client.post(
        "/api-keys", json={"name": "x", "confirm": "writes"}, headers=bearer(strict)
    )
    assert r.status_code == 201
    token = await harness.token()
    r = await harness.client.post(
        "/api-keys", json={"name": "x", "confirm": "sometimes"}, headers=bearer(token)
    )
    assert r.status_code == 400
    assert "confirm" in r.json()["message"]
