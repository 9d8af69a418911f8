"""Slow and oversized requests do not hold the server (issue 11, item 3c): a request
head that never completes is closed after SKILLGATE_HEADER_TIMEOUT, a stalled body is
answered 408 after SKILLGATE_BODY_TIMEOUT, and a declared body over the limit is
answered 413 at once, before any of it is read. A real server process, raw sockets."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.process import Server, clean_env, serve

TIMEOUT = 0.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = clean_env(
        SKILLGATE_HEADER_TIMEOUT=str(TIMEOUT),
        SKILLGATE_BODY_TIMEOUT=str(TIMEOUT),
        SKILLGATE_LOG_LEVEL="WARNING",
    )
    cwd: Path = tmp_path_factory.mktemp("timeouts")
    with serve(cwd, env=env) as running:
        yield running


def _connect(server: Server) -> socket.socket:
    port = int(server.url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(10)  # the test's own bound: far above the server's timeouts
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_a_request_head_that_never_ends_is_closed(server: Server) -> None:
    for sent in (b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "):
        with _connect(server) as sock:
            started = time.monotonic()
            sock.sendall(sent)
            answer = _read_all(sock)
            took = time.monotonic() - started
        assert answer == b""
        assert TIMEOUT * 0.8 < took < TIMEOUT + 2, took


def test_a_complete_head_is_not_cut_and_keep_alive_works(server: Server) -> None:
    with _connect(server) as sock:
        for _ in range(2):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(TIMEOUT * 0.6)  # twice that in all: the head timer restarts per request
            assert sock.recv(65536).startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize(
    "framing",
    [b'Content-Length: 100\r\n\r\n{"email"', b'Transfer-Encoding: chunked\r\n\r\n5\r\n{"ema\r\n'],
    ids=["content-length", "chunked"],
)
def test_a_stalled_body_is_408_and_closed(server: Server, framing: bytes) -> None:
    with _connect(server) as sock:
        started = time.monotonic()
        sock.sendall(
            b"POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing
        )
        answer = _read_all(sock)
        took = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"connection: close" in answer.lower()
    assert b'"error":"request_timeout"' in answer
    assert TIMEOUT * 0.8 < took < TIMEOUT + 2, took


def test_a_declared_10_gib_body_is_413_at_once(server: Server) -> None:
    with _connect(server) as sock:
        started = time.monotonic()
        sock.sendall(
            b"POST /api-keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10737418240\r\n\r\n"
        )
        head = sock.recv(65536)
        took = time.monotonic() - started
        rest = _read_all(sock)  # then the connection closes (after a short linger)
        closed_after = time.monotonic() - started
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert took < 0.5, took
    assert b"connection: close" in head.lower()
    assert b'"error":"payload_too_large"' in head + rest
    assert closed_after < 5, closed_after


@pytest.mark.parametrize("path", [b"/auth/device/code", b"/auth/device/token"])
def test_a_chunked_body_over_1_mib_is_413_on_the_device_routes(server: Server, path: bytes) -> None:
    """Issue 22, item 7, as it was found: a chunked body (no length to refuse at once)
    over the 1 MiB limit to a device route was a 500 and a 6 kB traceback in the log."""
    chunk = b"x" * 65536
    body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 17 + b"0\r\n\r\n"  # 1 MiB + 64 KiB
    with _connect(server) as sock:
        sock.sendall(
            b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + body
        )
        answer = b""
        while b"}" not in answer and (part := sock.recv(65536)):
            answer += part
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert (
        b'{"error":"payload_too_large","message":"The request body exceeds 1048576 bytes."}'
        in answer
    )
