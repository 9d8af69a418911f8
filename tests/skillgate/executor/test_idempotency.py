"""Idempotency-Key on execute: a repeat is answered from storage and never sent twice,
sequentially and concurrently, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from skillgate.executor.models import IdempotentCall
from tests.conftest import Harness, bearer
from tests.skillgate.executor.paged import Caller, assert_refused, ready
from tests.upstream import Provider, Recorded, Reply

pytestmark = pytest.mark.usefixtures("provider")
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}


def _numbered(provider: Provider, delay: float = 0.0) -> None:
    """Each issue created gets the next number: a repeat that reached the upstream
    would answer a new one."""

    def create(rec: Recorded) -> Reply:
        number = len([r for r in provider.api_requests() if r.method == "POST"])
        return Reply(201, {"number": number, "title": rec.json()["title"]}, delay=delay)

    provider.reply("POST", "/repos/o/r/issues", create)


async def test_a_repeat_is_answered_from_storage(caller: Caller, provider: Provider) -> None:
    _numbered(provider)
    provider.clear()
    first = await caller.sample("create_issue", ISSUE, "order-1")
    assert first.status_code == 200
    assert first.json() == {"status": 201, "data": {"number": 1, "title": "Bug"}}
    assert "idempotent-replayed" not in first.headers
    again = await caller.sample("create_issue", ISSUE, "order-1")
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["x-upstream-status"] == "201"
    assert len(provider.api_requests()) == 1
    # Another key sends anew; no key at all always sends.
    other = await caller.sample("create_issue", ISSUE, "order-2")
    assert other.json()["data"]["number"] == 2
    plain = await caller.sample("create_issue", ISSUE, None)
    assert plain.json()["data"]["number"] == 3
    # Stored per user: nothing of the request but its digest and the envelope.
    async with caller.harness.sessionmaker() as s:
        rows = (await s.execute(select(IdempotentCall))).scalars().all()
    assert {r.state for r in rows} == {"done"}
    assert all(b"good-token" not in (r.envelope or b"") for r in rows)
    assert all("order-" not in r.key_hash for r in rows)
    assert [outcome for (outcome,) in await caller.log("outcome")] == [
        "success",
        "success",
        "replayed",
        "success",
    ]


async def test_the_same_key_for_another_request_is_422(
    harness: Harness, caller: Caller, provider: Provider
) -> None:
    _numbered(provider)
    provider.clear()
    assert (await caller.sample("create_issue", ISSUE, "k")).status_code == 200
    r = await caller.sample("create_issue", {**ISSUE, "title": "Other"}, "k")
    assert r.status_code == 422
    assert r.json()["error"] == "idempotency_key_reused"
    # Other options: another request.
    r = await caller.sample("create_issue", ISSUE, "k", fields=["number"])
    assert r.status_code in (400, 422)  # 422, or 400 while `fields` is unavailable
    assert len(provider.api_requests()) == 1
    # Keys are per user: another user's same key is theirs.
    bo = await ready(harness, "bo@example.com")
    r = await bo.sample("create_issue", {**ISSUE, "title": "Other"}, "k")
    assert r.json()["status"] == 201


async def test_ten_concurrent_duplicates_send_once(caller: Caller, provider: Provider) -> None:
    _numbered(provider, delay=0.3)
    provider.clear()
    burst = (caller.sample("create_issue", ISSUE, "burst") for _ in range(10))
    answers = await asyncio.gather(*burst)
    assert [a.status_code for a in answers] == [200] * 10
    assert {a.content for a in answers} == {answers[0].content}
    assert answers[0].json()["data"]["number"] == 1
    assert sum(a.headers.get("idempotent-replayed") == "true" for a in answers) == 9
    assert len(provider.api_requests()) == 1


async def test_a_call_that_never_reached_the_upstream_frees_its_key(
    harness: Harness, provider: Provider
) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    caller = Caller(harness, full)
    _numbered(provider)
    provider.clear()
    r = await caller.sample("create_issue", ISSUE, "retry-me")
    assert r.status_code == 403  # not connected: nothing sent, nothing stored
    r = await caller.sample("create_issue", {"owner": "o"}, "retry-me")
    assert r.status_code == 400  # bad params: the same
    await harness.connect_token(full)
    provider.clear()
    r = await caller.sample("create_issue", ISSUE, "retry-me")
    assert r.json() == {"status": 201, "data": {"number": 1, "title": "Bug"}}


async def test_upstream_errors_are_stored_and_replayed_too(
    caller: Caller, provider: Provider
) -> None:
    provider.reply("POST", "/repos/o/r/issues", Reply(422, {"message": "Validation Failed"}))
    provider.clear()
    first = await caller.sample("create_issue", ISSUE, "bad")
    again = await caller.sample("create_issue", ISSUE, "bad")
    assert again.content == first.content
    assert again.json()["status"] == 422
    assert len(provider.api_requests()) == 1


async def test_a_bad_key_is_400(caller: Caller) -> None:
    for bad in ("x" * 256, "naïve", ""):
        r = await caller.harness.client.post(
            "/v1/sample/create_issue",
            json={"params": ISSUE},
            headers=[*bearer(caller.full).items(), ("Idempotency-Key", bad.encode())],
        )
        assert_refused(r, "Idempotency-Key")


async def test_try_again_answers_free_the_key(caller: Caller, provider: Provider) -> None:
    """429, 502 and 503 say the upstream did not act: the retry with the same key is sent;
    the answer after it is stored as usual."""
    answers = iter([Reply(503, {"message": "busy"}), Reply(429, {"message": "slow down"})])

    def flaky(rec: Recorded) -> Reply:
        return next(answers, Reply(201, {"number": 1, "title": rec.json()["title"]}))

    provider.reply("POST", "/repos/o/r/issues", flaky)
    provider.clear()
    statuses = [
        (await caller.sample("create_issue", ISSUE, "flaky")).json()["status"] for _ in range(4)
    ]
    assert statuses == [503, 429, 201, 201]
    assert len(provider.api_requests()) == 3  # the fourth was answered from storage
