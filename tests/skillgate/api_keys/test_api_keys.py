"""/api-keys against a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from skillgate.api_keys.models import ApiKey
from tests.conftest import Harness, bearer

KEY_RE = re.compile(r"^sk_[0-9A-Za-z]{36}$")


async def test_create_returns_the_full_key_once(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    r = await harness.client.post("/api-keys", json={"name": "laptop"}, headers=bearer(token))
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"api_key", "full_key"}
    full = body["full_key"]
    assert KEY_RE.match(full)
    key = body["api_key"]
    spec_fields = {"id", "name", "key_prefix", "scopes", "expires_at", "created_at"}
    assert set(key) == spec_fields | {"confirm"}  # an addition: the confirmation policy
    assert key["confirm"] == "destructive"  # the default for new keys
    assert key["name"] == "laptop"
    assert key["key_prefix"] == full[:8]
    assert key["scopes"] == ["*"]
    assert key["expires_at"] is None
    datetime.fromisoformat(key["created_at"])

    listed = (await harness.client.get("/api-keys", headers=bearer(token))).json()
    assert len(listed) == 1
    assert set(listed[0]) == {
        "id",
        "name",
        "key_prefix",
        "scopes",
        "confirm",
        "last_used_at",
        "expires_at",
        "revoked_at",
        "created_at",
    }
    assert full not in str(listed)  # never shown again
    assert listed[0]["revoked_at"] is None


async def test_key_authenticates_and_revocation_is_immediate(harness: Harness) -> None:
    await harness.user(plan="pro")
    full, key = await harness.key()
    me = await harness.client.get("/v1/me", headers=bearer(full))
    assert me.status_code == 200
    r = await harness.client.delete(f"/api-keys/{key['id']}", headers=bearer(full))
    assert r.status_code == 204
    assert r.content == b""
    again = await harness.client.get("/v1/me", headers=bearer(full))
    assert again.status_code == 401
    assert again.json()["error"] == "unauthorized"
    token = await harness.token()
    listed = (await harness.client.get("/api-keys", headers=bearer(token))).json()
    assert listed[0]["revoked_at"] is not None


async def test_free_plan_allows_one_active_key(harness: Harness) -> None:
    await harness.user()
    _full, key = await harness.key()
    token = await harness.token()
    r = await harness.client.post("/api-keys", json={"name": "second"}, headers=bearer(token))
    assert r.status_code == 403
    assert r.json()["error"] == "plan_limit_reached"
    # Revoking frees the slot.
    await harness.client.delete(f"/api-keys/{key['id']}", headers=bearer(token))
    r = await harness.client.post("/api-keys", json={"name": "second"}, headers=bearer(token))
    assert r.status_code == 201


async def test_pro_plan_has_no_key_limit(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    for i in range(3):
        r = await harness.client.post("/api-keys", json={"name": f"k{i}"}, headers=bearer(token))
        assert r.status_code == 201


async def test_ten_concurrent_creates_on_free_plan_make_exactly_one(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()

    async def create(i: int) -> int:
        r = await harness.client.post("/api-keys", json={"name": f"k{i}"}, headers=bearer(token))
        assert r.status_code in (201, 403), r.text
        return r.status_code

    statuses = await asyncio.gather(*(create(i) for i in range(10)))
    assert sorted(statuses) == [201] + [403] * 9
    listed = (await harness.client.get("/api-keys", headers=bearer(token))).json()
    assert len(listed) == 1


async def test_wrong_checksum_is_rejected_without_a_lookup(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    last = full[-1]
    tampered = full[:-1] + ("A" if last != "A" else "B")
    before = harness.verifier.lookups
    r = await harness.client.get("/v1/me", headers=bearer(tampered))
    assert r.status_code == 401
    assert harness.verifier.lookups == before


async def test_malformed_credentials_are_401(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    for header in (
        f"Bearer {full[:-3]}",
        "Bearer ",
        "Bearer",
        f"Bearer {full[:10]} {full[10:]}",
        f"Basic {full}",
        f"Bearer {full}x",
    ):
        r = await harness.client.get("/v1/me", headers={"Authorization": header})
        assert r.status_code == 401, header
        assert r.json()["error"] == "unauthorized"
    r = await harness.client.get("/v1/me")
    assert r.status_code == 401


async def test_expired_key_is_401(harness: Harness) -> None:
    await harness.user(plan="pro")
    full, key = await harness.key()
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(ApiKey)
            .where(ApiKey.id == key["id"])
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    harness.verifier.forget_key(key["id"])
    r = await harness.client.get("/v1/me", headers=bearer(full))
    assert r.status_code == 401
    assert "expired" in r.json()["message"]


async def test_expires_at_is_honoured_and_validated(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    soon = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    r = await harness.client.post(
        "/api-keys", json={"name": "ci", "expires_at": soon}, headers=bearer(token)
    )
    assert r.status_code == 201
    assert datetime.fromisoformat(r.json()["api_key"]["expires_at"]) > datetime.now(UTC)
    past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    r = await harness.client.post(
        "/api-keys", json={"name": "ci", "expires_at": past}, headers=bearer(token)
    )
    assert r.status_code == 400
    assert "expires_at" in r.json()["message"]


async def test_other_users_keys_are_404_like_missing_ones(harness: Harness) -> None:
    await harness.user("a@example.com")
    await harness.user("b@example.com")
    _, key_b = await harness.key("b@example.com")
    token_a = await harness.token("a@example.com")
    listed = (await harness.client.get("/api-keys", headers=bearer(token_a))).json()
    assert listed == []
    other = await harness.client.delete(f"/api-keys/{key_b['id']}", headers=bearer(token_a))
    missing = await harness.client.delete("/api-keys/key_doesnotexist", headers=bearer(token_a))
    assert other.status_code == missing.status_code == 404
    assert other.content == missing.content
    assert other.json() == {"error": "not_found", "message": "API key not found."}
    token_b = await harness.token("b@example.com")
    still = (await harness.client.get("/api-keys", headers=bearer(token_b))).json()
    assert still[0]["revoked_at"] is None


async def test_bad_names_and_scopes_are_400_naming_the_field(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    cases = [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 10_000}, "name"),
        ({"name": 42}, "name"),
        ({"name": ["a"]}, "name"),
        ({"name": "ok", "scopes": "github"}, "scopes"),
        ({"name": "ok", "scopes": ["nosuchthing"]}, "scopes"),
        ({"name": "ok", "scopes": ["sample:write"]}, "scopes"),
        ({"name": "ok", "scopes": [1]}, "scopes"),
        ({"name": "ok", "scopes": []}, "scopes"),
    ]
    for body, field in cases:
        r = await harness.client.post("/api-keys", json=body, headers=bearer(token))
        assert r.status_code == 400, (body, r.text)
        data = r.json()
        assert data["error"] == "bad_request"
        assert data["message"].startswith(field), (body, data)


async def test_scopes_are_normalised(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    r = await harness.client.post(
        "/api-keys",
        json={"name": "s", "scopes": ["sample:read", "sample:read"]},
        headers=bearer(token),
    )
    assert r.json()["api_key"]["scopes"] == ["sample:read"]
    r = await harness.client.post(
        "/api-keys", json={"name": "s", "scopes": ["sample", "*"]}, headers=bearer(token)
    )
    assert r.json()["api_key"]["scopes"] == ["*"]


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_last_used_at_is_written_at_most_once_a_minute(harness: Harness) -> None:
    await harness.user()
    full, key = await harness.key()
    usage = harness.usage
    for _ in range(5):
        assert (await harness.client.get("/v1/me", headers=bearer(full))).status_code == 200
        harness.verifier.forget_key(key["id"])  # force the path that records use
    await usage.flush()
    assert usage.writes == 1
    token = await harness.token()
    first = (await harness.client.get("/api-keys", headers=bearer(token))).json()[0]
    assert first["last_used_at"] is not None
    for _ in range(3):
        await harness.client.get("/v1/me", headers=bearer(full))
    await usage.flush()
    assert usage.writes == 1
    second = (await harness.client.get("/api-keys", headers=bearer(token))).json()[0]
    assert second["last_used_at"] == first["last_used_at"]


async def test_api_key_can_manage_keys(harness: Harness) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    r = await harness.client.post("/api-keys", json={"name": "via key"}, headers=bearer(full))
    assert r.status_code == 201
    listed = (await harness.client.get("/api-keys", headers=bearer(full))).json()
    assert {k["name"] for k in listed} == {"test key", "via key"}
