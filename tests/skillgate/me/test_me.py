"""GET /v1/me and key verification caching."""

from __future__ import annotations

import pytest

from tests.conftest import Harness, bearer


async def test_me_describes_user_plan_and_key(harness: Harness) -> None:
    user = await harness.user()
    full, key = await harness.key(scopes=["sample"])
    r = await harness.client.get("/v1/me", headers=bearer(full))
    assert r.status_code == 200
    assert r.json() == {
        "id": user.id,
        "email": "ada@example.com",
        "display_name": "ada",
        "plan": "free",
        "limits": {"max_api_keys": 1, "requests_per_minute": 30, "requests_per_day": 10_000},
        "api_key": {
            "id": key["id"],
            "name": "test key",
            "key_prefix": full[:8],
            "scopes": ["sample"],
            "expires_at": None,
        },
    }
    assert r.headers["x-request-id"]


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_me_does_not_query_the_database_per_request(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    verifier = harness.verifier
    verifier._cache.ttl = 60.0  # a long TTL makes the count exact regardless of timing
    await harness.client.get("/v1/me", headers=bearer(full))
    before = verifier.lookups
    for _ in range(20):
        assert (await harness.client.get("/v1/me", headers=bearer(full))).status_code == 200
    assert verifier.lookups == before


async def test_me_needs_an_api_key_not_an_access_token(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    r = await harness.client.get("/v1/me", headers=bearer(token))
    assert r.status_code == 401
