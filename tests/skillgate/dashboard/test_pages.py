"""Every page at once: GETs change nothing, errors are HTML pages without stack traces,
security headers, the stylesheet, phone-ready markup."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, select

from skillgate.api_keys.models import ApiKey
from skillgate.auth.models import WebSession
from skillgate.connections.models import Connection, ConnectRequest
from skillgate.device.models import DeviceCode
from skillgate.executions.repository import ExecutionRepository
from skillgate.users.models import User
from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web, full_key_of

pytestmark = pytest.mark.usefixtures("provider")


async def _snapshot(harness: Harness) -> dict[str, Any]:
    """Everything a dashboard action could change."""
    async with harness.sessionmaker() as s:
        counts = {
            model.__name__: (await s.execute(select(func.count()).select_from(model))).scalar_one()
            for model in (User, ApiKey, WebSession, Connection, ConnectRequest, DeviceCode)
        }
        keys = (await s.execute(select(ApiKey.id, ApiKey.revoked_at))).all()
        connections = (await s.execute(select(Connection.integration, Connection.status))).all()
        devices = (await s.execute(select(DeviceCode.status))).all()
        sessions = (await s.execute(select(WebSession.id))).all()
    return {
        "counts": counts,
        "keys": sorted(keys),
        "connections": sorted(connections),
        "devices": sorted(devices),
        "sessions": sorted(sessions),
    }


async def test_gets_never_change_state(harness: Harness, signed_in: Web) -> None:
    key = full_key_of((await signed_in.create_key("laptop")).text)
    await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    code = (await harness.client.post("/auth/device/code", json={})).json()["user_code"]
    key_id = re.search(r"/keys/(key_\w+)/revoke", (await signed_in.get("/keys")).text)
    assert key_id
    before = await _snapshot(harness)
    paths = [
        "/",
        "/keys",
        f"/keys/{key_id.group(1)}/revoke",
        "/integrations",
        "/integrations/sample",
        "/integrations/sample?connected=1",
        "/integrations/oauthy?error=denied",
        f"/device?user_code={code}",
        "/device",
        "/activity",
        "/activity?outcome=error",
        "/logout",
        "/login",
        "/signup",
        "/keys/key_missing/revoke",
    ]
    for path in paths:
        r = await signed_in.get(path)
        assert r.status_code in (200, 303, 404), (path, r.status_code)
    # The action URLs answered with GET do nothing either.
    for path in ("/integrations/sample/disconnect", "/device/approve"):
        assert (await signed_in.get(path)).status_code in (404, 405)
    assert await _snapshot(harness) == before
    assert (await harness.client.get("/v1/me", headers=bearer(key))).status_code == 200
    assert (await signed_in.get("/keys")).status_code == 200  # still signed in


async def test_errors_are_html_pages(
    harness: Harness, signed_in: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = await signed_in.get("/keys/key_nope/revoke")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "This API key does not exist" in r.text

    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(ExecutionRepository, "page", broken)
    r = await signed_in.get("/activity")
    assert r.status_code == 500
    assert r.headers["content-type"].startswith("text/html")
    assert "quote request id" in r.text
    assert r.headers["x-request-id"] in r.text
    assert "Traceback" not in r.text
    assert "secret internals" not in r.text


async def test_pages_carry_security_headers_and_phone_markup(
    harness: Harness, signed_in: Web
) -> None:
    for path in ("/keys", "/integrations", "/device", "/activity"):
        r = await signed_in.get(path)
        assert r.status_code == 200
        assert r.headers["cache-control"] == "no-store"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "same-origin"
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text
        assert 'href="/static/app.css"' in r.text
        assert "Free plan" in r.text
        assert "<script>" not in r.text  # no inline script anywhere
    login = await harness.client.get("/login")
    assert login.headers["cache-control"] == "no-store"


async def test_static_files(harness: Harness) -> None:
    css = await harness.client.get("/static/app.css")
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")
    assert "@media" in css.text
    js = await harness.client.get("/static/copy.js")
    assert js.status_code == 200


async def test_dashboard_routes_stay_out_of_the_api_schema(harness: Harness) -> None:
    paths = (await harness.client.get("/openapi.json")).json()["paths"]
    assert not {"/keys", "/login", "/device", "/activity"} & set(paths)
