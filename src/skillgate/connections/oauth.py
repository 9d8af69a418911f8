"""OAuth 2 authorization code with state and PKCE, and token refresh.

The provider's URLs come from the catalog (overridable with
SKILLGATE_<SLUG>_AUTHORIZE_URL / _TOKEN_URL, e.g. for a test provider); the
client id and secret from SKILLGATE_<SLUG>_CLIENT_ID / _CLIENT_SECRET. Token
requests go through the worker's aiohttp session.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

import aiohttp
from authlib.common.security import generate_token
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from skillgate.catalog.models import Integration, OAuth2Auth
from skillgate.connections.credentials import Credentials
from skillgate.settings import Settings

TOKEN_TIMEOUT = aiohttp.ClientTimeout(total=20, sock_connect=5)


class OAuthError(Exception):
    """The provider refused (`rejected`) or could not be reached (`unavailable`)."""

    def __init__(self, message: str, *, rejected: bool) -> None:
        super().__init__(message)
        self.rejected = rejected


@dataclass(frozen=True)
class OAuthApp:
    slug: str
    auth: OAuth2Auth
    client_id: str
    client_secret: str = field(repr=False)
    authorize_url: str
    token_url: str


def oauth_app(settings: Settings, integration: Integration) -> OAuthApp | None:
    """The configured OAuth app for an integration, or None when it cannot do OAuth here."""
    auth = integration.auth.oauth2
    if auth is None:
        return None
    client_id = settings.integration_env(integration.slug, "CLIENT_ID")
    client_secret = settings.integration_env(integration.slug, "CLIENT_SECRET")
    if not client_id or not client_secret:
        return None
    return OAuthApp(
        slug=integration.slug,
        auth=auth,
        client_id=client_id,
        client_secret=client_secret,
        authorize_url=settings.integration_env(integration.slug, "AUTHORIZE_URL")
        or auth.authorize_url,
        token_url=settings.integration_env(integration.slug, "TOKEN_URL") or auth.token_url,
    )


def new_state() -> str:
    return str(generate_token(40))


def new_verifier() -> str:
    return str(generate_token(64))


def authorize_redirect(app: OAuthApp, state: str, verifier: str, redirect_uri: str) -> str:
    query: dict[str, str] = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": redirect_uri,
        "state": state,
    }
    if app.auth.scopes:
        query["scope"] = app.auth.scope_separator.join(app.auth.scopes)
    if app.auth.pkce:
        query["code_challenge"] = create_s256_code_challenge(verifier)
        query["code_challenge_method"] = "S256"
    query.update(app.auth.authorize_params)
    separator = "&" if "?" in app.authorize_url else "?"
    return app.authorize_url + separator + urlencode(query)


def _parse_token_body(raw: bytes, content_type: str) -> dict[str, Any]:
    import orjson

    if "json" in content_type or raw[:1] == b"{":
        try:
            data = orjson.loads(raw)
            return data if isinstance(data, dict) else {}
        except orjson.JSONDecodeError:
            return {}
    return dict(parse_qsl(raw.decode("utf-8", errors="replace")))


async def _token_request(
    http: aiohttp.ClientSession, app: OAuthApp, form: dict[str, str]
) -> dict[str, Any]:
    headers = {"Accept": "application/json"}
    if app.auth.token_auth_method == "client_secret_basic":
        pair = f"{app.client_id}:{app.client_secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
    else:
        form = {**form, "client_id": app.client_id, "client_secret": app.client_secret}
    try:
        async with http.post(
            app.token_url, data=form, headers=headers, timeout=TOKEN_TIMEOUT, allow_redirects=False
        ) as resp:
            raw = await resp.content.read(1024 * 1024)
            data = _parse_token_body(raw, resp.headers.get("content-type", ""))
            status = resp.status
    except (aiohttp.ClientError, OSError, TimeoutError):
        raise OAuthError(
            f"{app.slug}: the token endpoint could not be reached", rejected=False
        ) from None
    if status >= 500:
        raise OAuthError(f"{app.slug}: the token endpoint answered {status}", rejected=False)
    error = data.get("error")
    if status >= 400 or error or not data.get("access_token"):
        reason = str(error or f"HTTP {status}")
        raise OAuthError(
            f"{app.slug}: the provider refused the token request ({reason})", rejected=True
        )
    return data


def _credentials(data: dict[str, Any], previous_refresh: str | None = None) -> Credentials:
    expires_in = data.get("expires_in")
    expires_at = None
    if isinstance(expires_in, int | float) or (
        isinstance(expires_in, str) and expires_in.isdigit()
    ):
        expires_at = time.time() + float(expires_in)
    return Credentials(
        access_token=str(data["access_token"]),
        refresh_token=str(data["refresh_token"]) if data.get("refresh_token") else previous_refresh,
        expires_at=expires_at,
        token_type=str(data.get("token_type") or "bearer"),
    )


def granted_scopes(data: dict[str, Any], app: OAuthApp) -> list[str]:
    scope = data.get("scope")
    if isinstance(scope, str) and scope:
        return [s for s in scope.replace(",", " ").split() if s]
    return list(app.auth.scopes)


async def exchange_code(
    http: aiohttp.ClientSession, app: OAuthApp, code: str, verifier: str, redirect_uri: str
) -> tuple[Credentials, list[str]]:
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri}
    if app.auth.pkce:
        form["code_verifier"] = verifier
    data = await _token_request(http, app, form)
    return _credentials(data), granted_scopes(data, app)


async def refresh(http: aiohttp.ClientSession, app: OAuthApp, refresh_token: str) -> Credentials:
    """New credentials; keeps the old refresh token unless the provider rotated it."""
    data = await _token_request(
        http, app, {"grant_type": "refresh_token", "refresh_token": refresh_token}
    )
    return _credentials(data, previous_refresh=refresh_token)
