"""What every call to an integration's API shares, whoever makes it: the executor
(an agent's call) and the token check before a pasted token is stored
(`skillgate.connections.verify`).

A credential goes in a header or, last, in the query string (no parameter can
replace it); a 2xx body can still report a failure (Slack's `"ok": false`, a
GraphQL `errors` list with no `data`).
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import quote, urlencode

# Where a credential goes on an upstream request: ("header", name, value),
# ("query", name, value) or ("cookie", name, value).
Credential = tuple[Literal["header", "query", "cookie"], str, str]


def place_credential(
    credential: Credential | tuple[Credential, ...],
    headers: dict[str, str],
    query: list[tuple[str, str]],
) -> list[tuple[str, str]]:
    """Put the credential (or each of several: HTTP Basic is one, Trello's key and token
    two) in its header (in `headers`), its cookie (the one `Cookie` header, which no
    parameter sets), or last in the query string instead of any item of its name: the
    query items to send."""
    if not isinstance(credential[0], str):
        for part in credential:
            query = place_credential(part, headers, query)
        return query
    where, name, value = credential
    if where == "header":
        headers[name] = value
        return query
    if where == "cookie":
        headers["Cookie"] = f"{name}={value}"
        return query
    return [*((k, v) for k, v in query if k != name), (name, value)]


def with_query(url: str, query: list[tuple[str, str]]) -> str:
    """`url` with the query items added (percent-encoded, after any it has)."""
    if not query:
        return url
    return url + ("&" if "?" in url else "?") + urlencode(query, quote_via=quote)


def body_failed(style: str | None, body: Any) -> bool:
    """Whether a 2xx `body` reports a failure in the integration's `body_errors` style."""
    if not isinstance(body, dict):
        return False
    if style == "slack":
        return body.get("ok") is False
    if style == "graphql":
        return bool(body.get("errors")) and not body.get("data")
    return False
