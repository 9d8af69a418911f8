"""Check a pasted token with the integration's verification request before storing it."""

from __future__ import annotations

from typing import Any

import orjson

from skillgate.catalog.models import Integration, credential
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


async def verify_token(
    outbound: Outbound, settings: Settings, integration: Integration, token: str
) -> str | None:
    """The account label when the upstream accepts `token`; BadRequest when it refuses."""
    auth = integration.auth.token
    if auth is None:
        raise BadRequest(f"{integration.name} connects with OAuth only; use the Connect button.")
    token = token.strip()
    if not token or len(token) > 4096 or any(c in token for c in "\r\n\x00"):
        raise BadRequest("token: paste the token exactly (one line, at most 4096 characters).")
    base_url = settings.upstream_base_url(integration.slug, integration.base_url)

    headers = {"User-Agent": USER_AGENT, **integration.default_headers}
    query = place_credential(credential(auth, token), headers, [])
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
        raise BadRequest(
            f"token: {integration.name} did not accept this token (HTTP {response.status}); "
            "check it and its permissions."
        )
    return _account(response.body)
