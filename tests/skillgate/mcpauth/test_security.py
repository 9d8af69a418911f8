"""The issue's "must hold" list for the authorization server, each against the real
app and database: exact redirect URIs, single-use short-lived codes, PKCE, hashed
tokens, consent that cannot be skipped or forged, tokens only for /mcp, grants the
user's only, refresh rotation with its grace window, registration limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from skillgate.db.base import utcnow
from skillgate.mcpauth.models import OAuthCode, OAuthGrant, OAuthToken
from tests.conftest import Harness, bearer, client_for
from tests.skillgate.dashboard.conftest import Web
from tests.skillgate.mcpauth.conftest import REDIRECT, OAuthClient, local, mcp, query_of


async def test_a_code_is_single_use(oauth: OAuthClient) -> None:
    code = await oauth.code()
    first = await oauth.exchange(code)
    assert first.status_code == 200, first.text
    again = await oauth.exchange(code)
    assert again.status_code == 400
    assert again.json()["error"] == "invalid_grant"


async def test_a_wrong_verifier_is_refused_and_spends_the_code(oauth: OAuthClient) -> None:
    code = await oauth.code()
    wrong = await oauth.exchange(code, code_verifier="x" * 50)
    assert wrong.status_code == 400
    assert wrong.json()["error"] == "invalid_grant"
    right = await oauth.exchange(code)
    assert right.status_code == 400, "a code tried once is gone"


async def test_an_expired_code_is_refused(harness: Harness, oauth: OAuthClient) -> None:
    code = await oauth.code()
    async with harness.sessionmaker() as db:
        await db.execute(update(OAuthCode).values(expires_at=utcnow() - timedelta(seconds=1)))
        await db.commit()
    r = await oauth.exchange(code)
    assert r.status_code == 400
    assert r.json()["error"] == "invalid_grant"


async def test_the_code_is_bound_to_its_client(harness: Harness, oauth: OAuthClient) -> None:
    code = await oauth.code()
    thief = OAuthClient(harness.client, oauth.web)
    assert (await thief.register()).status_code == 201
    thief.verifier = oauth.verifier
    r = await thief.exchange(code)
    assert r.status_code == 400
    assert r.json()["error"] == "invalid_grant"


async def test_redirect_uris_match_exactly(oauth: OAuthClient) -> None:
    for other in (
        REDIRECT + "/",
        REDIRECT + "?x=1",
        "http://127.0.0.1:33419/callback",
        "https://evil.example/callback",
    ):
        params = oauth.authorize_params(redirect_uri=other)
        r = await oauth.client.get("/oauth/authorize", params=params)
        assert r.status_code == 400, (other, r.status_code)  # never redirected there
        assert "location" not in r.headers
    # the consent page checks again: a hand-made consent URL cannot add a redirect URI
    page = await oauth.consent_page()
    url = str(page.request.url).replace("33418", "33419")
    assert (await oauth.web.get(local(url))).status_code == 400


async def test_pkce_is_required_and_s256_only(oauth: OAuthClient) -> None:
    params = oauth.authorize_params()
    del params["code_challenge"]
    r = await oauth.client.get("/oauth/authorize", params=params)
    assert query_of(r.headers["location"])["error"] == "invalid_request"
    params = oauth.authorize_params(code_challenge_method="plain")
    r = await oauth.client.get("/oauth/authorize", params=params)
    assert query_of(r.headers["location"])["error"] == "invalid_request"


async def test_a_token_for_another_resource_is_not_issued(oauth: OAuthClient) -> None:
    params = oauth.authorize_params(resource="https://other.example/mcp")
    r = await oauth.client.get("/oauth/authorize", params=params)
    assert r.status_code == 302
    back = query_of(r.headers["location"])
    assert back["error"] == "invalid_target"
    assert back["state"] == oauth.state


async def test_tokens_are_stored_hashed(harness: Harness, oauth: OAuthClient) -> None:
    tokens = await oauth.tokens()
    async with harness.sessionmaker() as db:
        rows = (await db.execute(select(OAuthToken))).scalars().all()
        codes = (await db.execute(select(OAuthCode))).scalars().all()
    assert {row.kind for row in rows} == {"access", "refresh"}
    stored = {row.token_hash for row in rows} | {c.code_hash for c in codes}
    for value in (tokens["access_token"], tokens["refresh_token"]):
        assert value not in stored
        assert all(value[7:20] not in h for h in stored)
    assert all(len(h) == 64 for h in stored)


async def test_the_token_is_refused_by_every_other_route(
    harness: Harness, oauth: OAuthClient
) -> None:
    tokens = await oauth.tokens()
    token = tokens["access_token"]
    assert (await mcp(harness, token)).status_code == 200
    assert (await mcp(harness, tokens["refresh_token"])).status_code == 401  # not a bearer
    for method, path in (
        ("GET", "/v1/me"),
        ("GET", "/v1/skills"),
        ("POST", "/v1/sample/get_user"),
        ("GET", "/v1/connections"),
        ("GET", "/api-keys"),
        ("POST", "/api-keys"),
        ("GET", "/auth/me"),
    ):
        r = await harness.client.request(method, path, headers=bearer(token), json={})
        assert r.status_code in (401, 404), (path, r.status_code, r.text[:200])
        if r.status_code == 401:
            assert 'error="invalid_token"' in r.headers["www-authenticate"], path


async def test_consent_needs_a_signed_in_user(harness: Harness, oauth: OAuthClient) -> None:
    page = await oauth.consent_page()
    url = local(str(page.request.url))
    async with client_for(harness.app) as stranger:  # no session cookie
        anonymous = await stranger.get(url)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"].startswith("/login?next=%2Foauth%2Fconsent")


async def test_consent_cannot_be_forged(oauth: OAuthClient) -> None:
    page = await oauth.consent_page()
    no_token = await oauth.answer(page, csrf_token="")
    assert no_token.status_code == 403
    forged = await oauth.answer(page, csrf_token="x" * 43)
    assert forged.status_code == 403
    cross_site = await oauth.web.client.post(
        "/oauth/consent",
        data={"decision": "allow"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert cross_site.status_code == 403


async def test_the_consent_page_cannot_be_framed(oauth: OAuthClient) -> None:
    page = await oauth.consent_page()
    assert page.status_code == 200
    assert "Test Client" in page.text
    assert "127.0.0.1:33418" in page.text  # the redirect host is shown
    assert page.headers["x-frame-options"] == "DENY"
    csp = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    assert "form-action 'self' http://127.0.0.1:33418;" in csp
    assert page.headers["cache-control"] == "no-store"


async def test_deny_sends_access_denied_back(oauth: OAuthClient) -> None:
    page = await oauth.consent_page()
    r = await oauth.answer(page, decision="deny")
    assert r.status_code == 303
    back = query_of(r.headers["location"])
    assert r.headers["location"].startswith(REDIRECT + "?")
    assert back["error"] == "access_denied"
    assert back["state"] == oauth.state
    assert back["iss"] == "http://127.0.0.1:8000"


async def test_refresh_rotates_with_a_grace_window(harness: Harness, oauth: OAuthClient) -> None:
    first = await oauth.tokens()
    r = await oauth.refresh(first["refresh_token"])
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert (await mcp(harness, second["access_token"])).status_code == 200
    # the old one again at once (the client lost the answer): answered again
    again = await oauth.refresh(first["refresh_token"])
    assert again.status_code == 200, again.text
    # later than the grace window: a stolen copy; the grant ends
    async with harness.sessionmaker() as db:
        await db.execute(
            update(OAuthToken)
            .where(OAuthToken.rotated_at.is_not(None))
            .values(rotated_at=utcnow() - timedelta(seconds=120))
        )
        await db.commit()
    stolen = await oauth.refresh(first["refresh_token"])
    assert stolen.status_code == 400
    assert stolen.json()["error"] == "invalid_grant"
    assert (await oauth.refresh(second["refresh_token"])).status_code == 400
    fresh = await mcp(harness, again.json()["access_token"])
    assert fresh.status_code == 401


async def test_an_expired_access_token_is_refused(harness: Harness, oauth: OAuthClient) -> None:
    token = (await oauth.tokens())["access_token"]
    async with harness.sessionmaker() as db:
        await db.execute(
            update(OAuthToken)
            .where(OAuthToken.kind == "access")
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        await db.commit()
    r = await mcp(harness, token)
    assert r.status_code == 401
    assert "expired" in r.json()["message"]


async def test_grants_are_the_users_only(
    harness: Harness, oauth: OAuthClient, other_web: Web
) -> None:
    token = (await oauth.tokens())["access_token"]
    async with harness.sessionmaker() as db:
        grant = (await db.execute(select(OAuthGrant))).scalar_one()
    assert (await other_web.signup("eve@example.com")).status_code == 303
    keys = await other_web.get("/keys")
    assert "Test Client" not in keys.text
    r = await other_web.post(f"/keys/apps/{grant.id}/revoke", {})
    assert r.status_code == 404
    assert (await mcp(harness, token)).status_code == 200
    mine = await oauth.web.get("/keys")
    assert "Test Client" in mine.text
    assert grant.id in mine.text
    r = await oauth.web.post(f"/keys/apps/{grant.id}/revoke", {})
    assert r.status_code == 303
    assert (await mcp(harness, token)).status_code == 401
    assert "Revoked" in (await oauth.web.get("/keys")).text


async def test_the_client_can_revoke_its_grant(harness: Harness, oauth: OAuthClient) -> None:
    tokens = await oauth.tokens()
    r = await oauth.client.post(
        "/oauth/revoke", data={"token": tokens["refresh_token"], "client_id": oauth.client_id}
    )
    assert r.status_code == 200, r.text
    assert (await mcp(harness, tokens["access_token"])).status_code == 401


async def test_registration_refuses_unsafe_redirect_uris(harness: Harness) -> None:
    client = OAuthClient(harness.client, web=None)  # type: ignore[arg-type]
    for uri in ("javascript://x/%0aalert(1)", "http://evil.example/cb", "data://x/y"):
        r = await client.register(redirect_uris=[uri])
        assert r.status_code == 400, (uri, r.text)
    ok = await client.register(redirect_uris=["cursor://anysphere.cursor-mcp/oauth/callback"])
    assert ok.status_code == 201, ok.text


@pytest.mark.usefixtures("steady_clock")
async def test_registration_is_rate_limited(harness: Harness) -> None:
    client = OAuthClient(harness.client, web=None)  # type: ignore[arg-type]
    answers = [(await client.register()).status_code for _ in range(21)]
    assert answers[:20] == [201] * 20
    assert answers[20] == 429


async def test_any_requested_scope_is_accepted_and_the_token_says_mcp(
    harness: Harness, signed_in: Web
) -> None:
    """Clients register and ask with scope names of their own (Claude: `claudeai`); what
    the token may do is the consent page's choice, and every token says `mcp`."""
    client = OAuthClient(harness.client, signed_in)
    assert (await client.register(scope="claudeai")).status_code == 201
    page = await client.consent_page(scope="claudeai openid")
    assert page.status_code == 200
    r = await client.answer(page)
    back = query_of(r.headers["location"])
    tokens = await client.exchange(back["code"])
    assert tokens.status_code == 200, tokens.text
    assert tokens.json()["scope"] == "mcp"
