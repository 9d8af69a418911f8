"""The one JSON reader for request bodies, with bounded nesting.

A body nested 1,000 levels deep made the standard library's parser recurse
until it failed (a 500). `loads` parses with orjson (C, its own hard limit) and
refuses anything nested deeper than `MAX_DEPTH` with a 400. The walk is cheap:
it only runs when the body holds more `[`/`{` bytes than the limit.

`JSONRoute` makes FastAPI's body parsing use it: set it as a router's
`route_class` and `await request.json()` (what FastAPI calls for a JSON body)
goes through `loads`. The agent door reads with `read_body` and `json_object`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import orjson
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive

from skillgate.errors import BadRequest

MAX_DEPTH = 64


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """Whether arrays/objects in `value` nest deeper than `max_depth` (iterative walk)."""
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > max_depth:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def loads(data: bytes, max_depth: int = MAX_DEPTH) -> Any:
    """The parsed body. orjson.JSONDecodeError (a ValueError) when it is not JSON;
    BadRequest when it nests deeper than `max_depth`."""
    value = orjson.loads(data)
    if (
        isinstance(value, dict | list)
        and data.count(b"[") + data.count(b"{") > max_depth
        and too_deep(value, max_depth)
    ):
        raise BadRequest(f"The request body nests deeper than {max_depth} levels.")
    return value


async def read_body(receive: Receive) -> bytes:
    """The whole body from ASGI `receive`. Its size and pace are bounded by
    `RequestContextMiddleware`, which every door runs inside (413, 408)."""
    chunks: list[bytes] = []
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def json_object(data: bytes, usage: str) -> dict[str, Any]:
    """The body as a JSON object ({} when empty); 400 quoting `usage` otherwise."""
    if not data.strip():
        return {}
    try:
        value = loads(data)
    except orjson.JSONDecodeError:
        raise BadRequest("The request body is not valid JSON.") from None
    if not isinstance(value, dict):
        raise BadRequest(f"The request body must be a JSON object: {usage}.")
    return value


class JSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class JSONRoute(APIRoute):
    """A route whose JSON body is read by `loads` (FastAPI reports a BadRequest raised
    there as an HTTP 400 caused by it; `http.handlers` answers with its message)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def bounded(request: Request) -> Response:
            return await handler(JSONRequest(request.scope, request.receive))

        return bounded
