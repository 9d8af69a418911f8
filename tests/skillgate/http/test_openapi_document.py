"""/openapi.json tells generated clients the truth (issue 23.6), checked in-process: the
outside tools themselves run in tests/clients/test_generated_clients.py."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness

PUBLIC = {("post", "/auth/login"), ("post", "/auth/device/code"), ("post", "/auth/device/token")}


async def _document(harness: Harness) -> dict[str, Any]:
    r = await harness.client.get("/openapi.json")
    assert r.status_code == 200
    return dict(r.json())


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m, p, op) for p, item in doc["paths"].items() for m, op in item.items()]


async def test_every_operation_has_an_id_and_says_what_credential_it_takes(
    harness: Harness,
) -> None:
    doc = await _document(harness)
    assert doc["servers"] == [{"url": "/", "description": "The server that serves this document."}]
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearer"]["type"] == "http"
    assert schemes["bearer"]["scheme"] == "bearer"
    assert schemes["session"] == {**schemes["session"], "type": "apiKey", "in": "cookie"}
    ids = [op.get("operationId") for _, _, op in _operations(doc)]
    assert all(ids), ids
    assert len(set(ids)) == len(ids), ids
    for method, path, op in _operations(doc):
        assert "security" in op, (method, path)
        if (method, path) in PUBLIC:
            assert op["security"] == [], path
        elif path.startswith("/v1/") and not path.startswith("/v1/connections/{"):
            assert op["security"] == [{"bearer": []}], path  # an API key only
        elif path.startswith("/connect/"):
            assert op["security"] == [{"session": []}], path  # the browser's
        else:
            assert op["security"] == [{"bearer": []}, {"session": []}], (method, path)


async def test_execute_is_typed_for_any_params_and_any_data(harness: Harness) -> None:
    op = (await _document(harness))["paths"]["/v1/{integration}/{endpoint}"]["post"]
    body = op["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["params"]["additionalProperties"] is True
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["properties"]["data"]["additionalProperties"] is True
    assert "type" not in answer["properties"]["data"]  # an object, an array, a string...
    assert {"status", "error", "dry_run", "request"} <= set(answer["properties"])
    header = next(p for p in op["parameters"] if p["in"] == "header")
    assert header["name"] == "Idempotency-Key"
    assert header["required"] is False


async def test_browser_routes_are_redirects_and_device_answers_are_typed(
    harness: Harness,
) -> None:
    doc = await _document(harness)
    for path in ("/connect/{integration}", "/connect/{integration}/callback"):
        responses = doc["paths"][path]["get"]["responses"]
        assert "200" not in responses
        assert "Location" in responses["303"]["headers"]
        assert "content" not in responses["303"]  # no JSON: the browser follows it
    schemas = doc["components"]["schemas"]
    for path, model in (
        ("/auth/device/code", "DeviceStart"),
        ("/auth/device/token", "DevicePoll"),
        ("/auth/device/authorize", "DeviceAuthorized"),
    ):
        ok = doc["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]
        assert ok["schema"] == {"$ref": f"#/components/schemas/{model}"}, path
        assert schemas[model]["properties"], model
    token = doc["paths"]["/auth/device/token"]["post"]["requestBody"]["content"]
    form = token["application/x-www-form-urlencoded"]["schema"]
    assert form["required"] == ["grant_type", "device_code"]
    assert {"access_token", "token_type", "api_key"} <= set(schemas["DevicePoll"]["properties"])
