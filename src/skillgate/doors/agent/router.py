"""The agent door's routes: a pattern with named parameters, matched segment by segment.

Literals match exactly, `{name}` any non-empty segment. A path that fits a
route's pattern with another method is 405 when the route `owns` that path
shape (no account-door route shares it); otherwise it falls through to the
account door (FastAPI).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Receive, Scope

from skillgate.http.body import read_body
from skillgate.kit.principal import Principal


@dataclass(frozen=True)
class Stream:
    """A body sent as it is produced (the execution log's export): the handler has
    checked everything that can be refused before it returns one."""

    chunks: AsyncIterator[bytes]
    media_type: str


Reply = tuple[int, bytes | Stream, Mapping[str, str] | None]


@dataclass(slots=True)
class Call:
    """One request as a handler sees it: who, the named path parameters, the body."""

    principal: Principal
    path: dict[str, str]
    query: bytes
    receive: Receive
    scope: Scope

    async def body(self) -> bytes:
        return await read_body(self.receive)

    def header(self, name: bytes) -> str | None:
        """A request header's value (`name` in lower case), or None."""
        for key, value in self.scope["headers"]:
            if key == name:
                return str(value.decode("latin-1"))
        return None


Handler = Callable[[Call], Awaitable[Reply]]


@dataclass(frozen=True)
class Route:
    method: str
    pattern: str  # "/v1/skills/{integration}"
    handler: Handler
    summary: str
    tag: str
    owns: bool = True  # no account-door route has this path shape: a wrong method is 405 here
    request_body: dict[str, Any] | None = None
    response: dict[str, Any] = field(default_factory=lambda: {"type": "object"})  # 2xx schema
    status: int = 200  # the success status /openapi.json names
    query: tuple[dict[str, Any], ...] = ()  # OpenAPI query (and header) parameters
    operation_id: str = ""  # /openapi.json's operationId; the handler's name when empty
    segments: tuple[str | None, ...] = field(init=False)  # None: a parameter
    names: tuple[str, ...] = field(init=False)
    # Precomputed for matching: (index, text) of each literal segment, (index, name)
    # of each parameter.
    _literals: tuple[tuple[int, str], ...] = field(init=False, repr=False)
    _slots: tuple[tuple[int, str], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        parts = self.pattern.split("/")
        segs = tuple(None if p.startswith("{") else p for p in parts)
        object.__setattr__(self, "segments", segs)
        object.__setattr__(self, "names", tuple(p[1:-1] for p in parts if p.startswith("{")))
        literals = tuple((i, p) for i, p in enumerate(parts) if not p.startswith("{"))
        slots = tuple((i, p[1:-1]) for i, p in enumerate(parts) if p.startswith("{"))
        object.__setattr__(self, "_literals", literals)
        object.__setattr__(self, "_slots", slots)

    def params(self, parts: list[str]) -> dict[str, str] | None:
        """The named parameter values when `parts` (as many as the pattern's segments)
        fit the pattern, else None."""
        for i, text in self._literals:
            if parts[i] != text:
                return None
        values: dict[str, str] = {}
        for i, name in self._slots:
            got = parts[i]
            if not got:
                return None
            values[name] = got
        return values

    def describe(self) -> dict[str, Any]:
        """This route as OpenAPI shows it."""
        operation: dict[str, Any] = {
            "operationId": self.operation_id or self.handler.__name__,
            "summary": self.summary,
            "tags": [self.tag],
            "security": [{"bearer": []}],
            "parameters": [
                {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                for n in self.names
            ]
            + list(self.query),
            "responses": {  # errors: http.openapi adds 4XX/5XX to every operation
                str(self.status): {
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


@dataclass(slots=True)  # made per request: not frozen (3x the cost), never changed
class Match:
    route: Route | None  # None: the path is ours but the method is not (405)
    params: dict[str, str] = field(default_factory=dict)
    allow: str = ""


class Router:
    def __init__(self, routes: Sequence[Route]) -> None:
        self.routes = tuple(routes)
        self._by_shape: dict[tuple[int, str], list[Route]] = {}  # (segments, method)
        self._by_length: dict[int, list[Route]] = {}
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
