"""A real HTTP server on loopback that plays a provider, for executor and OAuth tests.

It records every request (method, raw path, query, headers, body) and answers
what the test scripts: a status and body, a delay, a redirect, a huge body,
non-JSON. It also serves OAuth: `/oauth/token` for authorization codes and
refresh tokens (rotating them, refusing with `invalid_grant` or failing with
500 on demand), and `/me` to verify pasted tokens.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import uvicorn

Scope = dict[str, Any]


@dataclass
class Recorded:
    method: str
    path: str  # raw, as received
    query: list[tuple[str, str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict/list -> JSON; str/bytes -> as is
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    stream_bytes: int = 0  # send this many bytes in chunks, no Content-Length
    declared_length: int | None = None


class Provider:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.routes: dict[tuple[str, str], Callable[[Recorded], Reply]] = {}
        self.valid_tokens: set[str] = {"good-token"}
        self.codes: dict[str, dict[str, Any]] = {}
        self.refresh_tokens: set[str] = set()
        self.token_requests: list[dict[str, str]] = []
        self.refresh_mode = "ok"  # ok | invalid_grant | error_500
        self.access_ttl = 3600
        self.port = 0
        self._server: uvicorn.Server | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def reply(self, method: str, path: str, reply: Reply | Callable[[Recorded], Reply]) -> None:
        self.routes[(method, path)] = reply if callable(reply) else (lambda _r, rep=reply: rep)

    def api_requests(self) -> list[Recorded]:
        return [r for r in self.requests if not r.path.startswith("/oauth/")]

    def issue_code(self, verifier_challenge: str | None = None) -> str:
        code = secrets.token_hex(8)
        self.codes[code] = {"challenge": verifier_challenge}
        return code

    def new_tokens(self) -> dict[str, Any]:
        access = "at-" + secrets.token_hex(8)
        refresh = "rt-" + secrets.token_hex(8)
        self.valid_tokens.add(access)
        self.refresh_tokens.add(refresh)
        return {
            "access_token": access,
            "refresh_token": refresh,
            "token_type": "bearer",
            "expires_in": self.access_ttl,
            "scope": "read write",
        }

    # --- ASGI -----------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        rec = Recorded(
            method=scope["method"],
            path=scope["raw_path"].decode("latin-1"),
            query=parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True),
            headers={k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]},
            body=body,
        )
        self.requests.append(rec)
        reply = self._route(rec)
        if reply.delay:
            await asyncio.sleep(reply.delay)
        await self._send(send, reply)

    def _route(self, rec: Recorded) -> Reply:
        if rec.path == "/oauth/token":
            return self._token(rec)
        handler = self.routes.get((rec.method, rec.path.split("?")[0]))
        if handler is not None:
            return handler(rec)
        token = rec.headers.get("authorization", "").removeprefix("Bearer ")
        if token not in self.valid_tokens:
            return Reply(401, {"message": "Bad credentials"})
        if rec.path == "/me":
            return Reply(200, {"login": "octo-user", "id": 1})
        return Reply(200, {"ok": True, "path": rec.path})

    def _token(self, rec: Recorded) -> Reply:
        form = dict(parse_qsl(rec.body.decode()))
        self.token_requests.append(form)
        if form.get("grant_type") == "authorization_code":
            if form.get("code") not in self.codes:
                return Reply(400, {"error": "invalid_grant"})
            del self.codes[form["code"]]
            return Reply(200, self.new_tokens())
        if form.get("grant_type") == "refresh_token":
            time.sleep(0.05)  # a slow provider widens any race
            if self.refresh_mode == "error_500":
                return Reply(500, {"error": "server_error"})
            if (
                self.refresh_mode == "invalid_grant"
                or form.get("refresh_token") not in self.refresh_tokens
            ):
                return Reply(400, {"error": "invalid_grant"})
            self.refresh_tokens.discard(form["refresh_token"])  # rotation
            return Reply(200, self.new_tokens())
        return Reply(400, {"error": "unsupported_grant_type"})

    async def _send(self, send: Any, reply: Reply) -> None:
        headers = [(k.lower().encode(), v.encode()) for k, v in reply.headers.items()]
        if reply.stream_bytes:
            if reply.declared_length is not None:
                headers.append((b"content-length", str(reply.declared_length).encode()))
            await send({"type": "http.response.start", "status": reply.status, "headers": headers})
            chunk = b"x" * 65536
            sent = 0
            try:
                while sent < reply.stream_bytes:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                    sent += len(chunk)
                await send({"type": "http.response.body", "body": b""})
            except Exception:  # the gateway hung up: that is the point
                return
            return
        if isinstance(reply.body, dict | list):
            payload = json.dumps(reply.body).encode()
            headers.append((b"content-type", b"application/json"))
        elif isinstance(reply.body, str):
            payload = reply.body.encode()
            if not any(k == b"content-type" for k, _ in headers):
                headers.append((b"content-type", b"text/plain; charset=utf-8"))
        else:
            payload = reply.body or b""
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    # --- lifecycle --------------------------------------------------------------

    def start(self) -> None:
        config = uvicorn.Config(
            self, host="127.0.0.1", port=0, log_level="warning", lifespan="on", access_log=False
        )
        self._server = uvicorn.Server(config)
        thread = threading.Thread(target=self._server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fake provider did not start")
            time.sleep(0.01)
        self.port = self._server.servers[0].sockets[0].getsockname()[1]
        self._thread = thread

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
