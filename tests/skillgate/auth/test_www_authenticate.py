"""The 401 challenge on every door (issue 23, item 7): a Bearer credential that was sent
and refused gets `error="invalid_token"` (RFC 6750, section 3.1); a request with no
credential, or one of another scheme, gets the plain challenge."""

from __future__ import annotations

import time
from typing import Any

import httpx

from skillgate.api_keys import keyformat
from skillgate.auth.tokens import TokenSigner
from tests.conftest import Harness, bearer

PLAIN = 'Bearer realm="skillgate"'
REFUSED = 'Bearer realm="skillgate", error="invalid_token"'
MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}


async def _ask(harness: Harness, door: str, headers: dict[str, str]) -> httpx.Response:
    """One request to `door` (agent: /v1/me, account: /api-keys, mcp: /mcp)."""
    if door == "agent":
        return await harness.client.get("/v1/me", headers=headers)
    if door == "account":
        return await harness.client.get("/api-keys", headers=headers)
    return await harness.client.post("/mcp", json=MCP_LIST, headers={**MCP_HEADERS, **headers})


def _challenge(r: httpx.Response) -> str:
    assert r.status_code == 401, (r.status_code, r.text[:200])
    assert r.json()["error"] == "unauthorized"
    challenges = r.headers.get_list("www-authenticate")
    assert len(challenges) == 1, challenges
    return challenges[0]


async def _revoked_key(harness: Harness) -> str:
    full, key = await harness.key()
    token = await harness.token()
    r = await harness.client.delete(f"/api-keys/{key['id']}", headers=bearer(token))
    assert r.status_code == 204
    return full


async def test_a_refused_api_key_says_invalid_token_on_every_door(harness: Harness) -> None:
    await harness.user(plan="pro")
    live, _ = await harness.key()
    refused = {
        "unknown key": keyformat.generate(),  # well formed, never stored
        "malformed key": "sk_not_a_real_key",
        "revoked key": await _revoked_key(harness),
        "not an API key": "definitely-not-a-key",
    }
    for door in ("agent", "mcp"):
        for what, credential in refused.items():
            r = await _ask(harness, door, bearer(credential))
            assert _challenge(r) == REFUSED, (door, what)
        r = await _ask(harness, door, {"Authorization": "Bearer"})  # empty credential
        assert _challenge(r) == REFUSED, (door, "empty")
        ok = await _ask(harness, door, bearer(live))  # and the live key still works
        assert ok.status_code == 200, (door, ok.text[:200])


async def test_a_refused_token_or_key_says_invalid_token_on_the_account_door(
    harness: Harness,
) -> None:
    user = await harness.user()
    signer: TokenSigner = harness.signer
    expired = signer.issue(user.id, now=time.time() - 10_000)
    forged = TokenSigner("another-secret-" + "y" * 40, 900).issue(user.id)
    full, _ = await harness.key()
    for what, credential in {"expired": expired, "forged": forged, "junk": "a.b.c"}.items():
        r = await _ask(harness, "account", bearer(credential))
        assert _challenge(r) == REFUSED, what
    # A live API key where only a sign-in is taken: sent, and refused.
    r = await harness.client.post(
        "/auth/device/authorize", json={"user_code": "ABCD-EFGH"}, headers=bearer(full)
    )
    assert _challenge(r) == REFUSED
    assert "cannot be used here" in r.json()["message"]


async def test_no_credential_keeps_the_plain_challenge(harness: Harness) -> None:
    """On /mcp, no credential at all also names the protected resource metadata, where an
    OAuth client starts its sign-in (RFC 9728, issue 27); a credential of another scheme
    was sent, so it gets the plain challenge there too."""
    await harness.user()
    cases: list[dict[str, Any]] = [{}, {"Authorization": "Basic YWRhOnB3"}]
    metadata = "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp"
    for door in ("agent", "account", "mcp"):
        for headers in cases:
            r = await _ask(harness, door, headers)
            expected = PLAIN
            if door == "mcp" and not headers:
                expected = f'{PLAIN}, resource_metadata="{metadata}"'
            assert _challenge(r) == expected, (door, headers)
