"""An error says what to do next for the door the caller used (issue 23.9): `svc`
commands and SVC_API_KEY only to svc, the MCP tools and the client's configuration to
MCP clients, the HTTP routes to curl and generated clients."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness, bearer

SVC = {"User-Agent": "svc/0.1.0"}
CURL = {"User-Agent": "curl/8.5.0"}
MCP = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
       "MCP-Protocol-Version": "2025-06-18"}  # fmt: skip
BAD_KEY = "sk_" + "A" * 36


def _mentions_svc(message: str) -> bool:
    return "svc " in message or "SVC_" in message or "`svc" in message


async def _tool(harness: Harness, key: str, name: str, args: dict[str, Any]) -> Any:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": args}}  # fmt: skip
    return await harness.client.post("/mcp", json=body, headers={**MCP, **bearer(key)})


async def test_a_refused_key_says_what_to_do_for_each_door(harness: Harness) -> None:
    svc = await harness.client.get("/v1/me", headers={**SVC, **bearer(BAD_KEY)})
    curl = await harness.client.get("/v1/me", headers={**CURL, **bearer(BAD_KEY)})
    mcp = await harness.client.post("/mcp", json={}, headers={**MCP, **bearer(BAD_KEY)})
    assert svc.status_code == curl.status_code == mcp.status_code == 401
    assert "SVC_API_KEY" in svc.json()["message"]
    assert "`svc login`" in svc.json()["message"]
    said = curl.json()["message"]
    assert not _mentions_svc(said), said
    assert "Authorization: Bearer" in said
    said = mcp.json()["message"]
    assert not _mentions_svc(said), said
    assert "MCP client's configuration" in said


async def test_a_revoked_key_says_what_to_do_for_each_door(harness: Harness) -> None:
    await harness.user()
    full_key, made = await harness.key(name="gone")
    token = await harness.token()
    revoked = await harness.client.delete(f"/api-keys/{made['id']}", headers=bearer(token))
    assert revoked.status_code == 204
    svc = await harness.client.get("/v1/skills", headers={**SVC, **bearer(full_key)})
    curl = await harness.client.get("/v1/skills", headers={**CURL, **bearer(full_key)})
    assert svc.json()["message"].startswith("This API key was revoked.")
    assert "`svc login`" in svc.json()["message"]
    assert curl.json()["message"].startswith("This API key was revoked.")
    assert not _mentions_svc(curl.json()["message"])


async def test_an_unknown_name_says_how_to_list_them_for_each_door(harness: Harness) -> None:
    await harness.user()
    full_key, _ = await harness.key(name="k")
    svc = await harness.client.get("/v1/skills/sample/nope", headers={**SVC, **bearer(full_key)})
    curl = await harness.client.get("/v1/skills/sample/nope", headers={**CURL, **bearer(full_key)})
    assert svc.status_code == curl.status_code == 404
    assert "Run `svc skills sample` to list its endpoints." in svc.json()["message"]
    assert "GET /v1/skills/sample lists its endpoints." in curl.json()["message"]
    assert not _mentions_svc(curl.json()["message"])
    nowhere = await harness.client.get("/v1/skills/nowhere", headers={**CURL, **bearer(full_key)})
    assert "GET /v1/skills lists them." in nowhere.json()["message"]
    answer = await _tool(harness, full_key, "run_skill",
                         {"integration": "sample", "endpoint": "nope", "params": {}})  # fmt: skip
    result = answer.json()["result"]
    assert result["isError"] is True
    said = result["structuredContent"]["message"]
    assert "search_skills" in said
    assert not _mentions_svc(said), said
