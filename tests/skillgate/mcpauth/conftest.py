"""An OAuth client driven by hand against the in-process app: registration, the
authorization request, the consent form of a signed-in browser, the token exchange."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.conftest import Harness
from tests.skillgate.dashboard.conftest import Web, csrf_of, other_web, signed_in, web

REDIRECT = "http://127.0.0.1:33418/callback"
RESOURCE = "http://127.0.0.1:8000/mcp"  # the harness's public base URL + /mcp
MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).decode().rstrip("=")


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def local(url: str) -> str:
    """The path and query of one of this server's URLs (the in-process client's)."""
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


@dataclass
class OAuthClient:
    """One registered client and its PKCE pair, using `web` as the user's browser."""

    client: httpx.AsyncClient
    web: Web
    client_id: str = ""
    client_secret: str | None = None
    redirect_uri: str = REDIRECT
    verifier: str = ""
    challenge: str = ""
    state: str = field(default_factory=lambda: secrets.token_urlsafe(8))

    async def register(self, **metadata: Any) -> httpx.Response:
        body = {
            "client_name": "Test Client",
            "redirect_uris": [self.redirect_uri],
            "token_endpoint_auth_method": "none",
            **metadata,
        }
        r = await self.client.post("/oauth/register", json=body)
        if r.status_code == 201:
            self.client_id = r.json()["client_id"]
            self.client_secret = r.json().get("client_secret")
        return r

    def authorize_params(self, **extra: str) -> dict[str, str]:
        self.verifier, self.challenge = pkce()
        params = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "code_challenge": self.challenge,
            "code_challenge_method": "S256",
            "state": self.state,
            "resource": RESOURCE,
            "scope": "mcp",
        }
        params.update(extra)
        return params

    async def consent_page(self, **extra: str) -> httpx.Response:
        """GET /oauth/authorize, then the consent page it sends the browser to."""
        r = await self.client.get("/oauth/authorize", params=self.authorize_params(**extra))
        assert r.status_code == 302, r.text[:300]
        return await self.web.get(local(r.headers["location"]))

    async def answer(self, page: httpx.Response, **choice: str) -> httpx.Response:
        """Post the consent form of `page` (its hidden fields) with `choice`."""
        form = _hidden_fields(page.text)
        form.update({"decision": "allow", "access": "all", "confirm": "destructive"})
        form.update(choice)
        return await self.web.client.post("/oauth/consent", data=form)

    async def code(self, **choice: str) -> str:
        page = await self.consent_page()
        assert page.status_code == 200, page.text[:500]
        r = await self.answer(page, **choice)
        assert r.status_code == 303, r.text[:500]
        back = query_of(r.headers["location"])
        assert back["state"] == self.state
        assert back["iss"] == "http://127.0.0.1:8000"
        return back["code"]

    async def exchange(self, code: str, **extra: str) -> httpx.Response:
        body = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri,
            "client_id": self.client_id,
            "code_verifier": self.verifier,
            "resource": RESOURCE,
            **extra,
        }
        return await self.client.post("/oauth/token", data=body)

    async def refresh(self, refresh_token: str) -> httpx.Response:
        body = {
            "grant_type": "refresh_token",
            "refresh_token": refresh_token,
            "client_id": self.client_id,
        }
        return await self.client.post("/oauth/token", data=body)

    async def tokens(self, **choice: str) -> dict[str, Any]:
        r = await self.exchange(await self.code(**choice))
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()
        return found


def _hidden_fields(page: str) -> dict[str, str]:
    import html
    import re

    found = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
    fields = {name: html.unescape(value) for name, value in found}
    assert "csrf_token" in fields, "the consent page has no CSRF field"
    return fields


async def mcp(harness: Harness, token: str | None, method: str = "tools/list",
              **params: Any) -> httpx.Response:  # fmt: skip
    headers = dict(MCP_HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return await harness.client.post("/mcp", json=body, headers=headers)


@pytest.fixture
async def oauth(harness: Harness, signed_in: Web) -> OAuthClient:
    """A registered public client; `signed_in` (ada@example.com) is the user's browser."""
    client = OAuthClient(harness.client, signed_in)
    r = await client.register()
    assert r.status_code == 201, r.text
    return client


__all__ = [
    "OAuthClient", "csrf_of", "local", "mcp", "other_web", "pkce", "query_of", "signed_in", "web"
]  # fmt: skip
