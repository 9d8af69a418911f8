"""The device authorization API, every answer of the spec's table and DESIGN."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from skillgate.device.models import DeviceCode
from tests.conftest import Harness, bearer

USER_CODE_RE = re.compile(r"^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$")


async def _start(harness: Harness, **body: str) -> dict[str, object]:
    r = await harness.client.post("/auth/device/code", json=body or None)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return dict(r.json())


async def _poll(harness: Harness, code: object) -> tuple[int, dict[str, object]]:
    r = await harness.client.post("/auth/device/token", json={"device_code": code})
    assert r.headers["cache-control"] == "no-store"
    return r.status_code, r.json()


async def _wait_interval(harness: Harness) -> None:
    """Pretend the client waited its interval."""
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(last_polled_at=datetime.now(UTC) - timedelta(seconds=60))
        )


async def _authorize(
    harness: Harness, token: str, user_code: object, **extra: object
) -> tuple[int, dict[str, object]]:
    r = await harness.client.post(
        "/auth/device/authorize", json={"user_code": user_code, **extra}, headers=bearer(token)
    )
    return r.status_code, r.json()


async def test_code_record_and_hashed_storage(harness: Harness) -> None:
    record = await _start(harness, client_name="svc on laptop")
    assert set(record) == {
        "device_code",
        "user_code",
        "verification_uri",
        "verification_uri_complete",
        "expires_in",
        "interval",
    }
    assert re.fullmatch(r"[0-9a-f]{40}", str(record["device_code"]))
    assert USER_CODE_RE.match(str(record["user_code"]))
    assert record["verification_uri"] == "http://127.0.0.1:8000/device"
    assert (
        record["verification_uri_complete"]
        == f"http://127.0.0.1:8000/device?user_code={record['user_code']}"
    )
    assert record["expires_in"] == 900
    assert record["interval"] == 5
    async with harness.sessionmaker() as s:
        row = (await s.execute(select(DeviceCode))).scalar_one()
    stored = str(vars(row))
    assert str(record["device_code"]) not in stored
    assert str(record["user_code"]).replace("-", "") not in stored
    assert row.client_name == "svc on laptop"


async def test_full_flow_pending_authorize_complete_then_used(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    record = await _start(harness)
    assert await _poll(harness, record["device_code"]) == (
        200,
        {"status": "pending", "error": "authorization_pending"},
    )
    # Lower case, no dash: the same code.
    code = str(record["user_code"]).replace("-", "").lower()
    assert await _authorize(harness, token, code) == (200, {"status": "authorized"})
    await _wait_interval(harness)
    status, body = await _poll(harness, record["device_code"])
    assert status == 200
    assert body == {
        "status": "complete",
        "user": {"email": "ada@example.com", "display_name": "ada"},
        "api_keys_url": "http://127.0.0.1:8000/keys",
    }
    await _wait_interval(harness)
    status, body = await _poll(harness, record["device_code"])
    assert status == 400
    assert body["error"] == "already_used"


async def test_device_can_receive_a_new_key_once(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    record = await _start(harness, client_name="ci box")
    assert (await _authorize(harness, token, record["user_code"], create_api_key=True))[0] == 200
    await _wait_interval(harness)
    status, body = await _poll(harness, record["device_code"])
    assert status == 200
    key = str(body["api_key"])
    me = await harness.client.get("/v1/me", headers=bearer(key))
    assert me.status_code == 200
    assert me.json()["api_key"]["name"] == "Device: ci box"
    async with harness.sessionmaker() as s:
        row = (await s.execute(select(DeviceCode))).scalar_one()
    assert row.api_key_sealed is None  # gone once delivered


async def test_polling_too_fast_slows_down_and_remembers(harness: Harness) -> None:
    record = await _start(harness)
    await _poll(harness, record["device_code"])
    assert await _poll(harness, record["device_code"]) == (
        200,
        {"status": "pending", "error": "slow_down", "interval": 10},
    )
    assert await _poll(harness, record["device_code"]) == (
        200,
        {"status": "pending", "error": "slow_down", "interval": 15},
    )
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(last_polled_at=datetime.now(UTC) - timedelta(seconds=12))
        )
    # 12 s is enough for the first interval but not for the remembered 15 s.
    _status, body = await _poll(harness, record["device_code"])
    assert body["error"] == "slow_down"
    assert body["interval"] == 20


async def test_expired_code(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    record = await _start(harness)
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    status, body = await _poll(harness, record["device_code"])
    assert status == 400
    assert body["status"] == "expired"
    assert body["error"] == "expired_token"
    status, body = await _authorize(harness, token, record["user_code"])
    assert status == 400
    assert body["error"] == "bad_request"


async def test_unknown_expired_and_used_user_codes_answer_alike(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    used = await _start(harness)
    await _authorize(harness, token, used["user_code"])
    answers = [
        await _authorize(harness, token, "BCDF-GHJK"),
        await _authorize(harness, token, used["user_code"]),
        await _authorize(harness, token, "not a code"),
    ]
    assert answers[0][0] == 400
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][1]["error"] == "bad_request"


@pytest.mark.usefixtures("steady_clock")
async def test_twenty_wrong_codes_lock_out_even_a_correct_one(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    record = await _start(harness)
    for _ in range(20):
        status, _ = await _authorize(harness, token, "ZZZZ-ZZZZ")
        assert status == 400
    status, body = await _authorize(harness, token, "ZZZZ-ZZZZ")
    assert status == 429
    assert body["error"] == "rate_limited"
    status, body = await _authorize(harness, token, record["user_code"])
    assert status == 429
    assert await _poll(harness, record["device_code"]) == (
        200,
        {"status": "pending", "error": "authorization_pending"},
    )


async def test_bad_device_codes(harness: Harness) -> None:
    for code in ("a" * 39, "g" * 40, None, 123, "a" * 41):
        status, body = await _poll(harness, code)
        assert status == 400, code
        assert body["error"] == "bad_request", code

    r = await harness.client.post(
        "/auth/device/token", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    status, body = await _poll(harness, "0" * 40)
    assert status == 404
    assert body["error"] == "not_found"


async def test_authorize_needs_a_signed_in_user(harness: Harness) -> None:
    await harness.user()
    record = await _start(harness)
    r = await harness.client.post("/auth/device/authorize", json={"user_code": record["user_code"]})
    assert r.status_code == 401
    full, _ = await harness.key()
    r = await harness.client.post(
        "/auth/device/authorize", json={"user_code": record["user_code"]}, headers=bearer(full)
    )
    assert r.status_code == 401  # an API key is not a signed-in person


async def test_expired_codes_are_purged(harness: Harness) -> None:
    await _start(harness)
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(expires_at=datetime.now(UTC) - timedelta(hours=2))
        )
    await _start(harness)
    async with harness.sessionmaker() as s:
        rows = (await s.execute(select(DeviceCode))).scalars().all()
    assert len(rows) == 1


async def test_pacing_in_redis_when_configured(
    database_url: str, tmp_path: object, test_catalog: object
) -> None:
    import pytest

    from tests.conftest import REDIS_URL, make_settings, state_of

    if not REDIS_URL:
        pytest.skip("needs SKILLGATE_TEST_REDIS_URL")
    from pathlib import Path

    import httpx

    from skillgate.app import create_app

    app = create_app(
        make_settings(database_url, Path(str(tmp_path)), redis_url=REDIS_URL), catalog=test_catalog
    )  # type: ignore[arg-type]
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            record = (await client.post("/auth/device/code")).json()
            first = await client.post(
                "/auth/device/token", json={"device_code": record["device_code"]}
            )
            second = await client.post(
                "/auth/device/token", json={"device_code": record["device_code"]}
            )
    assert first.json() == {"status": "pending", "error": "authorization_pending"}
    assert second.json() == {"status": "pending", "error": "slow_down", "interval": 10}
    async with state_of(app).sessionmaker() as s:
        row = (await s.execute(select(DeviceCode))).scalar_one()
    assert row.last_polled_at is None  # paced in Redis, not in the row
