"""The agent door's ASGI app: authenticate, call the route's handler, send its JSON.

It runs inside the same `RequestContextMiddleware` as the account door (request
id, body limits and timeouts, hostile paths, access log, metrics); `create_app`
sends it the requests its router matched. Every path parameter is checked for
control characters here (`kit.text`, as the MCP door checks its arguments).
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.types import Receive, Scope, Send

from skillgate.api_keys.verifier import KeyVerifier
from skillgate.doors.agent.router import Call, Match, Router, Stream
from skillgate.errors import MethodNotAllowed
from skillgate.http.errors import as_error, door_of, json_head, send_error
from skillgate.http.middleware import header, request_id
from skillgate.kit import text

MATCH_KEY = "skillgate.agent_match"  # the scope entry the dispatcher leaves for the door


async def _respond(
    send: Send, status: int, body: bytes | Stream, headers: Mapping[str, str] | None
) -> None:
    if isinstance(body, Stream):
        await _stream(send, status, body, headers)
        return
    await send(
        {"type": "http.response.start", "status": status, "headers": json_head(body, headers)}
    )
    await send({"type": "http.response.body", "body": body})


async def _stream(send: Send, status: int, body: Stream, headers: Mapping[str, str] | None) -> None:
    raw = [(b"content-type", body.media_type.encode("latin-1"))]
    raw.extend(
        (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()
    )
    await send({"type": "http.response.start", "status": status, "headers": raw})
    async for chunk in body.chunks:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


class AgentDoor:
    def __init__(self, verifier: KeyVerifier, router: Router) -> None:
        self.verifier = verifier
        self.router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match: Match = scope[MATCH_KEY]
        try:
            if match.route is None:
                raise MethodNotAllowed(
                    f"{scope['method']} is not allowed on {scope['path'][:80]}; use {match.allow}.",
                    headers={"Allow": match.allow},
                )
            raw = header(scope, b"authorization")
            principal = await self.verifier.principal_from_key(
                raw.decode("latin-1") if raw is not None else None
            )
            text.check_all(match.params)  # 400 naming a path parameter with a control character
            call = Call(principal, match.params, scope.get("query_string", b""), receive, scope)
            status, body, headers = await match.route.handler(call)
        except Exception as exc:
            await send_error(send, as_error(exc, request_id(scope)), door_of(scope))
            return
        await _respond(send, status, body, headers)
