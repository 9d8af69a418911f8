"""Scopes on every key-authenticated route (docs/api.md, "Scopes on every route").

Each route is driven with every kind of caller: keys scoped `*`, `sample` (full access to the
integration the request names), `sample:read` (read-only) and `oauthy` (another integration
only), an access token and a dashboard session, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import httpx

from skillgate.auth.sessions import COOKIE_NAME, WebSessions
from skillgate.connections.credentials import Credentials
from skillgate.connections.service import Connections
from skillgate.db.base import utcnow
from skillgate.db.session import commit
from skillgate.executions.models import Execution
from tests.conftest import Harness, bearer

KEYS = ("*", "sample", "sample:read", "oauthy")
CALLERS = (*KEYS, "token", "session")
MANAGER = "Managing API keys needs a key with scope * or a dashboard sign-in."


@dataclass
class World:
    """One user with both integrations connected, an execution of each, a pending connect
    request for `sample`, and a credential of every kind."""

    h: Harness
    user_id: str
    creds: dict[str, str] = field(default_factory=dict)
    cookie: str = ""
    csrf: str = ""
    request_id: str = ""
    spare_key_id: str = ""

    async def call(self, caller: str, method: str, path: str, **kw: Any) -> httpx.Response:
        if caller == "session":
            self.h.client.cookies.set(COOKIE_NAME, self.cookie)
            try:
                return await self.h.client.request(
                    method, path, headers={"X-CSRF-Token": self.csrf}, **kw
                )
            finally:
                self.h.client.cookies.clear()
        return await self.h.client.request(method, path, headers=bearer(self.creds[caller]), **kw)

    async def connect_sample(self) -> None:
        await self.h.connect_token(self.creds["*"])

    async def seen(self, caller: str, path: str, listing: str) -> set[str] | int:
        r = await self.call(caller, "GET", path)
        if r.status_code != 200:
            return r.status_code
        return {row["integration"] for row in r.json()[listing]}


async def _world(h: Harness) -> World:
    user = await h.user(plan="pro")
    world = World(h, user.id)
    world.creds["token"] = token = await h.token()
    for scope in (*KEYS, "spare"):
        body = {"name": scope, "scopes": ["*" if scope == "spare" else scope]}
        r = await h.client.post("/api-keys", json=body, headers=bearer(token))
        assert r.status_code == 201, r.text
        world.creds[scope] = r.json()["full_key"]
        world.spare_key_id = r.json()["api_key"]["id"]
    await world.connect_sample()
    now = utcnow()
    async with h.sessionmaker() as s:
        settings = h.settings
        world.cookie, world.csrf = await WebSessions(
            settings.session_idle_ttl, settings.session_absolute_ttl
        ).create(s, user.id)
        await h.service(Connections).store(
            s, user.id, "oauthy", "oauth2", Credentials(access_token="oauthy-token")
        )
        for n, slug in enumerate(("sample", "oauthy")):
            s.add(
                Execution(
                    id=f"exe_matrix{n}",
                    user_id=user.id,
                    key_id=None,
                    integration=slug,
                    endpoint="get_user",
                    upstream_status=200,
                    error=None,
                    duration_ms=1,
                    created_at=now - timedelta(seconds=n),
                )
            )
        await commit(s)
    r = await world.call("*", "POST", "/v1/connect", json={"integration": "sample"})
    assert r.status_code == 201, r.text
    world.request_id = r.json()["id"]
    return world


Check = Callable[[World, str], Awaitable[object]]


async def _status(w: World, caller: str, method: str, path: str, **kw: Any) -> int:
    r = await w.call(caller, method, path, **kw)
    if r.status_code == 403:
        assert r.json()["error"] == "scope_not_allowed", r.text
    return r.status_code


async def list_keys(w: World, caller: str) -> object:
    r = await w.call(caller, "GET", "/api-keys")
    if r.status_code == 403:
        assert r.json() == {"error": "scope_not_allowed", "message": MANAGER}
    return r.status_code


async def create_key(w: World, caller: str) -> object:
    return await _status(w, caller, "POST", "/api-keys", json={"name": "new", "scopes": ["*"]})


async def revoke_key(w: World, caller: str) -> object:
    return await _status(w, caller, "DELETE", f"/api-keys/{w.spare_key_id}")


async def put_connection(w: World, caller: str) -> object:
    return await _status(w, caller, "PUT", "/v1/connections/sample", json={"token": "good-token"})


async def delete_connection(w: World, caller: str) -> object:
    status = await _status(w, caller, "DELETE", "/v1/connections/sample")
    if status == 204:
        await w.connect_sample()  # for the next caller
    return status


async def start_connect(w: World, caller: str) -> object:
    return await _status(w, caller, "POST", "/v1/connect", json={"integration": "sample"})


async def connect_status(w: World, caller: str) -> object:
    return await _status(w, caller, "GET", f"/v1/connect/{w.request_id}")


async def list_connections(w: World, caller: str) -> object:
    return await w.seen(caller, "/v1/connections", "connections")


async def list_executions(w: World, caller: str) -> object:
    return await w.seen(caller, "/v1/executions", "executions")


async def filter_executions(w: World, caller: str) -> object:
    return await w.seen(caller, "/v1/executions?integration=sample", "executions")


async def me(w: World, caller: str) -> object:
    return await _status(w, caller, "GET", "/v1/me")


async def search(w: World, caller: str) -> object:
    return await w.seen(caller, "/v1/skills/search?q=issues+and+things", "results")


async def search_one(w: World, caller: str) -> object:
    return await _status(w, caller, "GET", "/v1/skills/search?q=issues&integration=sample")


async def read_endpoint(w: World, caller: str) -> object:
    return await _status(
        w, caller, "POST", "/v1/sample/get_user", json={"params": {"username": "x"}}
    )


async def write_endpoint(w: World, caller: str) -> object:
    body = {"params": {"owner": "o", "repo": "r", "title": "t"}}
    return await _status(w, caller, "POST", "/v1/sample/create_issue", json=body)


BOTH = {"sample", "oauthy"}
SAMPLE = {"sample"}
# route -> what each caller gets: a status, or the integrations a listing shows.
MATRIX: dict[str, tuple[Check, dict[str, object]]] = {
    "GET /api-keys": (
        list_keys,
        dict.fromkeys(CALLERS, 403) | {"*": 200, "token": 200, "session": 200},
    ),
    "POST /api-keys": (
        create_key,
        dict.fromkeys(CALLERS, 403) | {"*": 201, "token": 201, "session": 201},
    ),
    "DELETE /api-keys/:id": (
        revoke_key,
        dict.fromkeys(CALLERS, 403) | {"*": 204, "token": 204, "session": 204},
    ),
    "PUT /v1/connections/:integration": (
        put_connection,
        {"*": 200, "sample": 200, "sample:read": 403, "oauthy": 403, "token": 200, "session": 200},
    ),
    "DELETE /v1/connections/:integration": (
        delete_connection,
        {"*": 204, "sample": 204, "sample:read": 403, "oauthy": 403, "token": 204, "session": 204},
    ),
    "POST /v1/connect": (
        start_connect,
        {"*": 201, "sample": 201, "sample:read": 403, "oauthy": 403, "token": 401, "session": 401},
    ),
    "GET /v1/connect/:id": (
        connect_status,
        {"*": 200, "sample": 200, "sample:read": 200, "oauthy": 404, "token": 401, "session": 401},
    ),
    "GET /v1/connections": (
        list_connections,
        {
            "*": BOTH,
            "sample": SAMPLE,
            "sample:read": SAMPLE,
            "oauthy": {"oauthy"},
            "token": 401,
            "session": 401,
        },
    ),
    "GET /v1/executions": (
        list_executions,
        {
            "*": BOTH,
            "sample": SAMPLE,
            "sample:read": SAMPLE,
            "oauthy": {"oauthy"},
            "token": 401,
            "session": 401,
        },
    ),
    "GET /v1/executions?integration=": (
        filter_executions,
        {
            "*": SAMPLE,
            "sample": SAMPLE,
            "sample:read": SAMPLE,
            "oauthy": 403,
            "token": 401,
            "session": 401,
        },
    ),
    "GET /v1/me": (me, dict.fromkeys(KEYS, 200) | {"token": 401, "session": 401}),
    "GET /v1/skills/search": (
        search,
        {
            "*": BOTH,
            "sample": SAMPLE,
            "sample:read": SAMPLE,
            "oauthy": {"oauthy"},
            "token": 401,
            "session": 401,
        },
    ),
    "GET /v1/skills/search?integration=": (
        search_one,
        {"*": 200, "sample": 200, "sample:read": 200, "oauthy": 403, "token": 401, "session": 401},
    ),
    "POST /v1/:integration/:endpoint (reads)": (
        read_endpoint,
        {"*": 200, "sample": 200, "sample:read": 200, "oauthy": 403, "token": 401, "session": 401},
    ),
    "POST /v1/:integration/:endpoint (writes)": (
        write_endpoint,
        {"*": 200, "sample": 200, "sample:read": 403, "oauthy": 403, "token": 401, "session": 401},
    ),
}


async def test_every_route_with_every_scope_kind(harness: Harness, provider: object) -> None:
    world = await _world(harness)
    got = {}
    for route, (check, _) in MATRIX.items():
        got[route] = {caller: await check(world, caller) for caller in CALLERS}
    assert got == {route: expected for route, (_, expected) in MATRIX.items()}
