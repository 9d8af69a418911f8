"""Loopback servers for what the real gateway cannot (yet) do on demand.

- `FakeGateway`: answers routes the way DESIGN's contract says (execution,
  connect, device flow; 5xx on demand) and records every request, so a test can
  assert the exact method, path, headers and body `svc` sent. Tests that use it
  for endpoints the server does not have yet are named `test_*_contract_*`.
- `silent_server`: accepts connections and never answers (timeouts).
- `resetting_server`: accepts, reads the request, answers with a TCP reset.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    at: float


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None  # sent as-is instead of JSON
    drop: bool = False  # close the connection after answering, without saying so


Route = Callable[[Recorded], Reply]


class FakeGateway:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Route] = {}
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.url = ""

    def on(self, method: str, path: str, reply: Reply | Route | list[Reply]) -> None:
        """Answer `method path` with a fixed reply, a function, or a list (one per call,
        the last one repeated)."""
        if isinstance(reply, Reply):
            fixed = reply
            self.routes[(method, path)] = lambda _r: fixed
        elif isinstance(reply, list):
            queue = list(reply)
            self.routes[(method, path)] = lambda _r: queue.pop(0) if len(queue) > 1 else queue[0]
        else:
            self.routes[(method, path)] = reply

    def calls(self, method: str, path: str) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.method == method and r.path == path]

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        rec = Recorded(
            handler.command, handler.path, dict(handler.headers.items()), body, time.monotonic()
        )
        with self.lock:
            self.requests.append(rec)
        route = self.routes.get((handler.command, handler.path))
        if route is None:
            reply = Reply(404, {"error": "not_found", "message": f"No such path: {handler.path}."})
        else:
            reply = route(rec)
        payload = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
        handler.send_response(reply.status)
        headers = {"Content-Type": "application/json", "X-Request-ID": "req-fake", **reply.headers}
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
        if reply.drop:
            handler.close_connection = True


@contextmanager
def fake_gateway() -> Iterator[FakeGateway]:
    fake = FakeGateway()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # no 40 ms delayed-ACK stall on kept-alive connections

        def do_GET(self) -> None:
            fake._handle(self)

        do_POST = do_DELETE = do_GET

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextmanager
def _listener(serve_one: Callable[[socket.socket], None]) -> Iterator[str]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    stop = threading.Event()
    held: list[socket.socket] = []

    def loop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            held.append(conn)
            serve_one(conn)

    thread = threading.Thread(target=loop)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        listener.close()
        for conn in held:
            conn.close()


@contextmanager
def silent_server() -> Iterator[str]:
    """Accepts every connection and never sends a byte."""
    with _listener(lambda conn: None) as url:
        yield url


def _reset(conn: socket.socket) -> None:
    conn.settimeout(2)
    with suppress(OSError):
        conn.recv(65536)
    # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


@contextmanager
def resetting_server() -> Iterator[str]:
    """Reads the request, then resets the connection."""
    with _listener(_reset) as url:
        yield url
