"""The outermost layer: request id, body size limit, last-resort error body, access log.

Pure ASGI so it wraps everything, including Starlette's own error middleware:
every response carries `X-Request-ID`, and no exception ever reaches a client
as a stack trace.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import time
from typing import Any

import structlog
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skillgate.errors import InternalError, NotFound, PayloadTooLarge, SkillGateError
from skillgate.metrics import Metrics

_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
# No path of this API contains these; a request that does is probing.
_HOSTILE_RAW = re.compile(rb"%(2[fF]|5[cC]|00)")
_HOSTILE_SEGMENTS = frozenset({".", ".."})
_DRAIN_CAP = 64 * 1024 * 1024  # read (and drop) at most this much of an oversized body
log = structlog.get_logger("skillgate.http")
# Request ids need to be unique, not secret: a random per-process prefix and a counter
# (uuid4 reads the OS random source on every request).
_ID_PREFIX = os.urandom(8).hex()
_ID_COUNTER = itertools.count(1)


def new_request_id() -> str:
    return f"{_ID_PREFIX}{next(_ID_COUNTER):016x}"


class BodyTooLarge(PayloadTooLarge, StarletteHTTPException):  # type: ignore[misc]
    """Raised from `receive` while the app reads a streamed body that is too large.

    Also an HTTPException so FastAPI's body parsing re-raises it untouched; the
    handler for SkillGateError (earlier in the MRO) renders it.
    """

    def __init__(self, limit: int) -> None:
        PayloadTooLarge.__init__(self, f"The request body exceeds {limit} bytes.")
        StarletteHTTPException.__init__(self, status_code=413, detail=self.message)


def header(scope: Scope, name: bytes) -> bytes | None:
    """A request header's raw value from the ASGI scope (names are lower-case there)."""

    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp, max_body: int, metrics: Metrics | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.metrics = metrics
        # Bound once (built after logging is configured): the module's lazy proxy
        # re-binds on every call, and the access log is skipped below INFO.
        self.log = log.bind()
        self.access_log = self.log.is_enabled_for(logging.INFO)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming, declared = b"", None
        for key, value in scope["headers"]:  # one pass for both
            if key == b"x-request-id":
                incoming = value
            elif key == b"content-length":
                declared = value
        sent = incoming.decode("latin-1")
        request_id = sent if _REQUEST_ID_RE.match(sent) else new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        try:
            if self._hostile_path(scope):
                await send_with_id_error(
                    send_with_id, NotFound(f"No such path: {scope['method']} {scope['path'][:80]}.")
                )
                return
            if declared is not None and declared.isdigit():
                if int(declared) > self.max_body:
                    await self._drain(receive)
                    too_large = PayloadTooLarge(f"The request body exceeds {self.max_body} bytes.")
                    await send_with_id_error(send_with_id, too_large)
                    return
                # The server delivers no more than the declared length: nothing to count.
                await self.app(scope, receive, send_with_id)
            else:  # no (valid) length: chunked, or none; count what arrives
                await self.app(scope, self._limited(receive), send_with_id)
        except Exception as exc:
            if status == 0:
                error = (
                    exc
                    if isinstance(exc, BodyTooLarge)
                    else InternalError(
                        f"Unexpected server error; quote request id {request_id} when reporting it."
                    )
                )
                if not isinstance(exc, BodyTooLarge):
                    log.exception("unhandled error", request_id=request_id)
                await send_with_id_error(send_with_id, error)
            else:
                log.exception("error after the response started", request_id=request_id)
        finally:
            if self.metrics is not None:
                self.metrics.request(status or 500)
            if self.access_log:
                self.log.info(
                    "request",
                    method=scope["method"],
                    path=scope["path"],
                    status=status,
                    duration_ms=round((time.perf_counter() - started) * 1000, 2),
                    request_id=request_id,
                )

    @staticmethod
    def _hostile_path(scope: Scope) -> bool:
        """Encoded separators, NUL, backslashes or dot segments: never a route of ours."""
        raw = scope.get("raw_path") or b""
        path: str = scope["path"]
        if b"%" not in raw and "\\" not in path and "\x00" not in path and "/." not in path:
            return False  # the usual path: none of what is looked for below can be there
        return (
            bool(_HOSTILE_RAW.search(raw))
            or "\\" in path
            or "\x00" in path
            or any(seg in _HOSTILE_SEGMENTS for seg in path.split("/"))
        )

    def _limited(self, receive: Receive) -> Receive:
        received = 0
        limit = self.max_body

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        return limited

    async def _drain(self, receive: Receive) -> None:
        """Read and drop the body so the client can read our 413 instead of a reset."""
        seen = 0
        while seen < _DRAIN_CAP:
            message: dict[str, Any] = dict(await receive())
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return


async def send_with_id_error(send: Send, error: SkillGateError) -> None:
    """Send an error through a `send` that already adds X-Request-ID."""
    headers = [
        (b"content-type", b"application/json"),
        *((k.lower().encode(), v.encode()) for k, v in error.headers.items()),
    ]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": error.render()})
