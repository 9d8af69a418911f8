"""Loopback servers for what the real gateway cannot (yet) do on demand.

- `FakeGateway`: canned routes on the loopback server (tests/loopback.py) that answer
  the way DESIGN's contract says (execution, connect, device flow; 5xx on demand), so
  a test can assert the exact method, path, headers and body `svc` sent. Tests that
  use it for endpoints the server does not have yet are named `test_*_contract_*`.
- `silent_server`: accepts connections and never answers (timeouts).
- `resetting_server`: accepts, reads the request, answers with a TCP reset.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from tests.loopback import Answer, Loopback, Received


@dataclass
class Recorded:
    method: str
    path: str  # with the query, as sent
    headers: Message  # names as sent; looked up case-insensitively
    body: Any  # parsed JSON, else text
    at: float

    @classmethod
    def of(cls, received: Received) -> Recorded:
        headers = Message()
        for name, value in received.headers:
            headers[name] = value
        try:
            body = json.loads(received.body) if received.body else None
        except ValueError:
            body = received.body.decode("utf-8", "replace")
        return cls(received.method, received.target, headers, body, received.at)


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None  # sent as-is instead of JSON
    drop: bool = False  # close the connection after answering, without saying so
    stream_bytes: int = 0  # instead of the body: "x" in 64 KB chunks, at least this many
    declared_length: int | None = None  # ...under this Content-Length (more: a cut answer)

    def answer(self) -> Answer:
        payload = self.raw if self.raw is not None else json.dumps(self.body).encode()
        headers = {"Content-Type": "application/json", "X-Request-ID": "req-fake", **self.headers}
        return Answer(
            self.status,
            payload,
            list(headers.items()),
            drop=self.drop,
            stream_bytes=self.stream_bytes,
            declared_length=self.declared_length,
        )


Route = Callable[[Recorded], Reply]


class FakeGateway:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Route] = {}
        self.fallback: Route | None = None  # for requests no route names
        self.server = Loopback(self._answer)

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def requests(self) -> list[Recorded]:
        with self.server.lock:
            return [Recorded.of(r) for r in self.server.received]

    def clear(self) -> None:
        """No routes and no requests."""
        self.routes.clear()
        self.fallback = None
        self.server.clear()

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
        return [r for r in self.requests if r.method == method and r.path == path]

    def _answer(self, received: Received) -> Answer:
        rec = Recorded.of(received)
        route = self.routes.get((rec.method, rec.path)) or self.fallback
        if route is None:
            reply = Reply(404, {"error": "not_found", "message": f"No such path: {rec.path}."})
        else:
            reply = route(rec)
        return reply.answer()


@contextmanager
def fake_gateway() -> Iterator[FakeGateway]:
    fake = FakeGateway()
    with fake.server:
        yield fake


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
