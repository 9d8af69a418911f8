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

Every other client (no URL elicitation, or a 2025 revision: a stateless server keeps
no initialize capabilities between requests and has no stream for a server-to-client
request) gets the tool error carrying `action_url`, as before (docs/decisions.md).
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
import orjson

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


def input_required(
    answer: ToolAnswer, ctx: Any, params: types.CallToolRequestParams
) -> types.InputRequiredResult | None:
    """The connect link as an input request, or None: the answer stands."""
    if not answer.is_error or NOT_CONNECTED not in answer.body:
        return None
    if params.input_responses is not None or not _asks_by_url(ctx):
        return None  # a retry that still finds no connection, or a client that cannot ask
    refused = orjson.loads(answer.body)
    url = refused.get("action_url")
    if not isinstance(url, str):
        return None
    ask = types.ElicitRequest(
        params=types.ElicitRequestURLParams(message=refused["message"], url=url)
    )
    return types.InputRequiredResult(input_requests={REQUEST_KEY: ask})
