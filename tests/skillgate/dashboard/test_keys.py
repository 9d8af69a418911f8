"""The API keys page: create (full key once), scopes and expiry, the free plan's limit,
revoke behind a confirmation, CSRF on every form."""

from __future__ import annotations

import re

import pytest

from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web, csrf_of, full_key_of


async def _me(harness: Harness, key: str) -> int:
    return (await harness.client.get("/v1/me", headers=bearer(key))).status_code


async def test_keys_page_needs_sign_in(harness: Harness, web: Web) -> None:
    r = await web.get("/keys")
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=%2Fkeys"
    r = await web.client.post("/keys", data={"name": "x"})
    assert r.status_code == 303
    assert r.headers["location"] == "/login"


async def test_create_shows_the_full_key_once(harness: Harness, signed_in: Web) -> None:
    before = await signed_in.get("/keys")
    assert "0 of 1" in before.text  # the free plan's limit, explained before it is hit
    assert "1 active API key" in before.text
    created = await signed_in.create_key("laptop")
    assert created.status_code == 201
    assert created.headers["cache-control"] == "no-store"
    full = full_key_of(created.text)
    assert "only time the full key is shown" in created.text
    assert await _me(harness, full) == 200
    listed = await signed_in.get("/keys")
    assert full not in listed.text
    assert full[:8] in listed.text  # the prefix
    assert "laptop" in listed.text
    assert "1 of 1" in listed.text
    assert "reached your plan's limit" in listed.text
    assert re.search(r"<fieldset[^>]*disabled", listed.text)


async def test_free_plan_limit_is_refused_with_a_message(harness: Harness, signed_in: Web) -> None:
    assert (await signed_in.create_key("one")).status_code == 201
    second = await signed_in.create_key("two")
    assert second.status_code == 403
    assert "The free plan allows 1 active API key" in second.text
    assert 'value="two"' in second.text  # the form keeps what was typed
    assert "sk_" not in second.text.split("Your keys")[0]


async def test_scopes_and_expiry_from_the_form(harness: Harness, signed_in: Web) -> None:
    created = await signed_in.create_key(
        "ci", access="some", scope_sample="read", scope_oauthy="", expires_in_days="7"
    )
    assert created.status_code == 201, created.text[:500]
    full = full_key_of(created.text)
    me = (await harness.client.get("/v1/me", headers=bearer(full))).json()
    assert me["api_key"]["scopes"] == ["sample:read"]
    assert me["api_key"]["expires_at"] is not None
    page = await signed_in.get("/keys")
    assert "sample:read" in page.text


async def test_bad_form_values_are_explained(harness: Harness, signed_in: Web) -> None:
    none_chosen = await signed_in.create_key("x", access="some")
    assert none_chosen.status_code == 400
    assert "choose at least one integration" in none_chosen.text
    empty = await signed_in.create_key("   ")
    assert empty.status_code == 400
    assert "Name: must not be empty." in empty.text
    odd = await signed_in.create_key("x", expires_in_days="3")
    assert odd.status_code == 400
    assert (await signed_in.get("/keys")).text.count('class="key-row') == 0


async def test_create_needs_this_sessions_csrf(
    harness: Harness, signed_in: Web, other_web: Web
) -> None:
    missing = await signed_in.post("/keys", {"name": "x"}, csrf_from=None)
    assert missing.status_code == 403
    assert missing.headers["content-type"].startswith("text/html")
    await other_web.signup("eve@example.com")
    foreign = await other_web.csrf("/keys")
    stolen = await signed_in.post("/keys", {"name": "x", "csrf_token": foreign}, csrf_from=None)
    assert stolen.status_code == 403
    assert "sk_" not in stolen.text
    assert (await signed_in.get("/keys")).text.count('class="key-row') == 0


async def test_revoke_asks_first_then_revokes(harness: Harness, signed_in: Web) -> None:
    full = full_key_of((await signed_in.create_key("laptop")).text)
    page = (await signed_in.get("/keys")).text
    key_id = re.search(r'href="/keys/(key_[A-Za-z0-9]+)/revoke"', page)
    assert key_id
    confirm_path = f"/keys/{key_id.group(1)}/revoke"

    confirm = await signed_in.get(confirm_path)  # a GET only asks
    assert confirm.status_code == 200
    assert "Revoke this key?" in confirm.text
    assert await _me(harness, full) == 200

    refused = await signed_in.post(confirm_path, {}, csrf_from=None)
    assert refused.status_code == 403
    assert await _me(harness, full) == 200

    done = await signed_in.post(confirm_path, {"csrf_token": csrf_of(confirm.text)})
    assert done.status_code == 303
    assert done.headers["location"] == "/keys?notice=key_revoked"
    assert await _me(harness, full) == 401
    listed = (await signed_in.get("/keys?notice=key_revoked")).text
    assert "Revoked" in listed
    assert "The API key was revoked" in listed
    assert "0 of 1" in listed  # revoked keys do not count
    again = await signed_in.get(confirm_path)
    assert "already revoked" in again.text


async def test_another_users_key_is_not_found(
    harness: Harness, signed_in: Web, other_web: Web
) -> None:
    await other_web.signup("eve@example.com")
    theirs = full_key_of((await other_web.create_key("eve's")).text)
    page = (await other_web.get("/keys")).text
    match = re.search(r'href="/keys/(key_[A-Za-z0-9]+)/revoke"', page)
    assert match
    path = f"/keys/{match.group(1)}/revoke"
    assert (await signed_in.get(path)).status_code == 404
    r = await signed_in.post(path, {})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert await _me(harness, theirs) == 200


@pytest.mark.usefixtures("provider")
async def test_confirmation_policy_on_creation_and_changed_later(
    harness: Harness, signed_in: Web, other_web: Web
) -> None:
    """The key's `confirm` policy: chosen in the create form, shown and changed in the
    list, and the change reaches execution at once on this instance."""
    page = await signed_in.get("/keys")
    assert 'name="confirm"' in page.text
    created = await signed_in.create_key("agent", confirm="never")
    assert created.status_code == 201, created.text[:300]
    full = full_key_of(created.text)
    listed = (await harness.client.get("/api-keys", headers=bearer(full))).json()
    [key] = listed
    assert key["confirm"] == "never"
    await harness.connect_token(full)
    delete = {"params": {"owner": "o", "repo": "r", "number": 7}, "dry_run": True}
    dry = await harness.client.post("/v1/sample/delete_issue", json=delete, headers=bearer(full))
    assert dry.json()["confirmation_required"] is False

    r = await signed_in.post(f"/keys/{key['id']}/confirm", {"confirm": "destructive"})
    assert r.status_code == 303
    assert r.headers["location"].startswith("/keys")
    page = await signed_in.get("/keys")
    assert "confirmation setting was saved" in (await signed_in.get(r.headers["location"])).text
    assert re.search(r'<option value="destructive" selected>', page.text)
    dry = await harness.client.post("/v1/sample/delete_issue", json=delete, headers=bearer(full))
    assert dry.json()["confirmation_required"] is True

    bad = await signed_in.post(f"/keys/{key['id']}/confirm", {"confirm": "sometimes"})
    assert bad.status_code == 400
    assert (await other_web.signup("bo@example.com")).status_code == 303
    theirs = await other_web.post(f"/keys/{key['id']}/confirm", {"confirm": "never"})
    assert theirs.status_code == 404  # another user's key does not exist for them
    listed = (await harness.client.get("/api-keys", headers=bearer(full))).json()
    assert listed[0]["confirm"] == "destructive"
