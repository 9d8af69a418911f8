"""Check a pasted token with the integration's verification request before storing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from skillgate.catalog import hosts
from skillgate.catalog.models import BasicAuth, Integration, TokenAuth, sent_credentials
from skillgate.connections.credentials import Credentials
from skillgate.errors import BadRequest
from skillgate.kit.outbound import USER_AGENT, Outbound, UpstreamRequest
from skillgate.kit.upstream import body_failed, place_credential, with_query
from skillgate.settings import Settings

_ACCOUNT_FIELDS = ("login", "email", "emailAddress", "user", "name", "team")


def _account(body: Any) -> str | None:
    """A readable label for the connected account, when the response has one."""
    stack = [body]
    while stack:
        node = stack.pop(0)
        if isinstance(node, dict):
            for name in _ACCOUNT_FIELDS:
                value = node.get(name)
                if isinstance(value, str) and value:
                    return value[:200]
            stack.extend(v for v in node.values() if isinstance(v, dict))
    return None


def _checked(label: str, value: str | None) -> str:
    value = (value or "").strip()
    if not value or len(value) > 4096 or any(c in value for c in "\r\n\x00"):
        raise BadRequest(f"{label}: paste it exactly (one line, at most 4096 characters).")
    return value


def pasted_type(integration: Integration, given: Mapping[str, str | None]) -> str:
    """`basic` when the integration takes HTTP Basic and `username` is given (or it
    takes nothing else), else `token`."""
    basic = integration.auth.basic is not None
    return "basic" if basic and (given.get("username") or not integration.auth.token) else "token"


def pasted(integration: Integration, given: Mapping[str, str | None]) -> Credentials:
    """The credentials a connect form or PUT body gives (`token`, and `username` for
    HTTP Basic or `key` for a two-part token), checked; BadRequest naming the field."""
    auth = integration.auth.kind(pasted_type(integration, given))
    if not isinstance(auth, TokenAuth | BasicAuth):
        raise BadRequest(f"{integration.name} connects with OAuth only; use the Connect button.")
    second = "username" if isinstance(auth, BasicAuth) else ("key" if auth.key else None)
    for name in ("username", "key"):
        if given.get(name) and name != second:
            raise BadRequest(f"{name}: {integration.name} does not take one; leave it out.")
    return Credentials(
        access_token=_checked("token", given.get("token")),
        username=_checked("username", given.get("username")) if second == "username" else None,
        key=_checked("key", given.get("key")) if second == "key" else None,
    )


async def verify_token(
    outbound: Outbound,
    settings: Settings,
    integration: Integration,
    creds: Credentials,
    auth_type: str = "token",
    variables: Mapping[str, str] | None = None,
) -> str | None:
    """The account label when the upstream accepts the pasted credentials; BadRequest
    when it refuses."""
    auth = integration.auth.kind(auth_type)
    assert auth is not None
    template = settings.upstream_base_url(integration.slug, integration.base_url)
    base_url = hosts.fill(template, variables or {})
    headers = {"User-Agent": USER_AGENT, **integration.default_headers}
    query: list[tuple[str, str]] = []
    for part in sent_credentials(auth, creds.access_token, creds.username, creds.key):
        query = place_credential(part, headers, query)
    url = with_query(base_url + integration.verify.path, query)
    body = None
    if integration.verify.graphql:
        body = orjson.dumps({"query": integration.verify.graphql})
        headers["Content-Type"] = "application/json"
    request = UpstreamRequest(integration.verify.method, url, headers, body)
    response = await outbound.send(
        request,
        connect_timeout=settings.upstream_connect_timeout,
        total_timeout=15,
        max_bytes=1024 * 1024,
        service=integration.name,
        private_network=integration.allow_private_network
        or settings.upstream_base_url_set(integration.slug),
    )
    if response.status >= 400 or body_failed(integration.body_errors, response.body):
        what = "these credentials" if auth_type == "basic" else "this token"
        raise BadRequest(
            f"token: {integration.name} did not accept {what} (HTTP {response.status}); "
            "check it and its permissions."
        )
    return _account(response.body)
