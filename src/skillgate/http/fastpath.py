"""The hot API routes, served as raw ASGI: executions, discovery and the profile.

FastAPI's routing, request objects and dependency solving cost more per call
than everything these routes do (measured: bench/results/report.md). All of
them take a Bearer API key and nothing else, and answer JSON bytes that are
ready (discovery, profile) or built by the executor. `GatewayApp` hands them
to `FastPath` inside the same `RequestContextMiddleware` as every other route
(request id, body limit, hostile paths, last-resort error, access log).

A route's pattern is matched segment by segment: literals exactly, `{name}`
any non-empty segment. A path that matches a route's pattern with another
method is 405 when the route `owns` that path shape (no FastAPI route shares
it); otherwise it falls through to FastAPI.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from skillgate.errors import MethodNotAllowed, SkillGateError
from skillgate.http.middleware import header
from skillgate.http.state import AppState
from skillgate.kit import outage
from skillgate.kit.principal import Principal

Reply = tuple[int, bytes, Mapping[str, str] | None]
Handler = Callable[[AppState, Principal, tuple[str, ...], Receive], Awaitable[Reply]]
_CONTENT_TYPE = (b"content-type", b"application/json")
MATCH_KEY = "skillgate.fast_match"  # the scope entry GatewayApp leaves for FastPath


@dataclass(frozen=True)
class FastRoute:
    method: str
    pattern: str  # "/v1/skills/{integration}"
    handler: Handler
    summary: str
    tag: str
    owns: bool = True  # no FastAPI route has this path shape: a wrong method is 405 here
    request_body: dict[str, Any] | None = None
    response: dict[str, Any] = field(default_factory=lambda: {"type": "object"})  # 200's schema
    segments: tuple[str | None, ...] = field(init=False)  # None: a parameter
    names: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        parts = self.pattern.split("/")
        segs = tuple(None if p.startswith("{") else p for p in parts)
        object.__setattr__(self, "segments", segs)
        object.__setattr__(self, "names", tuple(p[1:-1] for p in parts if p.startswith("{")))

    def params(self, parts: list[str]) -> tuple[str, ...] | None:
        """The parameter values when `parts` fit the pattern, else None."""
        values: list[str] = []
        for want, got in zip(self.segments, parts, strict=True):
            if want is None:
                if not got:
                    return None
                values.append(got)
            elif want != got:
                return None
        return tuple(values)

    def describe(self) -> dict[str, Any]:
        """This route as OpenAPI shows it."""
        operation: dict[str, Any] = {
            "summary": self.summary,
            "tags": [self.tag],
            "security": [{"bearer": []}],
            "parameters": [
                {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                for n in self.names
            ],
            "responses": {  # errors: http.openapi adds 4XX/5XX to every operation
                "200": {
                    "description": "JSON (docs/api.md)",
                    "content": {"application/json": {"schema": self.response}},
                },
            },
        }
        if self.request_body is not None:
            operation["requestBody"] = {
                "content": {"application/json": {"schema": self.request_body}}
            }
        return {self.method.lower(): operation}


@dataclass(frozen=True)
class Match:
    route: FastRoute | None  # None: the path is ours but the method is not (405)
    params: tuple[str, ...] = ()
    allow: str = ""


class FastRouter:
    def __init__(self, routes: Sequence[FastRoute]) -> None:
        self.routes = tuple(routes)
        self._by_shape: dict[tuple[int, str], list[FastRoute]] = {}  # (segments, method)
        self._by_length: dict[int, list[FastRoute]] = {}
        for route in self.routes:
            self._by_shape.setdefault((len(route.segments), route.method), []).append(route)
            self._by_length.setdefault(len(route.segments), []).append(route)

    def match(self, scope: Scope) -> Match | None:
        if scope["type"] != "http":
            return None
        path: str = scope["path"]
        if not path.startswith("/v1/"):
            return None
        parts = path.split("/")
        for route in self._by_shape.get((len(parts), scope["method"]), ()):
            params = route.params(parts)
            if params is not None:
                return Match(route, params)
        allowed = list(
            dict.fromkeys(
                route.method
                for route in self._by_length.get(len(parts), ())
                if route.owns and route.params(parts) is not None
            )
        )

        return Match(None, allow=", ".join(allowed)) if allowed else None

    def openapi_paths(self) -> dict[str, dict[str, Any]]:
        paths: dict[str, dict[str, Any]] = {}
        for route in self.routes:
            paths.setdefault(route.pattern, {}).update(route.describe())
        return paths


async def read_body(receive: Receive) -> bytes:
    """The whole body. Its size is bounded by `RequestContextMiddleware`, which these
    routes run inside (413 on the declared length, or while a chunked body arrives)."""
    chunks: list[bytes] = []
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _respond(send: Send, status: int, body: bytes, headers: Mapping[str, str] | None) -> None:
    raw = [_CONTENT_TYPE, (b"content-length", str(len(body)).encode())]
    if headers:
        raw.extend((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items())
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class FastPath:
    """The ASGI app behind `RequestContextMiddleware` for requests the router matched
    (`scope[MATCH_KEY]`)."""

    def __init__(self, state: AppState, router: FastRouter) -> None:
        self.state = state
        self.router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match: Match = scope[MATCH_KEY]
        try:
            if match.route is None:
                raise MethodNotAllowed(
                    f"{scope['method']} is not allowed on {scope['path'][:80]}; use {match.allow}.",
                    headers={"Allow": match.allow},
                )
            raw = header(scope, b"authorization")
            principal = await self.state.verifier.principal_from_key(
                raw.decode("latin-1") if raw is not None else None
            )
            status, body, headers = await match.route.handler(
                self.state, principal, match.params, receive
            )
        except SkillGateError as exc:
            await _respond(send, exc.status, exc.render(), exc.headers)
            return
        except Exception as exc:
            unavailable = outage.report(exc, scope.get("state", {}).get("request_id", "-"))
            if unavailable is None:
                raise  # the request middleware logs it and answers 500
            await _respond(send, unavailable.status, unavailable.render(), unavailable.headers)
            return
        await _respond(send, status, body, headers)
