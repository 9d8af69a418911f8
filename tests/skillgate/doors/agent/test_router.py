"""The agent door (doors.agent): routing, wrong methods, what falls through to
the account door (FastAPI), response framing and the OpenAPI description."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.doors.agent.router import Reply, Route, Router
from tests.conftest import Harness, bearer


async def _handler(*_: Any) -> Reply:
    return 200, b"{}", None


def _scope(method: str, path: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path}


ROUTER = Router(
    [
        Route("GET", "/v1/skills/{integration}", _handler, "s", "t"),
        Route("GET", "/v1/{integration}/download", _handler, "d", "t", owns=False),
        Route("POST", "/v1/{integration}/{endpoint}", _handler, "e", "t", owns=False),
    ]
)


@pytest.mark.parametrize(
    ("method", "path", "pattern", "params"),
    [
        ("GET", "/v1/skills/github", "/v1/skills/{integration}", {"integration": "github"}),
        ("GET", "/v1/github/download", "/v1/{integration}/download", {"integration": "github"}),
        (
            "POST",
            "/v1/github/list_repos",
            "/v1/{integration}/{endpoint}",
            {"integration": "github", "endpoint": "list_repos"},
        ),
        (
            "POST",
            "/v1/skills/github",
            "/v1/{integration}/{endpoint}",
            {"integration": "skills", "endpoint": "github"},
        ),
    ],
)
def test_router_matches_in_order(
    method: str, path: str, pattern: str, params: dict[str, str]
) -> None:
    match = ROUTER.match(_scope(method, path))
    assert match is not None
    assert match.route is not None
    assert (match.route.pattern, match.params) == (pattern, params)


@pytest.mark.parametrize(
    "path", ["/v1/skills/", "/v1//download", "/v1/github/", "/v1/skills/a/b/c", "/v2/skills/x"]
)
def test_router_leaves_other_shapes_to_fastapi(path: str) -> None:
    assert ROUTER.match(_scope("GET", path)) is None
    assert ROUTER.match(_scope("POST", path)) is None


def test_router_wrong_method_is_405_only_where_it_owns_the_shape() -> None:
    match = ROUTER.match(_scope("DELETE", "/v1/skills/github"))
    assert match is not None
    assert match.route is None
    assert match.allow == "GET"
    # /v1/connections/{integration} shares these shapes: FastAPI answers.
    assert ROUTER.match(_scope("PUT", "/v1/connections/download")) is None
    assert ROUTER.match(_scope("DELETE", "/v1/connections/github")) is None
    assert ROUTER.match({"type": "websocket", "path": "/v1/skills/github"}) is None


async def test_wrong_methods_on_fast_routes_are_405_with_allow(harness: Harness) -> None:
    for method, path in [
        ("PUT", "/v1/me"),
        ("POST", "/v1/skills"),
        ("DELETE", "/v1/skills/sample"),
        ("HEAD", "/v1/skills/sample/list_issues"),
    ]:
        r = await harness.client.request(method, path)
        assert r.status_code == 405, (method, path)
        assert r.headers["allow"] == "GET"
        assert r.headers["x-request-id"]
        if method != "HEAD":
            assert r.json()["error"] == "method_not_allowed"


async def test_shared_shapes_still_reach_fastapi_routes(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    # DELETE /v1/connections/{integration} has the shape of the execute and download
    # routes; the connections route answers it (404: nothing connected).
    r = await harness.client.delete("/v1/connections/download", headers=bearer(full))
    assert (r.status_code, r.json()["error"]) == (404, "not_found")
    assert "download" in r.json()["message"]
    r = await harness.client.get("/v1/connections", headers=bearer(full))
    assert r.status_code == 200


async def test_fast_responses_carry_their_length(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    for path in ("/v1/me", "/v1/skills", "/v1/skills/sample", "/v1/sample/download"):
        r = await harness.client.get(path, headers=bearer(full))
        assert r.status_code == 200
        assert int(r.headers["content-length"]) == len(r.content)
        assert r.headers["content-type"] == "application/json"
    r = await harness.client.get("/v1/skills/nope", headers=bearer(full))
    assert r.status_code == 404
    assert int(r.headers["content-length"]) == len(r.content)


async def test_openapi_describes_the_fast_routes(harness: Harness) -> None:
    paths = (await harness.client.get("/openapi.json")).json()["paths"]
    assert set(paths["/v1/me"]) == {"get"}
    assert set(paths["/v1/skills"]) == {"get"}
    assert set(paths["/v1/{integration}/{endpoint}"]) == {"post"}
    doc = paths["/v1/skills/{integration}/{endpoint}"]["get"]
    assert [p["name"] for p in doc["parameters"]] == ["integration", "endpoint"]
    assert "/v1/{integration}/download" in paths
    assert "/v1/connections/{integration}" in paths


async def test_oversized_execution_bodies_are_413(harness: Harness) -> None:
    """The request middleware bounds the raw routes' bodies: declared, and streamed."""
    await harness.user()
    full, _ = await harness.key()
    limit = harness.settings.max_request_bytes
    headers = {**bearer(full), "content-type": "application/json"}

    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(4):
            yield b"x" * (limit // 2)

    for content in (b"x" * (limit + 1), chunks()):
        r = await harness.client.post("/v1/sample/get_user", content=content, headers=headers)
        assert r.status_code == 413
        assert r.json()["error"] == "payload_too_large"
        assert r.headers["x-request-id"]
