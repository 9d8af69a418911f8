"""The MCP door through the official MCP Python client, over real HTTP, against a real
server process: the handshake, the tool list, each tool against the loopback upstream,
each refusal as a tool error carrying the HTTP API's error object, scopes, the rate
limit, and the JSON-RPC errors of unknown tools and malformed arguments."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from mcp import MCPError
from mcp_types import INVALID_PARAMS, INVALID_REQUEST, CallToolResult

from tests.skillgate.doors.mcp.conftest import Gateway, mcp_client
from tests.upstream import Provider, Reply

READS = ["list_integrations", "search_skills", "get_skill", "run_skill"]
GENERIC = [*READS, "run_skill_write"]


def http_get(gateway: Gateway, path: str, key: str = "full") -> Any:
    r = httpx.get(
        gateway.server.url + path, headers={"Authorization": f"Bearer {gateway.keys[key]}"}
    )
    assert r.status_code == 200, r.text
    return r.json()


def same_twice(result: CallToolResult) -> Any:
    """The structured content, checked equal to the one text block's JSON."""
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def searched(result: CallToolResult) -> Any:
    """search_skills' structured content, checked against its one text block: the same
    answer as compact lines (whether nothing fits, the integrations by connection
    status, one line per result, best first, with name, method, path, match and the
    description), in fewer bytes than the JSON."""
    assert len(result.content) == 1
    assert result.content[0].type == "text"
    found: Any = result.structured_content
    lines = result.content[0].text.splitlines()
    assert lines[0].startswith(f"no_match: {json.dumps(found['no_match'])} (")
    rows = [line for line in lines[1:] if not line.startswith(("connected:", "not_connected:"))]
    assert len(rows) == len(found["results"])
    for row, r in zip(rows, found["results"], strict=True):
        assert row == (
            f"{r['integration']}/{r['name']} {r['method']} {r['path']}"
            f" match {r['match']:.2f}: {r['description']}"
        )
    for status in ("connected", "not_connected"):
        said = [line for line in lines if line.startswith(f"{status}: ")]
        slugs = sorted({r["integration"] for r in found["results"] if r["status"] == status})
        assert said == ([f"{status}: {', '.join(slugs)}"] if slugs else [])
    assert len(result.content[0].text) < len(json.dumps(found))
    return found


async def test_handshake_and_tool_list(gateway: Gateway) -> None:
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None
        assert client.server_info.name == "skillgate"
        assert client.server_capabilities.tools is not None
        assert "search_skills" in (client.instructions or "")
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert sorted(tools) == sorted(GENERIC)
    hints = {
        name: (n.read_only_hint, n.destructive_hint, n.idempotent_hint, n.open_world_hint)
        for name, t in tools.items()
        if (n := t.annotations) is not None
    }
    assert hints == {  # every hint set, none left to the spec's defaults
        "list_integrations": (True, False, True, False),
        "search_skills": (True, False, True, False),
        "get_skill": (True, False, True, False),
        "run_skill": (True, False, True, True),
        "run_skill_write": (False, True, False, True),
    }
    assert all(t.title for t in tools.values())
    assert all(t.output_schema and t.output_schema["type"] == "object" for t in tools.values())
    run = tools["run_skill"]
    assert "confirm" not in run.input_schema["properties"]
    assert "confirm" in tools["run_skill_write"].input_schema["properties"]
    assert run.input_schema["required"] == ["integration", "endpoint"]
    assert run.input_schema["properties"]["params"]["type"] == "object"
    assert "no_match" in (tools["search_skills"].description or "")  # issue 26
    search = tools["search_skills"].input_schema
    assert search["required"] == ["query"]
    assert search["properties"]["limit"]["maximum"] == 50


async def test_discovery_tools_answer_what_the_http_api_answers(gateway: Gateway) -> None:
    async with mcp_client(gateway.mcp_url, gateway.keys["scoped"]) as client:
        listing = same_twice(await client.call_tool("list_integrations", {}))
        found = searched(
            await client.call_tool("search_skills", {"query": "user profile", "limit": 3})
        )
        doc = same_twice(
            await client.call_tool("get_skill", {"integration": "sample", "endpoint": "get_user"})
        )
    assert listing == http_get(gateway, "/v1/skills", "scoped")
    assert [i["slug"] for i in listing["integrations"]] == ["sample"]
    assert listing["integrations"][0]["status"] == "connected"
    assert found == http_get(gateway, "/v1/skills/search?q=user+profile&limit=3", "scoped")
    assert found["results"][0]["name"] == "get_user"
    assert "match" in found["results"][0]
    assert found["no_match"] is False
    assert doc == http_get(gateway, "/v1/skills/sample/get_user", "scoped")
    assert doc["parameters"][0]["name"] == "username"


async def test_run_skill_calls_the_upstream_with_the_stored_credential(
    gateway: Gateway, provider_server: Provider
) -> None:
    provider_server.clear()
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        result = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "octo"}},
        )
    assert result.is_error is False
    assert same_twice(result) == {"status": 200, "data": {"ok": True, "path": "/users/octo"}}
    sent = provider_server.api_requests()[-1]
    assert (sent.method, sent.path) == ("GET", "/users/octo")
    assert sent.headers["authorization"] == "Bearer good-token"


async def test_an_upstream_error_is_a_tool_error_with_the_envelope(
    gateway: Gateway, provider_server: Provider
) -> None:
    provider_server.reply("GET", "/users/ghost", Reply(404, {"message": "Not Found"}))
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        result = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "ghost"}},
        )
    assert result.is_error is True
    assert same_twice(result) == {"status": 404, "error": {"message": "Not Found"}}


async def _refusal(gateway: Gateway, key: str, slug: str, endpoint: str, params: Any) -> Any:
    async with mcp_client(gateway.mcp_url, gateway.keys[key]) as client:
        result = await client.call_tool(
            "run_skill", {"integration": slug, "endpoint": endpoint, "params": params}
        )
    assert result.is_error is True
    body = same_twice(result)
    r = httpx.post(
        f"{gateway.server.url}/v1/{slug}/{endpoint}",
        json={"params": params},
        headers={"Authorization": f"Bearer {gateway.keys[key]}"},
    )
    assert r.status_code >= 400
    http = r.json()
    # The HTTP API's error object, field for field; only the next step the message ends
    # with is the door's own (issue 23.9: MCP users are not told to run `svc`).
    assert {k: v for k, v in body.items() if k != "message"} == {
        k: v for k, v in http.items() if k != "message"
    }
    if body["message"] != http["message"]:
        mine, theirs = body["message"], http["message"]
        core = mine[: next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b)]
        assert core.endswith((". ", "? ")), (mine, theirs)
        assert "svc" not in body["message"]
    return body


async def test_not_connected_is_a_tool_error_with_the_action_url(gateway: Gateway) -> None:
    body = await _refusal(gateway, "full", "oauthy", "get_thing", {"thing_id": "t"})
    assert body["error"] == "integration_not_connected"
    assert body["action_url"].endswith("/integrations/oauthy")
    assert "connect it at the action_url" in body["message"]


async def test_refusals_carry_the_http_api_error(gateway: Gateway) -> None:
    bad = await _refusal(gateway, "full", "sample", "get_user", {"user": "x"})
    assert bad["error"] == "bad_request"
    assert "username" in bad["message"]
    unknown = await _refusal(gateway, "full", "sample", "get_usr", {})
    assert unknown["error"] == "not_found"
    assert "get_user" in unknown["message"]
    other = await _refusal(gateway, "scoped", "oauthy", "get_thing", {"thing_id": "t"})
    assert other["error"] == "scope_not_allowed"
    writes = await _refusal(gateway, "read", "sample", "create_issue",
                            {"owner": "o", "repo": "r", "title": "t"})  # fmt: skip
    assert writes["error"] == "scope_not_allowed"
    assert "read-only" in writes["message"]
    async with mcp_client(gateway.mcp_url, gateway.keys["scoped"]) as client:
        hidden = await client.call_tool("get_skill", {"integration": "oauthy", "endpoint": "x"})
    assert hidden.is_error
    assert same_twice(hidden)["error"] == "scope_not_allowed"


@pytest.mark.usefixtures("steady_clock")
async def test_rate_limit_is_a_tool_error_with_retry_after(gateway: Gateway) -> None:
    args = {"integration": "sample", "endpoint": "get_user", "params": {"username": "x"}}
    async with mcp_client(gateway.mcp_url, gateway.keys["free"]) as client:
        results = [await client.call_tool("run_skill", args) for _ in range(31)]
    assert [r.is_error for r in results] == [False] * 30 + [True]
    limited = same_twice(results[-1])
    assert limited["error"] == "rate_limited"
    assert 1 <= limited["retry_after"] <= 60


async def test_unknown_tools_and_malformed_arguments_are_jsonrpc_errors(gateway: Gateway) -> None:
    calls: list[tuple[str, dict[str, Any], str]] = [
        ("delete_everything", {}, "Unknown tool 'delete_everything'"),
        ("sample__get_user", {}, "Unknown tool"),  # per-endpoint tools need ?tools=endpoints
        ("run_skill", {"integration": 7, "endpoint": "get_user"}, "integration: Input should"),
        ("run_skill", {"integration": "sample"}, "endpoint: Field required"),
        ("run_skill", {"integration": "sample", "endpoint": "get_user", "params": "x"}, "params"),
        ("search_skills", {"query": "x", "limit": "ten"}, "limit: Input should be an integer"),
        ("search_skills", {"query": "x", "limit": 500}, "limit: Input should be between"),
        ("get_skill", {"integration": "sample", "endpoint": "get_user", "x": 1}, "Unknown arg"),
    ]
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        for name, args, message in calls:
            with pytest.raises(MCPError) as caught:
                await client.call_tool(name, args)
            assert caught.value.code == INVALID_PARAMS, name
            assert message in caught.value.message, (name, caught.value.message)


async def test_the_2026_revision_search_get_run(gateway: Gateway) -> None:
    async with mcp_client(gateway.mcp_url, gateway.keys["full"], mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        found = await client.call_tool(
            "search_skills", {"query": "profile", "integration": "sample"}
        )
        hit = searched(found)["results"][0]
        doc = await client.call_tool(
            "get_skill", {"integration": "sample", "endpoint": hit["name"]}
        )
        run = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": hit["name"], "params": {"username": "a"}},
        )
    # 2026-07-28 carries the JSON once: structured content, and one short line as text
    assert doc.structured_content["name"] == "get_user"  # type: ignore[index]
    assert run.structured_content == {"status": 200, "data": {"ok": True, "path": "/users/a"}}
    assert len(run.content) == 1
    said = run.content[0].text  # type: ignore[union-attr]
    size = len(json.dumps(run.structured_content, separators=(",", ":")))
    assert said == f"The answer is in structuredContent (status 200, {size} bytes of JSON)."
    assert json.dumps(run.structured_content) not in said


async def test_one_tool_per_endpoint_for_a_small_scope(
    gateway: Gateway, provider_server: Provider
) -> None:
    url = gateway.mcp_url + "?tools=endpoints"
    async with mcp_client(url, gateway.keys["read"]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        result = await client.call_tool("sample__get_user", {"username": "per"})
        refused = await client.call_tool(
            "sample__create_issue", {"owner": "o", "repo": "r", "title": "t"}
        )
    # a read-only key is offered no run_skill_write
    assert sorted(tools) == sorted([*READS, "sample__get_user", "sample__list_issues"])
    schema = tools["sample__list_issues"].input_schema
    assert schema["required"] == ["owner", "repo"]
    assert schema["properties"]["state"]["enum"] == ["open", "closed", "all"]
    assert schema["properties"]["labels"] == {
        "type": "array", "items": {"type": "string"},
        "description": "Only issues with all these labels.",
    }  # fmt: skip
    assert tools["sample__get_user"].annotations.read_only_hint is True  # type: ignore[union-attr]
    assert same_twice(result) == {"status": 200, "data": {"ok": True, "path": "/users/per"}}
    assert refused.is_error
    assert same_twice(refused)["error"] == "scope_not_allowed"
    async with mcp_client(url, gateway.keys["full"]) as client:
        with pytest.raises(MCPError) as caught:
            await client.list_tools()
    assert caught.value.code == INVALID_REQUEST
    assert "at most 100 endpoint tools" in caught.value.message


async def test_destructive_calls_are_previewed_and_confirmed(
    gateway: Gateway, provider_server: Provider
) -> None:
    """run_skill's dry_run and confirm, and an endpoint tool's _confirm: the same tokens
    as the HTTP API; nothing reaches the upstream before the confirmed call."""
    provider_server.reply("DELETE", "/repos/o/r/issues/9", Reply(204))
    provider_server.clear()
    args = {
        "integration": "sample",
        "endpoint": "delete_issue",
        "params": {"owner": "o", "repo": "r", "number": 9},
    }
    url = gateway.mcp_url + "?tools=endpoints"
    async with mcp_client(url, gateway.keys["scoped"]) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        dry = await client.call_tool("run_skill_write", {**args, "dry_run": True})
        asked = await client.call_tool("run_skill_write", args)
        sent_before = len(provider_server.api_requests())
        done = await client.call_tool(
            "run_skill_write", {**args, "confirm": asked.structured_content["confirm"]}
        )  # type: ignore[index]
        again = await client.call_tool("sample__delete_issue", args["params"])  # type: ignore[arg-type]
        token = again.structured_content["confirm"]  # type: ignore[index]
        tool_done = await client.call_tool(
            "sample__delete_issue", {**args["params"], "_confirm": token}
        )  # type: ignore[dict-item]
    assert tools["sample__delete_issue"].annotations.destructive_hint is True  # type: ignore[union-attr]
    assert tools["sample__create_issue"].annotations.destructive_hint is False  # type: ignore[union-attr]
    assert "_confirm" in tools["sample__delete_issue"].input_schema["properties"]
    assert "dry_run" in tools["run_skill_write"].input_schema["properties"]
    assert dry.is_error is False
    preview = same_twice(dry)
    assert preview["dry_run"] is True
    assert preview["request"]["method"] == "DELETE"
    assert preview["confirmation_required"] is True
    assert asked.is_error is True
    body = same_twice(asked)
    assert body["error"] == "confirmation_required"
    assert body["preview"] == preview["request"]
    assert '"confirm"' in body["message"]
    assert sent_before == 0  # neither the dry run nor the unconfirmed call sent anything
    assert done.is_error is False
    assert same_twice(done) == {"status": 204, "data": None}
    assert again.is_error is True
    assert same_twice(tool_done)["status"] == 204
    deletes = [r for r in provider_server.api_requests() if r.method == "DELETE"]
    assert len(deletes) == 2  # one per confirmed call
