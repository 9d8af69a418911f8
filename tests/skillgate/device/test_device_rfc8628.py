"""The device flow with a standard RFC 8628 client nobody here wrote: authlib's OAuth 2
client (form-encoded requests, the device_code grant, refusals read from 400 answers)
against the real app; `svc`'s JSON answers stay those of test_device_flow."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import httpx
import httpx2
import pytest
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import AsyncOAuth2Client
from sqlalchemy import select, update

from skillgate.device.models import DeviceCode
from skillgate.device.service import DeviceFlow
from tests.conftest import Harness, bearer

GRANT = "urn:ietf:params:oauth:grant-type:device_code"
CLIENT_ID = "authlib-device-client"


@asynccontextmanager
async def oauth_client(harness: Harness) -> AsyncIterator[AsyncOAuth2Client]:
    """authlib's client on the in-process app: a public client (no secret), as devices are."""
    async with AsyncOAuth2Client(
        client_id=CLIENT_ID,
        token_endpoint_auth_method="none",
        transport=httpx2.ASGITransport(app=harness.app),
        base_url="http://testserver",
    ) as client:
        yield client


async def _start(client: AsyncOAuth2Client) -> dict[str, object]:
    """The device authorization request as RFC 8628 3.1 sends it: a form with client_id."""
    r = await client.request(
        "POST",
        "/auth/device/code",
        data={"client_id": CLIENT_ID, "scope": "all"},
        withhold_token=True,  # no token yet
    )
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return dict(r.json())


async def _fetch(client: AsyncOAuth2Client, device_code: object) -> dict[str, object]:
    token = await client.fetch_token(
        "/auth/device/token", grant_type=GRANT, device_code=device_code
    )
    return dict(token)


async def _refused(client: AsyncOAuth2Client, device_code: object) -> str:
    """The `error` authlib raised for a poll (it must raise)."""
    with pytest.raises(OAuthError) as raised:
        await _fetch(client, device_code)
    assert raised.value.description, "every refusal carries error_description"
    return str(raised.value.error)


async def _raw_poll(harness: Harness, **form: str) -> httpx.Response:
    r = await harness.client.post("/auth/device/token", data=form)
    assert r.headers["cache-control"] == "no-store"
    return r


async def _wait_interval(harness: Harness) -> None:
    """Pretend the client waited its interval (pacing lives in the row here)."""
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(last_polled_at=datetime.now(UTC) - timedelta(seconds=60))
        )


async def _approve(harness: Harness, user_code: object, create_api_key: bool = True) -> None:
    token = await harness.token()
    r = await harness.client.post(
        "/auth/device/authorize",
        json={"user_code": user_code, "create_api_key": create_api_key},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text


async def test_authlib_runs_the_whole_flow_and_calls_with_the_token(harness: Harness) -> None:
    await harness.user(plan="pro")
    async with oauth_client(harness) as client:
        record = await _start(client)
        code = record["device_code"]
        assert await _refused(client, code) == "authorization_pending"
        assert await _refused(client, code) == "slow_down"  # polled at once: too fast

        await _approve(harness, record["user_code"])
        await _wait_interval(harness)
        token = await _fetch(client, code)
        assert token["token_type"] == "Bearer"
        assert str(token["access_token"]).startswith("sk_")
        assert token["api_key"] == token["access_token"]

        me = await client.get("/v1/me")  # authlib sends the token as a Bearer
        assert me.status_code == 200, me.text
        assert me.json()["email"] == "ada@example.com"
        assert me.json()["api_key"]["name"] == f"Device: {CLIENT_ID}"

        await _wait_interval(harness)
        assert await _refused(client, code) == "invalid_grant"  # used once


async def test_refusals_are_400_with_the_rfc_codes(harness: Harness) -> None:
    async with oauth_client(harness) as client:
        record = await _start(client)
    code = str(record["device_code"])
    r = await _raw_poll(harness, grant_type=GRANT, device_code=code, client_id=CLIENT_ID)
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "authorization_pending"
    assert body["error_description"] == body["message"]
    r = await _raw_poll(harness, grant_type=GRANT, device_code=code)
    assert (r.status_code, r.json()["error"], r.json()["interval"]) == (400, "slow_down", 10)

    cases = [
        ({"device_code": code}, "invalid_request"),  # no grant_type
        ({"grant_type": "authorization_code", "device_code": code}, "unsupported_grant_type"),
        ({"grant_type": GRANT}, "invalid_request"),  # no device_code
        ({"grant_type": GRANT, "device_code": "nope"}, "invalid_request"),
        ({"grant_type": GRANT, "device_code": "0" * 40}, "invalid_grant"),  # unknown
    ]
    for form, error in cases:
        r = await _raw_poll(harness, **form)
        assert (r.status_code, r.json()["error"]) == (400, error), form


async def test_denied_expired_and_keyless_approvals(harness: Harness) -> None:
    user = await harness.user()
    async with oauth_client(harness) as client:
        denied = await _start(client)
        async with harness.sessionmaker() as s, s.begin():  # the dashboard's Deny button
            await harness.service(DeviceFlow).deny(s, user.id, str(denied["user_code"]), "ip")
        assert await _refused(client, denied["device_code"]) == "access_denied"

        keyless = await _start(client)
        await _approve(harness, keyless["user_code"], create_api_key=False)
        await _wait_interval(harness)
        with pytest.raises(OAuthError) as raised:
            await _fetch(client, keyless["device_code"])
        assert raised.value.error == "access_denied"
        assert "without creating an API key" in str(raised.value.description)

        expired = await _start(client)
        async with harness.sessionmaker() as s, s.begin():
            await s.execute(
                update(DeviceCode).values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
            )
        assert await _refused(client, expired["device_code"]) == "expired_token"


async def test_json_with_grant_type_is_a_standard_client_and_svc_json_is_unchanged(
    harness: Harness,
) -> None:
    r = await harness.client.post("/auth/device/code", json={"client_id": "json-client"})
    code = r.json()["device_code"]
    r = await harness.client.post(
        "/auth/device/token", json={"grant_type": GRANT, "device_code": code}
    )
    assert (r.status_code, r.json()["error"]) == (400, "authorization_pending")
    await _wait_interval(harness)
    r = await harness.client.post("/auth/device/token", json={"device_code": code})
    assert (r.status_code, r.json()) == (
        200,
        {"status": "pending", "error": "authorization_pending"},
    )
    async with harness.sessionmaker() as s:
        row = (await s.execute(select(DeviceCode))).scalar_one()
    assert row.client_name == "json-client"
