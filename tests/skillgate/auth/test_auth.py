"""Access tokens, dashboard sessions and which routes accept what."""

from __future__ import annotations

import time

import pytest

from skillgate.auth.sessions import COOKIE_NAME, WebSessions
from skillgate.auth.tokens import TokenSigner
from skillgate.db.session import commit
from tests.conftest import PASSWORD, Harness, bearer


async def test_login_issues_a_short_lived_token(harness: Harness) -> None:
    await harness.user()
    r = await harness.client.post(
        "/auth/login", json={"email": "ADA@example.com ", "password": PASSWORD}
    )
    assert r.status_code == 200
    body = r.json()
    assert body["token_type"] == "bearer"
    assert body["expires_in"] == 900
    listed = await harness.client.get("/api-keys", headers=bearer(body["access_token"]))
    assert listed.status_code == 200


async def test_wrong_password_and_unknown_email_answer_alike(harness: Harness) -> None:
    await harness.user()
    wrong = await harness.client.post(
        "/auth/login", json={"email": "ada@example.com", "password": "nope-nope"}
    )
    unknown = await harness.client.post(
        "/auth/login", json={"email": "who@example.com", "password": "nope-nope"}
    )
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


async def test_expired_or_forged_token_is_401(harness: Harness) -> None:
    user = await harness.user()
    signer: TokenSigner = harness.signer
    old = signer.issue(user.id, now=time.time() - 10_000)
    forged = TokenSigner("another-secret-" + "y" * 40, 900).issue(user.id)
    for token in (old, forged, "a.b.c", "not-a-token"):
        r = await harness.client.get("/api-keys", headers=bearer(token))
        assert r.status_code == 401, token


async def _session(harness: Harness, user_id: str) -> tuple[str, str]:
    async with harness.sessionmaker() as s:
        settings = harness.settings
        token, csrf = await WebSessions(
            settings.session_idle_ttl, settings.session_absolute_ttl
        ).create(s, user_id)
        await commit(s)
    return token, csrf


async def test_session_cookie_works_and_needs_csrf_to_write(harness: Harness) -> None:
    user = await harness.user(plan="pro")
    token, csrf = await _session(harness, user.id)
    cookies = {COOKIE_NAME: token}
    harness.client.cookies.update(cookies)
    try:
        assert (await harness.client.get("/api-keys")).status_code == 200
        no_csrf = await harness.client.post("/api-keys", json={"name": "x"})
        assert no_csrf.status_code == 403
        _, other_csrf = await _session(harness, user.id)
        wrong = await harness.client.post(
            "/api-keys", json={"name": "x"}, headers={"x-csrf-token": other_csrf}
        )
        assert wrong.status_code == 403
        ok = await harness.client.post(
            "/api-keys", json={"name": "x"}, headers={"x-csrf-token": csrf}
        )
        assert ok.status_code == 201
    finally:
        harness.client.cookies.clear()


async def test_v1_routes_refuse_sessions(harness: Harness) -> None:
    user = await harness.user()
    token, _ = await _session(harness, user.id)
    harness.client.cookies.update({COOKIE_NAME: token})
    try:
        assert (await harness.client.get("/v1/me")).status_code == 401
    finally:
        harness.client.cookies.clear()


@pytest.mark.usefixtures("steady_clock")
async def test_json_login_is_throttled_per_account(harness: Harness) -> None:
    await harness.user()
    for _ in range(10):
        r = await harness.client.post(
            "/auth/login", json={"email": "ada@example.com", "password": "wrong-password"}
        )
        assert r.status_code == 401
    r = await harness.client.post(
        "/auth/login", json={"email": "ada@example.com", "password": PASSWORD}
    )
    assert r.status_code == 429  # even the right password, during the lock-out
    assert r.json()["error"] == "rate_limited"
    assert int(r.headers["retry-after"]) > 0
    other = await harness.client.post(
        "/auth/login", json={"email": "someone@example.com", "password": "whatever-1"}
    )
    assert other.status_code == 401  # another account is not locked
