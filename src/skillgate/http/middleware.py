"""The outermost layer: request id, body size limit and read timeout, last-resort
error body (503 for a backing-service outage, see kit.outage), access log.

Pure ASGI so it wraps everything, including Starlette's own error middleware:
every response carries `X-Request-ID`, and no exception ever reaches a client
as a stack trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import re
import time

import structlog
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skillgate.errors import (
    NotFound,
    PayloadTooLarge,
    RequestTimeout,
    SkillGateError,
)
from skillgate.http.errors import as_error, send_error
from skillgate.metrics import Metrics

_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
# No path of this API contains these; a request that does is probing.
_HOSTILE_RAW = re.compile(rb"%(2[fF]|5[cC]|00)")
_HOSTILE_SEGMENTS = frozenset({".", ".."})
_DRAIN_CAP = 64 * 1024 * 1024  # after a 413, drop at most this much of the body...
_LINGER = 2.0  # ...for at most this many seconds, then close
log = structlog.get_logger("skillgate.http")
# Request ids need to be unique, not secret: a random per-process prefix and a counter
# (uuid4 reads the OS random source on every request).
_ID_PREFIX = os.urandom(8).hex()
_ID_COUNTER = itertools.count(1)


def new_request_id() -> str:
    return f"{_ID_PREFIX}{next(_ID_COUNTER):016x}"


def request_id(scope: Scope) -> str:
    """The id this middleware gave the request (its `X-Request-ID`); "-" outside it.
    Every door and error handler quotes it from here."""
    state: dict[str, object] = scope.get("state", {})
    return str(state.get("request_id", "-"))


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


class BodyTimedOut(RequestTimeout, StarletteHTTPException):  # type: ignore[misc]
    """Raised from `receive` when the body stalls; an HTTPException for the same reason
    as `BodyTooLarge`."""

    def __init__(self, seconds: float) -> None:
        message = f"The request body did not arrive within {seconds:g} s; send it again."
        RequestTimeout.__init__(self, message)
        # Last: its `headers` are the ones rendered (RequestTimeout's chain ends in
        # HTTPException.__init__ too, which resets them).
        StarletteHTTPException.__init__(
            self, status_code=408, detail=message, headers={"Connection": "close"}
        )


class RequestContextMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        metrics: Metrics | None = None,
        body_timeout: float = 30.0,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.metrics = metrics
        self.body_timeout = body_timeout
        # Bound once (built after logging is configured): the module's lazy proxy
        # re-binds on every call, and the access log is skipped below INFO.
        self.log = log.bind()
        self.access_log = self.log.is_enabled_for(logging.INFO)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming, declared, chunked = b"", None, False
        for key, value in scope["headers"]:  # one pass for all three
            if key == b"x-request-id":
                incoming = value
            elif key == b"content-length":
                declared = value
            elif key == b"transfer-encoding":
                chunked = True
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
                await send_error(
                    send_with_id, NotFound(f"No such path: {scope['method']} {scope['path'][:80]}.")
                )
                return
            length = int(declared) if declared is not None and declared.isdigit() else None
            if length is not None and length > self.max_body:
                await self._refuse_too_large(receive, send_with_id)
                return
            if length == 0 or (length is None and not chunked):
                await self.app(scope, receive, send_with_id)  # no body to wait for
            else:
                # With a valid length the server delivers no more than it: only a
                # chunked body (or a bad length) needs counting.
                await self.app(scope, self._guarded(receive, count=length is None), send_with_id)
        except Exception as exc:
            if status == 0:
                await send_error(send_with_id, self._last_resort(exc, request_id))
            else:
                log.exception("error after the response started", request_id=request_id)
        finally:
            self._account(scope, status, started, request_id)

    def _account(self, scope: Scope, status: int, started: float, request_id: str) -> None:
        """Metrics and the access log line of one request."""
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
    def _last_resort(exc: Exception, request_id: str) -> SkillGateError:
        """The answer to an exception no handler turned into a response."""
        if isinstance(exc, (BodyTooLarge, BodyTimedOut)):
            return exc
        return as_error(exc, request_id)

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

    def _guarded(self, receive: Receive, *, count: bool) -> Receive:
        """`receive` that waits at most `body_timeout` for each part of the body
        (408) and, when `count`, refuses more than `max_body` bytes (413)."""
        received = 0
        limit, timeout = self.max_body, self.body_timeout

        async def guarded() -> Message:
            nonlocal received
            try:
                async with asyncio.timeout(timeout):
                    message = await receive()
            except TimeoutError:
                raise BodyTimedOut(timeout) from None
            if count and message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        return guarded

    async def _refuse_too_large(self, receive: Receive, send: Send) -> None:
        """413 at once, before reading any of the body, and `Connection: close`.

        The answer is complete on the wire before anything is read. The connection
        then stays open for at most `_LINGER` seconds (or `_DRAIN_CAP` bytes) while
        what the client already sent is dropped: closing a socket with unread data
        resets it, and a client that writes its whole body before reading (most
        HTTP libraries) would lose the 413 to the reset.
        """
        error = PayloadTooLarge(f"The request body exceeds {self.max_body} bytes.")
        body = error.render()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": error.status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": True})
        seen = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(min(_LINGER, self.body_timeout)):
                while seen < _DRAIN_CAP:
                    message = await receive()
                    if message["type"] != "http.request":
                        break
                    seen += len(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        await send({"type": "http.response.body", "body": b"", "more_body": False})
