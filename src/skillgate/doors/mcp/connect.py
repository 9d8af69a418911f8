"""Accounts connected on demand: a call to an integration the user has not connected
asks the client to open the connect link, then runs when the client retries.

On the 2026-07-28 revision, a client that declares URL-mode elicitation
(`capabilities.elicitation.url`, sent with every request) gets an
`InputRequiredResult` in place of the tool result: one `elicitation/create` request
in mode "url" carrying the refusal's `action_url`. The client shows the link, the
user connects the integration in the dashboard, and the client retries the same
`tools/call` with the elicitation's answer (`inputResponses`); the retry runs the
call. A retry that still finds no connection (the user declined, or gave up) answers
the tool error, `action_url` and all, rather than asking again.

On 2025-11-25, a client that declared URL-mode elicitation at `initialize` (which
the door remembers by the session id it gave that client: sessions.py) gets the
JSON-RPC error -32042 `URLElicitationRequiredError`, its `data.elicitations` one
URL-mode elicitation (`elicitationId`, the `action_url`, the message). The client
shows the link, the user connects the integration, and the client retries the
`tools/call`, which runs. (A stateless server has no stream on which to send
`notifications/elicitation/complete`, which the specification makes optional: the
client retries when the user says they are done.)

Every other client (no URL elicitation declared, 2025-06-18) gets the tool error
carrying `action_url`, as before (docs/decisions.md).
"""

from __future__ import annotations

import uuid
from typing import Any

import mcp_types as types
import orjson
from mcp.shared.exceptions import UrlElicitationRequiredError

from skillgate.doors.mcp.tools import ToolAnswer

MODERN = "2026-07-28"
NOT_CONNECTED = b'"error":"integration_not_connected"'
REQUEST_KEY = "connect"


def _asks_by_url(ctx: Any) -> bool:
    """Whether the client of this request declared URL-mode elicitation on 2026-07-28."""
    if getattr(ctx, "protocol_version", None) != MODERN:
        return False
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    return elicitation is not None and elicitation.url is not None


def _link(answer: ToolAnswer) -> tuple[str, str] | None:
    """(message, action_url) of a not-connected refusal, or None for any other answer."""
    if not answer.is_error or NOT_CONNECTED not in answer.body:
        return None
    refused = orjson.loads(answer.body)
    url = refused.get("action_url")
    return (refused["message"], url) if isinstance(url, str) else None


def url_required(answer: ToolAnswer) -> UrlElicitationRequiredError | None:
    """The connect link as the 2025-11-25 error -32042, or None: the answer stands. Only
    for a client that declared URL elicitation (the caller checks)."""
    link = _link(answer)
    if link is None:
        return None
    message, url = link
    ask = types.ElicitRequestURLParams(message=message, url=url, elicitation_id=uuid.uuid4().hex)
    return UrlElicitationRequiredError([ask], message)


def input_required(
    answer: ToolAnswer, ctx: Any, params: types.CallToolRequestParams
) -> types.InputRequiredResult | None:
    """The connect link as an input request, or None: the answer stands."""
    link = _link(answer)
    if link is None:
        return None
    if params.input_responses is not None or not _asks_by_url(ctx):
        return None  # a retry that still finds no connection, or a client that cannot ask
    ask = types.ElicitRequest(params=types.ElicitRequestURLParams(message=link[0], url=link[1]))
    return types.InputRequiredResult(input_requests={REQUEST_KEY: ask})
