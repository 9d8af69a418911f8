"""POST /v1/:integration/:endpoint: the hot path, served as raw ASGI.

FastAPI's middleware, routing and request objects cost more per call than
everything the executor does (measured: bench/results/report.md), so
`GatewayApp` hands these requests straight to `execute_asgi`, inside the same
`RequestContextMiddleware` as every other route (request id, body limit,
error body, access log). Authentication: Bearer API key only.
"""

from __future__ import annotations

from typing import Any

from starlette.types import Message, Receive, Scope, Send

from skillgate.auth.deps import api_key_principal
from skillgate.errors import PayloadTooLarge, SkillGateError
from skillgate.executor.service import Executor
from skillgate.http.middleware import header
from skillgate.http.state import AppState

_JSON = (b"content-type", b"application/json")


def execute_target(scope: Scope) -> tuple[str, str] | None:
    """(integration, endpoint) when this request is an execution, else None."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    parts = scope["path"].split("/")
    if len(parts) != 4 or parts[0] != "" or parts[1] != "v1" or not parts[2] or not parts[3]:
        return None
    return parts[2], parts[3]


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"The request body exceeds {limit} bytes.")
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _respond(send: Send, status: int, body: bytes, headers: dict[str, str]) -> None:
    raw: list[tuple[bytes, bytes]] = [_JSON]
    raw.extend((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items())
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def _authorization(scope: Scope) -> str | None:
    raw = header(scope, b"authorization")
    return raw.decode("latin-1") if raw is not None else None


async def execute_asgi(
    state: AppState, target: tuple[str, str], scope: Scope, receive: Receive, send: Send
) -> None:
    try:
        principal = await api_key_principal(state.verifier, _authorization(scope))
        body = await _read_body(receive, state.settings.max_request_bytes)
        outcome = await Executor(state).run(principal, target[0], target[1], body)
    except SkillGateError as exc:
        await _respond(send, exc.status, exc.render(), exc.headers)
        return
    await _respond(send, 200, outcome.body, outcome.headers)


def describe() -> dict[str, Any]:
    """The route as OpenAPI shows it (the handler itself is not a FastAPI route)."""
    return {
        "post": {
            "summary": "Execute an endpoint of a connected integration",
            "tags": ["execution"],
            "parameters": [
                {
                    "name": "integration",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                },
                {"name": "endpoint", "in": "path", "required": True, "schema": {"type": "string"}},
            ],
            "requestBody": {
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "properties": {"params": {"type": "object"}}}
                    }
                }
            },
            "responses": {"200": {"description": "{status, data} or {status, error}"}},
        }
    }
