"""Idempotency-Key on execute: a repeat is answered from storage and never sent twice,
sequentially and concurrently, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from skillgate.executor.models import IdempotentCall
from tests.conftest import Harness, bearer
from tests.upstream import Provider, Recorded, Reply

pytestmark = pytest.mark.usefixtures("provider")
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}


async def _ready(harness: Harness) -> str:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    await harness.connect_token(full)
    return full


async def _post(
    harness: Harness, key: str, params: dict[str, Any], idem: str | None, **extra: Any
) -> httpx.Response:
    headers = bearer(key)
    if idem is not None:
        headers["Idempotency-Key"] = idem
    return await harness.client.post(
        "/v1/sample/create_issue", json={"params": params, **extra}, headers=headers
    )


def _numbered(provider: Provider, delay: float = 0.0) -> None:
    """Each issue created gets the next number: a repeat that reached the upstream
    would answer a new one."""

    def create(rec: Recorded) -> Reply:
        number = len([r for r in provider.api_requests() if r.method == "POST"])
        return Reply(201, {"number": number, "title": rec.json()["title"]}, delay=delay)

    provider.reply("POST", "/repos/o/r/issues", create)


async def test_a_repeat_is_answered_from_storage(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    _numbered(provider)
    provider.clear()
    first = await _post(harness, full, ISSUE, "order-1")
    assert first.status_code == 200
    assert first.json() == {"status": 201, "data": {"number": 1, "title": "Bug"}}
    assert "idempotent-replayed" not in first.headers
    again = await _post(harness, full, ISSUE, "order-1")
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["x-upstream-status"] == "201"
    assert len(provider.api_requests()) == 1
    # Another key sends anew; no key at all always sends.
    other = await _post(harness, full, ISSUE, "order-2")
    assert other.json()["data"]["number"] == 2
    plain = await _post(harness, full, ISSUE, None)
    assert plain.json()["data"]["number"] == 3
    # Stored per user: nothing of the request but its digest and the envelope.
    async with harness.sessionmaker() as s:
        rows = (await s.execute(select(IdempotentCall))).scalars().all()
    assert {r.state for r in rows} == {"done"}
    assert all(b"good-token" not in (r.envelope or b"") for r in rows)
    assert all("order-" not in r.key_hash for r in rows)
    await harness.executions.flush()
    log = (await harness.client.get("/v1/executions", headers=bearer(full))).json()
    assert [e["outcome"] for e in log["executions"]] == [
        "success",
        "success",
        "replayed",
        "success",
    ]


async def test_the_same_key_for_another_request_is_422(
    harness: Harness, provider: Provider
) -> None:
    full = await _ready(harness)
    _numbered(provider)
    provider.clear()
    assert (await _post(harness, full, ISSUE, "k")).status_code == 200
    r = await _post(harness, full, {**ISSUE, "title": "Other"}, "k")
    assert r.status_code == 422
    assert r.json()["error"] == "idempotency_key_reused"
    r = await _post(harness, full, ISSUE, "k", fields=["number"])  # other options: other request
    assert r.status_code in (400, 422)  # 422, or 400 while `fields` is unavailable
    assert len(provider.api_requests()) == 1
    # Keys are per user: another user's same key is theirs.
    await harness.user("bo@example.com", plan="pro")
    bo, _ = await harness.key("bo@example.com")
    await harness.connect_token(bo)
    r = await _post(harness, bo, {**ISSUE, "title": "Other"}, "k")
    assert r.json()["status"] == 201


async def test_ten_concurrent_duplicates_send_once(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    _numbered(provider, delay=0.3)
    provider.clear()
    answers = await asyncio.gather(*(_post(harness, full, ISSUE, "burst") for _ in range(10)))
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
    _numbered(provider)
    provider.clear()
    r = await _post(harness, full, ISSUE, "retry-me")
    assert r.status_code == 403  # not connected: nothing sent, nothing stored
    r = await _post(harness, full, {"owner": "o"}, "retry-me")
    assert r.status_code == 400  # bad params: the same
    await harness.connect_token(full)
    provider.clear()
    r = await _post(harness, full, ISSUE, "retry-me")
    assert r.json() == {"status": 201, "data": {"number": 1, "title": "Bug"}}


async def test_upstream_errors_are_stored_and_replayed_too(
    harness: Harness, provider: Provider
) -> None:
    full = await _ready(harness)
    provider.reply("POST", "/repos/o/r/issues", Reply(422, {"message": "Validation Failed"}))
    provider.clear()
    first = await _post(harness, full, ISSUE, "bad")
    again = await _post(harness, full, ISSUE, "bad")
    assert again.content == first.content
    assert again.json()["status"] == 422
    assert len(provider.api_requests()) == 1


async def test_a_bad_key_is_400(harness: Harness) -> None:
    full = await _ready(harness)
    for bad in ("x" * 256, "naïve", ""):
        r = await harness.client.post(
            "/v1/sample/create_issue",
            json={"params": ISSUE},
            headers=[*bearer(full).items(), ("Idempotency-Key", bad.encode())],
        )
        assert r.status_code == 400, bad
        assert r.json()["message"].startswith("Idempotency-Key:")
