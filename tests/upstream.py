"""A provider for executor and OAuth tests: handlers on the loopback server
(tests/loopback.py) that record every request (method, raw path, query, headers, body)
and answer what the test scripts: a status and body, a delay, a redirect, a huge body,
non-JSON. It also serves OAuth: `/oauth/token` for authorization codes and
refresh tokens (rotating them, refusing with `invalid_grant` or failing with
500 on demand), and `/me` to verify pasted tokens. A valid token is accepted however
an integration sends it: `Authorization: Bearer <token>`, HTTP Basic with it as the
password (Jira, Mailchimp, Twilio), or a `token` query parameter (Trello).
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlparse

import pytest

from skillgate.catalog.loader import Catalog
from tests.loopback import Answer, Loopback, Received


@dataclass
class Recorded:
    method: str
    path: str  # raw, as received, without the query
    query: list[tuple[str, str]]
    headers: dict[str, str]  # names lower-cased
    body: bytes

    @classmethod
    def of(cls, received: Received) -> Recorded:
        headers = {name.lower(): value for name, value in received.headers}
        return cls(received.method, received.path, received.query, headers, received.body)

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

    def answer(self) -> Answer:
        headers = list(self.headers.items())
        names = {name.lower() for name in self.headers}
        if isinstance(self.body, dict | list):
            payload = json.dumps(self.body).encode()
            headers.append(("content-type", "application/json"))
        elif isinstance(self.body, str):
            payload = self.body.encode()
            if "content-type" not in names:
                headers.append(("content-type", "text/plain; charset=utf-8"))
        else:
            payload = self.body or b""
        return Answer(
            self.status, payload, headers, self.delay, self.stream_bytes, self.declared_length
        )


def _presented(rec: Recorded) -> str:
    """The token a request presents: a bearer token, a Basic password, or `?token=`."""
    header = rec.headers.get("authorization", "")
    if header.startswith("Basic "):
        try:
            return base64.b64decode(header.removeprefix("Basic ")).decode().partition(":")[2]
        except (binascii.Error, UnicodeDecodeError):
            return ""
    if header:
        return header.removeprefix("Bearer ")
    return dict(rec.query).get("token", "")


class Provider:
    def __init__(self) -> None:
        self.server = Loopback(self._answer)
        # One request handled at a time, as a single-threaded provider would (a delay is
        # waited outside it): the token endpoint's rotation sees requests in order.
        self._handling = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Forget every request, route, code and token (the server keeps running)."""
        self.server.clear()
        self.routes: dict[tuple[str, str], Callable[[Recorded], Reply]] = {}
        self.valid_tokens: set[str] = {"good-token"}
        self.codes: dict[str, dict[str, Any]] = {}
        self.refresh_tokens: set[str] = set()
        self.token_requests: list[dict[str, str]] = []
        self.refresh_mode = "ok"  # ok | invalid_grant | error_500
        self.access_ttl = 3600

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def requests(self) -> list[Recorded]:
        with self.server.lock:
            return [Recorded.of(r) for r in self.server.received]

    def clear(self) -> None:
        """Forget the requests received so far."""
        self.server.clear()

    def reply(self, method: str, path: str, reply: Reply | Callable[[Recorded], Reply]) -> None:
        self.routes[(method, path)] = reply if callable(reply) else (lambda _r, rep=reply: rep)

    def api_requests(self) -> list[Recorded]:
        return [r for r in self.requests if not r.path.startswith("/oauth/")]

    def issue_code(self, verifier_challenge: str | None = None, scope: str | None = None) -> str:
        """A code for an authorization; `scope`: what the user allowed (the token's)."""
        code = secrets.token_hex(8)
        self.codes[code] = {"challenge": verifier_challenge, "scope": scope}
        return code

    def new_tokens(self, scope: str | None = None) -> dict[str, Any]:
        access = "at-" + secrets.token_hex(8)
        refresh = "rt-" + secrets.token_hex(8)
        self.valid_tokens.add(access)
        self.refresh_tokens.add(refresh)
        return {
            "access_token": access,
            "refresh_token": refresh,
            "token_type": "bearer",
            "expires_in": self.access_ttl,
            "scope": scope or "read write",
        }

    # --- the loopback server's handler -----------------------------------------------

    def _answer(self, received: Received) -> Answer:
        with self._handling:
            return self._route(Recorded.of(received)).answer()

    def _route(self, rec: Recorded) -> Reply:
        if rec.path == "/oauth/token":
            return self._token(rec)
        handler = self.routes.get((rec.method, rec.path.split("?")[0]))
        if handler is not None:
            return handler(rec)
        if _presented(rec) not in self.valid_tokens:
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
            granted = self.codes.pop(form["code"]).get("scope")
            return Reply(200, self.new_tokens(granted))
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

    # --- lifecycle --------------------------------------------------------------

    def start(self) -> None:
        self.server.start()

    def stop(self) -> None:
        self.server.stop()


def serve_catalog(provider: Provider, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point every integration of `catalog` at `provider`, each base URL keeping the real
    one's path (so the paths the provider receives are the wire's)."""
    for slug, integration in catalog.integrations.items():
        path = urlparse(integration.base_url).path.rstrip("/")
        monkeypatch.setenv(f"SKILLGATE_{slug.upper()}_BASE_URL", provider.url + path)
