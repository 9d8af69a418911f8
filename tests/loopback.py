"""One recording HTTP server on loopback: whatever a test plays on the far side of a
connection is a handler on it.

- `tests.upstream.Provider` plays a provider behind the gateway (scripted replies,
  OAuth token and `/me` endpoints);
- `tests.skillgate_cli.fakes.FakeGateway` plays the gateway in front of `svc` (canned
  routes per method and path).

The server is real HTTP/1.1 on 127.0.0.1 (a thread per connection, keep-alive), so a
test can assert the exact method, target, headers and body that were sent, and script
what a real server does badly: answer late, stream a body too large, lie about its
length, or drop the connection.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

CHUNK = 65536


@dataclass
class Received:
    """One request as it arrived."""

    method: str
    target: str  # raw request target: path and query, as sent
    headers: list[tuple[str, str]]  # names as the client wrote them, in order
    body: bytes
    at: float  # time.monotonic() on arrival

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def query(self) -> list[tuple[str, str]]:
        return parse_qsl(self.target.partition("?")[2], keep_blank_values=True)


@dataclass
class Answer:
    """What to send back."""

    status: int = 200
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)
    delay: float = 0.0  # wait this long before answering
    stream_bytes: int = 0  # instead of `body`: this many bytes in chunks (chunked encoding)
    declared_length: int | None = None  # ...or this Content-Length, whatever is sent
    drop: bool = False  # close the connection after answering, without saying so


Handler = Callable[[Received], Answer]


class Loopback:
    """`Loopback(handle)`: every request is recorded in `received`, then answered with
    `handle(request)`. Start and stop it with `start()`/`stop()` or `with`."""

    def __init__(self, handle: Handler) -> None:
        self.handle = handle
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.port = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def clear(self) -> None:
        with self.lock:
            self.received.clear()

    def start(self) -> Loopback:
        owner = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # no 40 ms delayed-ACK stall on kept-alive connections

            def do_GET(self) -> None:
                owner._serve(self)

            do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            assert self._thread is not None
            self._thread.join(timeout=10)
            self._server = None

    def __enter__(self) -> Loopback:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- one request --------------------------------------------------------------

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        request = Received(
            method=handler.command,
            target=handler.path,
            headers=list(handler.headers.items()),
            body=_read_body(handler),
            at=time.monotonic(),
        )
        with self.lock:
            self.received.append(request)
        answer = self.handle(request)
        if answer.delay:
            time.sleep(answer.delay)
        try:
            _send(handler, answer)
        except (BrokenPipeError, ConnectionResetError):  # the client hung up: often the point
            handler.close_connection = True


def _read_body(handler: BaseHTTPRequestHandler) -> bytes:
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        parts = []
        while True:
            size = int(handler.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                handler.rfile.readline()
                return b"".join(parts)
            parts.append(handler.rfile.read(size))
            handler.rfile.readline()
    length = int(handler.headers.get("Content-Length") or 0)
    return handler.rfile.read(length) if length else b""


def _send(handler: BaseHTTPRequestHandler, answer: Answer) -> None:
    handler.send_response(answer.status)
    for name, value in answer.headers:
        handler.send_header(name, value)
    if answer.stream_bytes:
        if answer.declared_length is not None:
            handler.send_header("Content-Length", str(answer.declared_length))
            handler.end_headers()
            _stream(handler, answer.stream_bytes, lambda chunk: chunk)
        else:
            handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            _stream(handler, answer.stream_bytes, lambda c: b"%x\r\n%s\r\n" % (len(c), c))
            handler.wfile.write(b"0\r\n\r\n")
        handler.close_connection = True
        return
    handler.send_header("Content-Length", str(len(answer.body)))
    handler.end_headers()
    if handler.command != "HEAD":  # a HEAD answer has the headers of a GET, no body
        handler.wfile.write(answer.body)
    if answer.drop:
        handler.close_connection = True


def _stream(handler: BaseHTTPRequestHandler, total: int, frame: Callable[[bytes], bytes]) -> None:
    chunk = b"x" * CHUNK
    sent = 0
    while sent < total:
        handler.wfile.write(frame(chunk))
        sent += len(chunk)
