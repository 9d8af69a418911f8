"""OAuth 2 authorization code with state and PKCE, and token refresh.

The provider's URLs come from the catalog (overridable with
SKILLGATE_<SLUG>_AUTHORIZE_URL / _TOKEN_URL, e.g. for a test provider); the
client id and secret from SKILLGATE_<SLUG>_CLIENT_ID / _CLIENT_SECRET. Token
requests go through the kit's Outbound (20 s, 5 s to connect, at most 1 MiB,
no redirects).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from authlib.common.security import generate_token
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from yarl import URL

from skillgate.catalog.models import Integration, OAuth2Auth
from skillgate.connections.credentials import Credentials
from skillgate.errors import BadRequest, UpstreamError
from skillgate.kit.outbound import Outbound, UpstreamRequest
from skillgate.settings import Settings

TOKEN_CONNECT_TIMEOUT = 5.0
TOKEN_TOTAL_TIMEOUT = 20.0
TOKEN_MAX_BYTES = 1024 * 1024


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
    # The token endpoint may be a private address: the catalog allows it, or the
    # operator set SKILLGATE_<SLUG>_TOKEN_URL (kit.outbound).
    private_network: bool = False


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
        private_network=integration.allow_private_network
        or settings.integration_env(integration.slug, "TOKEN_URL") is not None,
    )


def new_state() -> str:
    return str(generate_token(40))


def new_verifier() -> str:
    return str(generate_token(64))


def requested_scopes(app: OAuthApp, granted: Sequence[str], add: str | None) -> list[str]:
    """What an authorization asks for: the integration's scopes, those the connection
    already has (a provider that replaces a token's scopes keeps them) and, when the user
    adds one, a scope set's. BadRequest names an unknown set."""
    extra: tuple[str, ...] = ()
    if add is not None:
        chosen = app.auth.scope_sets.get(add)
        if chosen is None:
            known = ", ".join(app.auth.scope_sets) or "none"
            raise BadRequest(f"add: {add!r} is not a scope set of this integration ({known}).")
        extra = chosen.scopes
    return list(dict.fromkeys([*app.auth.scopes, *granted, *extra]))


def authorize_redirect(
    app: OAuthApp, state: str, verifier: str, redirect_uri: str, scopes: Sequence[str]
) -> str:
    query: dict[str, str] = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": redirect_uri,
        "state": state,
    }
    if scopes:
        query["scope"] = app.auth.scope_separator.join(scopes)
    if app.auth.pkce:
        query["code_challenge"] = create_s256_code_challenge(verifier)
        query["code_challenge_method"] = "S256"
    query.update(app.auth.authorize_params)
    separator = "&" if "?" in app.authorize_url else "?"
    return app.authorize_url + separator + urlencode(query)


def _token_body(body: Any, content_type: str) -> dict[str, Any]:
    """The token answer: a JSON object, or a form-encoded body; {} for anything else."""
    if isinstance(body, dict):
        return body
    if isinstance(body, str) and "json" not in content_type and not body.startswith("{"):
        return dict(parse_qsl(body))
    return {}


async def _token_request(outbound: Outbound, app: OAuthApp, form: dict[str, str]) -> dict[str, Any]:
    headers = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}
    if app.auth.token_auth_method == "client_secret_basic":
        pair = f"{app.client_id}:{app.client_secret}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()
    else:
        form = {**form, "client_id": app.client_id, "client_secret": app.client_secret}
    url = str(URL(app.token_url))  # percent-encoded as the outbound request expects
    request = UpstreamRequest("POST", url, headers, urlencode(form).encode())
    try:
        resp = await outbound.send(
            request,
            connect_timeout=TOKEN_CONNECT_TIMEOUT,
            total_timeout=TOKEN_TOTAL_TIMEOUT,
            max_bytes=TOKEN_MAX_BYTES,
            service=f"{app.slug}: the token endpoint",
            private_network=app.private_network,
        )
    except UpstreamError:  # unreachable, too slow, or an answer past the size cap
        raise OAuthError(
            f"{app.slug}: the token endpoint could not be reached", rejected=False
        ) from None
    status = resp.status
    data = _token_body(resp.body, resp.headers.get("content-type", ""))
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


def granted_scopes(data: dict[str, Any], requested: Sequence[str]) -> list[str]:
    """The scopes the token answer lists; what was asked for when it lists none."""
    scope = data.get("scope")
    if isinstance(scope, str) and scope:
        return [s for s in scope.replace(",", " ").split() if s]
    return list(requested)


async def exchange_code(
    outbound: Outbound,
    app: OAuthApp,
    code: str,
    verifier: str,
    redirect_uri: str,
    requested: Sequence[str],
) -> tuple[Credentials, list[str]]:
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri}
    if app.auth.pkce:
        form["code_verifier"] = verifier
    data = await _token_request(outbound, app, form)
    return _credentials(data), granted_scopes(data, requested)


async def refresh(outbound: Outbound, app: OAuthApp, refresh_token: str) -> Credentials:
    """New credentials; keeps the old refresh token unless the provider rotated it."""
    data = await _token_request(
        outbound, app, {"grant_type": "refresh_token", "refresh_token": refresh_token}
    )
    return _credentials(data, previous_refresh=refresh_token)
