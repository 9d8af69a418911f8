"""State-changing browser requests check `Sec-Fetch-Site` beside the CSRF token (issue
22, item 6): `cross-site` and `same-site` are 403 even with a valid token; the page's
own `same-origin`, a user's `none`, and browsers that send no such header pass. And
session cookies are `Secure` whenever the public URL is https."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from skillgate.auth.sessions import COOKIE_NAME
from skillgate.catalog.loader import Catalog
from tests.conftest import PASSWORD, Harness, open_harness
from tests.skillgate.dashboard.conftest import Web, csrf_of

REFUSED = ("cross-site", "same-site", "Cross-Site")
TAKEN = ("same-origin", "none")


async def _keys_listed(web: Web) -> str:
    page = await web.get("/keys")
    assert page.status_code == 200
    return page.text


@pytest.mark.parametrize("site", REFUSED)
async def test_a_form_from_another_site_is_403_even_with_its_token(
    harness: Harness, signed_in: Web, site: str
) -> None:
    token = await signed_in.csrf("/keys")
    r = await signed_in.client.post(
        "/keys", data={"name": "planted", "csrf_token": token}, headers={"Sec-Fetch-Site": site}
    )
    assert r.status_code == 403
    assert r.headers["content-type"].startswith("text/html")
    assert "another site" in r.text
    assert "planted" not in await _keys_listed(signed_in)  # nothing was created


@pytest.mark.parametrize("site", REFUSED)
async def test_a_sign_in_from_another_site_is_403_even_with_its_token(
    harness: Harness, web: Web, site: str
) -> None:
    await harness.user("ada@example.com")
    token = csrf_of((await web.get("/login")).text)
    fields = {"email": "ada@example.com", "password": PASSWORD, "csrf_token": token}
    r = await web.client.post("/login", data=fields, headers={"Sec-Fetch-Site": site})
    assert r.status_code == 403
    assert web.session is None


@pytest.mark.parametrize("site", [*TAKEN, None])
async def test_the_page_s_own_forms_pass(
    harness: Harness, signed_in: Web, site: str | None
) -> None:
    token = await signed_in.csrf("/keys")
    headers = {"Sec-Fetch-Site": site} if site else {}
    r = await signed_in.client.post(
        "/keys", data={"name": f"laptop-{site}", "csrf_token": token}, headers=headers
    )
    assert r.status_code == 201, (site, r.status_code, r.text[:300])
    assert f"laptop-{site}" in await _keys_listed(signed_in)


async def test_a_session_write_to_the_json_api_checks_it_too(harness: Harness, web: Web) -> None:
    r = await web.signup("ada@example.com")
    assert r.status_code == 303
    csrf = await web.csrf("/keys")
    for site in REFUSED:
        r = await web.client.post(
            "/api-keys", json={"name": "x"}, headers={"x-csrf-token": csrf, "Sec-Fetch-Site": site}
        )
        assert r.status_code == 403, site
        assert r.json()["error"] == "csrf_failed"
    ok = await web.client.post(
        "/api-keys",
        json={"name": "x"},
        headers={"x-csrf-token": csrf, "Sec-Fetch-Site": "same-origin"},
    )
    assert ok.status_code == 201, ok.text[:300]


def _cookie(r: httpx.Response, name: str) -> str:
    for value in r.headers.get_list("set-cookie"):
        if value.startswith(name + "="):
            return value.lower()
    raise AssertionError(f"no {name} cookie set")


async def test_cookies_are_secure_when_the_public_url_is_https(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    """Behind a TLS-terminating proxy the request reaches the server over http: the
    public URL (SKILLGATE_BASE_URL) decides."""
    async with open_harness(
        database_url, tmp_path, test_catalog, base_url="https://gw.example.com"
    ) as harness:
        client = harness.client  # http://testserver
        first = await client.get("/signup")
        nonce_cookie = _cookie(first, "sg_csrf")
        assert "; secure" in nonce_cookie
        # The client keeps a Secure cookie off plain http; the proxy's browser would not.
        nonce = first.cookies["sg_csrf"]
        fields = {"email": "tls@example.com", "password": PASSWORD}
        r = await client.post(
            "/signup",
            data={**fields, "password_confirm": PASSWORD, "csrf_token": csrf_of(first.text)},
            headers={"cookie": f"sg_csrf={nonce}"},
        )
        assert r.status_code == 303, r.text[:300]
        assert "; secure" in _cookie(r, COOKIE_NAME)
