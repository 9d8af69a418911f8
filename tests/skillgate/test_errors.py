"""Every error answers the contract body with the right status and an X-Request-ID."""

from __future__ import annotations

import pytest

from tests.conftest import Harness, bearer


async def test_unknown_route_is_contract_404(harness: Harness) -> None:
    r = await harness.client.get("/no/such/thing")
    assert r.status_code == 404
    assert r.json() == {"error": "not_found", "message": "No such path: GET /no/such/thing."}
    assert r.headers["x-request-id"]


async def test_wrong_method_is_405_with_allow(harness: Harness) -> None:
    r = await harness.client.put("/v1/me")
    assert r.status_code == 405
    assert r.json()["error"] == "method_not_allowed"
    assert "GET" in r.headers["allow"]


async def test_405_allow_lists_every_method_the_path_takes(harness: Harness) -> None:
    for method, path, allow in [
        ("DELETE", "/api-keys", "GET, POST"),
        ("PATCH", "/api-keys", "GET, POST"),
        ("GET", "/api-keys/key_123", "DELETE"),
        ("PATCH", "/v1/connections/sample", "PUT, DELETE"),
        ("GET", "/v1/connections/sample", "PUT, DELETE"),
        ("POST", "/v1/connections", "GET"),
        ("GET", "/auth/login", "POST"),
        ("DELETE", "/v1/me", "GET"),  # a raw route
    ]:
        r = await harness.client.request(method, path)
        assert (r.status_code, r.headers.get("allow")) == (405, allow), (method, path)
        assert r.json() == {
            "error": "method_not_allowed",
            "message": f"{method} is not allowed on {path}; use {allow}.",
        }


async def test_malformed_json_and_wrong_shapes_are_400(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    headers = {**bearer(token), "content-type": "application/json"}
    r = await harness.client.post("/api-keys", content=b'{"name": ', headers=headers)
    assert r.status_code == 400
    assert r.json() == {"error": "bad_request", "message": "The request body is not valid JSON."}
    r = await harness.client.post("/api-keys", content=b"[1, 2]", headers=headers)
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request"
    r = await harness.client.post("/auth/login", json={"email": 5, "password": None})
    assert r.status_code == 400
    assert "email" in r.json()["message"]


async def test_unexpected_exception_is_500_without_details(harness: Harness) -> None:
    async def boom() -> None:
        raise RuntimeError("database password is hunter2")

    harness.app.add_api_route("/boom", boom)
    r = await harness.client.get("/boom", headers={"x-request-id": "trace-abc-123"})
    assert r.status_code == 500
    body = r.json()
    assert body["error"] == "internal_error"
    assert "hunter2" not in r.text
    assert "Traceback" not in r.text
    assert "trace-abc-123" in body["message"]
    assert r.headers["x-request-id"] == "trace-abc-123"


async def test_request_id_is_generated_when_absent_or_unsafe(harness: Harness) -> None:
    r = await harness.client.get("/healthz", headers={"x-request-id": "bad id\twith spaces"})
    assert r.headers["x-request-id"] != "bad id\twith spaces"
    assert len(r.headers["x-request-id"]) == 32
    r2 = await harness.client.get("/healthz")
    assert r2.headers["x-request-id"] != r.headers["x-request-id"]


async def test_declared_oversized_body_is_413(harness: Harness) -> None:
    big = b"x" * (harness.settings.max_request_bytes + 1)
    r = await harness.client.post(
        "/auth/login", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    assert r.json()["error"] == "payload_too_large"


async def test_streamed_oversized_body_is_413(harness: Harness) -> None:
    limit = harness.settings.max_request_bytes

    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(4):
            yield b"x" * (limit // 2)

    r = await harness.client.post(
        "/auth/login", content=chunks(), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    assert r.json()["error"] == "payload_too_large"


# Every route that reads a body, with what it reads: a chunked body (no length to refuse
# it by) over the limit is the middleware's 413 wherever the read happens (issue 22,
# item 7: the device routes answered 500, a TypeError on the refusal's headers).
_BODY_ROUTES = [
    ("POST", "/auth/device/code", "application/json", None),
    ("POST", "/auth/device/token", "application/json", None),
    ("POST", "/auth/device/token", "application/x-www-form-urlencoded", None),
    ("POST", "/auth/device/authorize", "application/json", "token"),
    ("POST", "/auth/login", "application/json", None),
    ("POST", "/api-keys", "application/json", "token"),
    ("PUT", "/v1/connections/sample", "application/json", "token"),
    ("POST", "/signup", "application/x-www-form-urlencoded", None),
    ("POST", "/login", "application/x-www-form-urlencoded", None),
    ("POST", "/v1/sample/get_user", "application/json", "key"),
    ("POST", "/mcp", "application/json", "key"),
]


@pytest.mark.parametrize(("method", "path", "kind", "credential"), _BODY_ROUTES)
async def test_a_chunked_body_over_the_limit_is_413_on_every_route(
    harness: Harness, method: str, path: str, kind: str, credential: str | None
) -> None:
    await harness.user()
    headers = {"content-type": kind}
    if credential == "token":
        headers.update(bearer(await harness.token()))
    elif credential == "key":
        headers.update(bearer((await harness.key())[0]))
    limit = harness.settings.max_request_bytes

    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(3):
            yield b"x" * (limit // 2)

    r = await harness.client.request(method, path, content=chunks(), headers=headers)
    assert r.status_code == 413, r.text[:300]
    assert "Traceback" not in r.text
    if path in ("/signup", "/login"):  # the dashboard's forms answer with its error page
        assert r.headers["content-type"].startswith("text/html")
        assert f"The request body exceeds {limit} bytes." in r.text
        return
    assert r.json() == {
        "error": "payload_too_large",
        "message": f"The request body exceeds {limit} bytes.",
    }
