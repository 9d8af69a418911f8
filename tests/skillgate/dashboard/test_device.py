"""The /device pages: a query only fills the form in, the confirm screen names the client
and warns, approval is its own CSRF-checked POST, wrong codes are refused alike and
throttled, and the optional device key reaches the polling client once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select

from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.db.base import utcnow
from skillgate.device.models import DeviceCode
from skillgate.device.service import MAX_WRONG_CODES
from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web, csrf_of, full_key_of

INVALID = "That code is invalid or expired"


async def _start(harness: Harness, client_name: str = "svc on laptop") -> dict[str, Any]:
    r = await harness.client.post("/auth/device/code", json={"client_name": client_name})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _status(harness: Harness) -> str:
    async with harness.sessionmaker() as s:
        return str((await s.execute(select(DeviceCode.status))).scalar_one())


async def _poll(harness: Harness, record: dict[str, Any]) -> dict[str, Any]:
    r = await harness.client.post("/auth/device/token", json={"device_code": record["device_code"]})
    return dict(r.json())


async def test_device_page_needs_sign_in_and_keeps_the_code(harness: Harness, web: Web) -> None:
    r = await web.get("/device?user_code=BCDF-GHJK")
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=%2Fdevice%3Fuser_code%3DBCDF-GHJK"


async def test_query_prefills_but_never_approves(harness: Harness, signed_in: Web) -> None:
    record = await _start(harness)
    page = await signed_in.get(f"/device?user_code={record['user_code'].lower()}")
    assert page.status_code == 200
    assert f'value="{record["user_code"]}"' in page.text
    assert await _status(harness) == "pending"


async def test_confirm_names_the_client_then_approve_with_a_key(
    harness: Harness, signed_in: Web
) -> None:
    record = await _start(harness, "svc on build-box")
    typed = record["user_code"].replace("-", "").lower()  # any case, dash optional
    confirm = await signed_in.post("/device", {"user_code": typed}, csrf_from="/device")
    assert confirm.status_code == 200
    assert "svc on build-box" in confirm.text
    assert "Only approve a sign-in you started yourself" in confirm.text
    assert record["user_code"] in confirm.text
    assert 'name="create_key" value="1" checked' in confirm.text
    assert await _status(harness) == "pending"  # looking a code up approves nothing

    fields = {"user_code": record["user_code"], "create_key": "1", "key_name": "build box"}
    refused = await signed_in.post("/device/approve", fields, csrf_from=None)
    assert refused.status_code == 403
    assert await _status(harness) == "pending"

    done = await signed_in.post("/device/approve", {**fields, "csrf_token": csrf_of(confirm.text)})
    assert done.status_code == 200
    assert "Device approved" in done.text
    answer = await _poll(harness, record)
    assert answer["status"] == "complete"
    assert answer["user"]["email"] == "ada@example.com"
    key = answer["api_key"]
    me = (await harness.client.get("/v1/me", headers=bearer(key))).json()
    assert me["api_key"]["name"] == "build box"
    assert "build box" in (await signed_in.get("/keys")).text
    assert key not in (await signed_in.get("/keys")).text


async def test_approve_without_a_key(harness: Harness, signed_in: Web) -> None:
    record = await _start(harness)
    done = await signed_in.post(
        "/device/approve", {"user_code": record["user_code"]}, csrf_from="/device"
    )
    assert done.status_code == 200
    assert "paste an API key" in done.text
    answer = await _poll(harness, record)
    assert answer["status"] == "complete"
    assert "api_key" not in answer
    assert answer["api_keys_url"].endswith("/keys")


async def test_unknown_expired_or_used_codes_get_one_message(
    harness: Harness, signed_in: Web
) -> None:
    record = await _start(harness)
    await signed_in.post("/device/approve", {"user_code": record["user_code"]}, csrf_from="/device")
    for code in ("BCDF-GHJK", "not a code", record["user_code"]):
        r = await signed_in.post("/device", {"user_code": code}, csrf_from="/device")
        assert r.status_code == 400
        assert INVALID in r.text
        r = await signed_in.post("/device/approve", {"user_code": code}, csrf_from="/device")
        assert r.status_code == 400
        assert INVALID in r.text


@pytest.mark.usefixtures("steady_clock")
async def test_wrong_codes_are_throttled(harness: Harness, signed_in: Web) -> None:
    token = await signed_in.csrf("/device")
    for _ in range(MAX_WRONG_CODES):
        r = await signed_in.post(
            "/device", {"user_code": "BCDF-GHJK", "csrf_token": token}, csrf_from=None
        )
        assert r.status_code == 400
    record = await _start(harness)
    r = await signed_in.post("/device", {"user_code": record["user_code"], "csrf_token": token})
    assert r.status_code == 429
    assert "Too many wrong codes" in r.text
    assert "retry-after" in r.headers
    assert await _status(harness) == "pending"


async def test_plan_limit_on_the_device_key_is_explained(harness: Harness, signed_in: Web) -> None:
    assert (await signed_in.create_key("existing")).status_code == 201
    record = await _start(harness)
    confirm = await signed_in.post(
        "/device", {"user_code": record["user_code"]}, csrf_from="/device"
    )
    assert 'name="create_key" value="1">' in confirm.text  # not pre-checked at the limit
    assert "you have 1" in confirm.text
    r = await signed_in.post(
        "/device/approve",
        {"user_code": record["user_code"], "create_key": "1", "csrf_token": csrf_of(confirm.text)},
        csrf_from=None,
    )
    assert r.status_code == 403
    assert "The free plan allows 1 active API key" in r.text
    assert "Approve this sign-in?" in r.text  # still on the confirm screen
    assert await _status(harness) == "pending"


async def test_deny_tells_the_polling_client(harness: Harness, signed_in: Web) -> None:
    record = await _start(harness)
    page = await signed_in.get(f"/device?user_code={record['user_code']}")
    assert page.status_code == 200
    done = await signed_in.post(
        "/device/deny", {"user_code": record["user_code"]}, csrf_from="/device"
    )
    assert done.status_code == 200
    assert "Sign-in denied" in done.text
    assert await _status(harness) == "denied"
    r = await harness.client.post("/auth/device/token", json={"device_code": record["device_code"]})
    assert r.status_code == 400
    assert r.json()["error"] == "access_denied"
    assert r.json()["status"] == "denied"
    # A denied code cannot be approved afterwards.
    again = await signed_in.post(
        "/device/approve", {"user_code": record["user_code"]}, csrf_from="/device"
    )
    assert INVALID in again.text
    assert await _status(harness) == "denied"


_REPLACE_RE = re.compile(r'name="replace_key" value="(key_[A-Za-z0-9]+)"')


async def _at_the_limit(harness: Harness, web: Web) -> tuple[str, dict[str, Any], str]:
    """A free-plan user whose one key exists (and was just used), a device waiting:
    (the old full key, the device record, the confirm page)."""
    old = full_key_of((await web.create_key("laptop")).text)
    assert (await harness.client.get("/v1/me", headers=bearer(old))).status_code == 200
    record = await _start(harness, "svc on new-box")
    confirm = await web.post("/device", {"user_code": record["user_code"]}, csrf_from="/device")
    assert confirm.status_code == 200
    return old, record, confirm.text


async def test_at_the_key_limit_replace_the_key_for_the_device(
    harness: Harness, signed_in: Web
) -> None:
    old, record, confirm = await _at_the_limit(harness, signed_in)
    prefix = old[:8]
    assert "Replace my existing key: revoke <strong>laptop</strong>" in confirm
    assert f"{prefix}" in confirm
    assert "and create a new key for this device" in confirm
    assert "Anything using the replaced key stops working at once" in confirm
    [old_id] = _REPLACE_RE.findall(confirm)
    assert 'name="replace_key" value="" checked' in confirm  # keeping it is the default

    done = await signed_in.post(
        "/device/approve",
        {"user_code": record["user_code"], "replace_key": old_id, "csrf_token": csrf_of(confirm)},
        csrf_from=None,
    )
    assert done.status_code == 200, done.text[:500]
    assert "Device approved" in done.text
    assert "The key <strong>laptop</strong>" in done.text
    assert "was revoked" in done.text
    # The old key is refused at once (its cache entry dropped after the commit) ...
    assert (await harness.client.get("/v1/me", headers=bearer(old))).status_code == 401
    # ... and the device received a new one, the only active key.
    answer = await _poll(harness, record)
    assert answer["status"] == "complete"
    me = await harness.client.get("/v1/me", headers=bearer(answer["api_key"]))
    assert me.status_code == 200
    assert me.json()["api_key"]["name"] == "Device: svc on new-box"
    async with harness.sessionmaker() as session:
        replaced = await session.get(ApiKey, old_id)
        assert replaced is not None
        assert replaced.revoked_at is not None
        assert await ApiKeyRepository(session).count_active(replaced.user_id, utcnow()) == 1


async def test_replace_is_all_or_nothing(harness: Harness, signed_in: Web, other_web: Web) -> None:
    old, record, confirm = await _at_the_limit(harness, signed_in)
    [old_id] = _REPLACE_RE.findall(confirm)
    token = csrf_of(confirm)
    # A wrong code: nothing is revoked.
    wrong = await signed_in.post(
        "/device/approve",
        {"user_code": "BCDF-GHJK", "replace_key": old_id, "csrf_token": token},
        csrf_from=None,
    )
    assert wrong.status_code == 400
    assert INVALID in wrong.text
    assert (await harness.client.get("/v1/me", headers=bearer(old))).status_code == 200
    # Someone else's key (or a made-up id) cannot be replaced: the confirm screen says so.
    await other_web.signup("eve@example.com")
    assert (await other_web.create_key("eve")).status_code == 201
    eve_id = re.search(r"/keys/(key_[A-Za-z0-9]+)/revoke", (await other_web.get("/keys")).text)
    assert eve_id
    # A control character is refused like in every form field, naming the field.
    nul = await signed_in.post(
        "/device/approve",
        {"user_code": record["user_code"], "replace_key": "key_\x00x", "csrf_token": token},
        csrf_from=None,
    )
    assert nul.status_code == 400
    assert "must not contain control characters" in nul.text
    assert (await harness.client.get("/v1/me", headers=bearer(old))).status_code == 200
    for foreign in ("key_doesnotexist", eve_id.group(1), "x" * 500):
        r = await signed_in.post(
            "/device/approve",
            {"user_code": record["user_code"], "replace_key": foreign, "csrf_token": token},
            csrf_from=None,
        )
        assert r.status_code == 400
        assert "no longer one of your active keys" in r.text
        assert "Approve this sign-in?" in r.text  # still on the confirm screen
    # Both wrong: the code's answer (the key is checked first, the code after it).
    both = await signed_in.post(
        "/device/approve",
        {"user_code": "BCDF-GHJK", "replace_key": "key_doesnotexist", "csrf_token": token},
        csrf_from=None,
    )
    assert both.status_code == 400
    assert INVALID in both.text
    assert 'name="user_code"' in both.text  # the code form again, to type it anew
    assert await _status(harness) == "pending"
    assert (await harness.client.get("/v1/me", headers=bearer(old))).status_code == 200


async def test_no_replace_offer_below_the_limit(harness: Harness, signed_in: Web) -> None:
    record = await _start(harness)
    confirm = await signed_in.post(
        "/device", {"user_code": record["user_code"]}, csrf_from="/device"
    )
    assert 'name="replace_key"' not in confirm.text
