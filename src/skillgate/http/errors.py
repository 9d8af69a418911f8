"""Every error answer, made in one place.

`as_error(exc, request_id)` turns anything raised into the error a client sees:
a `SkillGateError` as it is; a backing-service outage as 503 (logged once per
kind per interval, `kit.outage`, also when a service raised the 503 itself on a
Redis error); anything else as 500 quoting the request id, logged with its
traceback. `render_json_error(error)` is the JSON answer the HTTP doors send
(`{"error","message"[,"action_url"]}`, its status and headers; the MCP door
puts the same object in a tool result);
`send_error` writes it on raw ASGI; the dashboard's HTML page
(`dashboard.route.error_page`) is built on `as_error` too. `door_of(scope)` says which
door a request came through, so the message ends with that door's next step
(errors.SkillGateError.steps).
"""

from __future__ import annotations

from collections.abc import Mapping

import structlog
from starlette.types import Scope, Send

from skillgate.errors import InternalError, ServiceUnavailable, SkillGateError
from skillgate.kit import outage

log = structlog.get_logger("skillgate.http")
RawHeaders = list[tuple[bytes, bytes]]


def as_error(exc: BaseException, request_id: str) -> SkillGateError:
    if isinstance(exc, SkillGateError):
        if isinstance(exc, ServiceUnavailable):  # logged when a backing service is why
            outage.report(exc, request_id)
        return exc
    unavailable = outage.report(exc, request_id)
    if unavailable is not None:
        return unavailable
    log.error("unhandled error", request_id=request_id, exc_info=exc)
    return InternalError(
        f"Unexpected server error; quote request id {request_id} when reporting it."
    )


def door_of(scope: Scope) -> str:
    """`svc` when the caller is the svc client (its User-Agent, also through `svc mcp`),
    `mcp` for the MCP door's path, else `http`."""
    for name, value in scope.get("headers", ()):
        if name == b"user-agent" and value.startswith(b"svc/"):
            return "svc"
    path: str = scope.get("path", "")
    return "mcp" if path == "/mcp" or path.startswith("/mcp/") else "http"


def json_head(body: bytes, headers: Mapping[str, str] | None) -> RawHeaders:
    """Raw ASGI headers of a JSON answer: content type, length, then `headers`."""
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if headers:
        raw.extend((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items())
    return raw


def render_json_error(error: SkillGateError, door: str = "http") -> tuple[int, RawHeaders, bytes]:
    """(status, raw headers with content type and length, JSON body for `door`)."""
    body = error.render(door)
    return error.status, json_head(body, error.headers), body


async def send_error(send: Send, error: SkillGateError, door: str = "http") -> None:
    status, headers, body = render_json_error(error, door)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
