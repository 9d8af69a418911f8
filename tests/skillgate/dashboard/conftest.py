"""Dashboard form tests: a cookie-keeping client that reads pages and posts their forms."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from skillgate.auth.sessions import COOKIE_NAME
from tests.conftest import PASSWORD, Harness

_CSRF_RE = re.compile(r'name="csrf_token" value="([^"]*)"')
_FULL_KEY_RE = re.compile(r'id="full-key"[^>]*value="(sk_[A-Za-z0-9]+)"')


def csrf_of(page: str) -> str:
    found = _CSRF_RE.search(page)
    assert found, "the page has no CSRF field"
    return html.unescape(found.group(1))


def full_key_of(page: str) -> str:
    found = _FULL_KEY_RE.search(page)
    assert found, "the page shows no full key"
    return found.group(1)


class Web:
    """One browser: its own cookie jar, the app in-process."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def get(self, path: str, **kw: Any) -> httpx.Response:
        return await self.client.get(path, **kw)

    async def csrf(self, page: str = "/keys") -> str:
        r = await self.client.get(page)
        assert r.status_code == 200, (page, r.status_code, r.text[:300])
        return csrf_of(r.text)

    async def post(
        self, path: str, data: dict[str, str], *, csrf_from: str | None = "/keys"
    ) -> httpx.Response:
        """POST a form; with the CSRF token of the page `csrf_from` unless it is None."""
        body = dict(data)
        if csrf_from is not None:
            body.setdefault("csrf_token", await self.csrf(csrf_from))
        return await self.client.post(path, data=body)

    async def signup(self, email: str, password: str = PASSWORD) -> httpx.Response:
        fields = {"email": email, "password": password, "password_confirm": password}
        return await self.post("/signup", fields, csrf_from="/signup")

    async def login(
        self, email: str, password: str = PASSWORD, next_path: str = ""
    ) -> httpx.Response:
        fields = {"email": email, "password": password, "next": next_path}
        return await self.post("/login", fields, csrf_from="/login")

    async def create_key(self, name: str = "laptop", **fields: str) -> httpx.Response:
        return await self.post("/keys", {"name": name, **fields})

    @property
    def session(self) -> str | None:
        return self.client.cookies.get(COOKIE_NAME)


@pytest.fixture
async def web(harness: Harness) -> Web:
    return Web(harness.client)


@pytest.fixture
async def other_web(harness: Harness) -> AsyncIterator[Web]:
    """A second browser against the same app."""
    transport = httpx.ASGITransport(app=harness.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield Web(client)


@pytest.fixture
async def signed_in(harness: Harness, web: Web) -> Web:
    """`web`, signed up and signed in as ada@example.com (free plan)."""
    r = await web.signup("ada@example.com")
    assert r.status_code == 303, r.text[:500]
    return web
