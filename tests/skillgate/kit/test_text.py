"""NUL and other control characters in any text input: 400 naming the field, never a 500
(PostgreSQL refuses NUL in text), on both databases."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from skillgate.errors import BadRequest
from skillgate.kit.text import check
from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web

NUL = "\u0000"


@pytest.mark.parametrize("value", ["a\x00b", "line\nbreak", "tab\there", "\x7f", "\x85", "\ud800"])
def test_check_refuses_controls_naming_the_field(value: str) -> None:
    with pytest.raises(BadRequest) as caught:
        check("name", value)
    assert caught.value.message.startswith("name: must not contain control characters")


def test_secrets_refuse_only_nul() -> None:
    assert check("password", "tab\tand\nnewline ü", secret=True) == "tab\tand\nnewline ü"
    with pytest.raises(BadRequest) as caught:
        check("password", "pass\x00word", secret=True)
    assert caught.value.message == "password: must not contain NUL characters."
    assert check("name", "Ada's laptop ü 日本") == "Ada's laptop ü 日本"


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


# (who calls, method, path, JSON body, the field the message must name)
CASES: list[tuple[str, str, str, dict[str, Any] | None, str]] = [
    ("none", "POST", "/auth/login", {"email": f"a{NUL}@example.com", "password": "x"}, "email"),
    (
        "none",
        "POST",
        "/auth/login",
        {"email": "ada@example.com", "password": f"p{NUL}"},
        "password",
    ),
    ("none", "POST", "/auth/device/code", {"client_name": f"my{NUL}laptop"}, "client_name"),
    ("token", "POST", "/api-keys", {"name": f"lap{NUL}top"}, "name"),
    ("token", "POST", "/api-keys", {"name": "two\nlines"}, "name"),
    ("token", "POST", "/api-keys", {"name": "k", "scopes": [f"sample{NUL}"]}, "scopes.0"),
    ("token", "POST", "/auth/device/authorize", {"user_code": f"BCDF{NUL}GHJK"}, "user_code"),
    ("token", "DELETE", "/api-keys/key_%01", None, "key_id"),
    ("token", "PUT", "/v1/connections/sample", {"token": f"good{NUL}"}, "token"),
    ("token", "DELETE", "/v1/connections/sam%1Fple", None, "integration"),
    ("key", "POST", "/v1/connect", {"integration": f"sample{NUL}"}, "integration"),
    ("key", "GET", "/v1/connect/creq_%01", None, "request_id"),
    ("key", "GET", "/v1/executions?integration=%00", None, "integration"),
    ("key", "GET", "/v1/executions?cursor=%00", None, "cursor"),
    (
        "key",
        "GET",
        f"/v1/executions?cursor={_cursor('2026-01-01T00:00:00+00:00|x' + NUL)}",
        None,
        "cursor",
    ),
]


async def test_every_text_input_refuses_controls(harness: Harness) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    key, _ = await harness.key()
    headers = {"none": {}, "token": bearer(token), "key": bearer(key)}
    got = []
    for caller, method, path, body, field in CASES:
        r = await harness.client.request(method, path, json=body, headers=headers[caller])
        ok = r.status_code == 400 and r.json()["message"].startswith(f"{field}: ")
        got.append((method, path, r.status_code, r.json().get("message", "")[:80], ok))
    assert [g for g in got if not g[-1]] == []


async def test_nul_in_a_path_is_404_before_routing(harness: Harness) -> None:
    await harness.user()
    key, _ = await harness.key()
    r = await harness.client.get("/v1/connect/creq_%00", headers=bearer(key))
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"


async def test_dashboard_forms_refuse_controls_naming_the_field(harness: Harness) -> None:
    await harness.user(plan="pro")
    web = Web(harness.client)
    r = await web.login(f"ada{NUL}@example.com")
    assert r.status_code == 400
    assert "email: must not contain control characters" in r.text
    r = await web.login("ada@example.com", password=f"pass{NUL}word")
    assert r.status_code == 400
    assert "password: must not contain NUL characters" in r.text
    r = await web.login("ada@example.com")
    assert r.status_code == 303, r.text[:300]
    r = await web.create_key(f"lap{NUL}top")
    assert r.status_code == 400
    assert "name: must not contain control characters" in r.text
    r = await web.create_key("laptop")
    assert r.status_code == 201


async def test_browser_query_parameters_refuse_controls(harness: Harness, provider: object) -> None:
    await harness.user()
    web = Web(harness.client)
    assert (await web.login("ada@example.com")).status_code == 303
    for path, field in (
        ("/integrations/sample?request=creq_%00", "request"),
        ("/connect/oauthy?request=creq_%00", "request"),
        ("/connect/oauthy/callback?state=s&code=c&error=%00", "error"),
    ):
        r = await web.get(path)
        assert r.status_code == 400, (path, r.status_code)
        assert f"{field}: must not contain control characters" in r.text, path
