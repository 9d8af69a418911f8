"""The tool surface hosted clients trust (issue 27 items 2 and 3), through the official
MCP client against the real server: reads and writes as separate tools, the output
budget, the cacheable and filterable tool list, and a not-connected integration
connected on demand by URL elicitation (2026-07-28's input-required result, 2025-11-25's
-32042 error), then the retried call running."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import mcp_types as types
import pytest
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError, UrlElicitationRequiredError
from mcp_types import URL_ELICITATION_REQUIRED

from tests.skillgate.doors.mcp.conftest import Gateway, mcp_client, operator
from tests.upstream import Provider, Reply

BUDGET = 65_536  # tools.ANSWER_BUDGET


def _user(gateway: Gateway, email: str) -> str:
    """A new user (nothing connected) and a `*` key of theirs."""
    made = operator(
        gateway.cwd,
        gateway.env,
        ["users", "create", "--email", email, "--password", "password123", "--plan", "unlimited"],
        ["keys", "create", "--email", email, "--name", "k", "--scopes", "*"],
    )
    return str(json.loads(made[-1])["full_key"])


async def test_run_skill_refuses_a_write_and_names_run_skill_write(
    gateway: Gateway, provider_server: Provider
) -> None:
    provider_server.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    provider_server.clear()
    args = {
        "integration": "sample",
        "endpoint": "create_issue",
        "params": {"owner": "o", "repo": "r", "title": "t"},
    }
    async with mcp_client(gateway.mcp_url, gateway.keys["scoped"]) as client:
        refused = await client.call_tool("run_skill", args)
        sent_before = len(provider_server.api_requests())
        done = await client.call_tool("run_skill_write", args)
        read = await client.call_tool(
            "run_skill_write",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "w"}},
        )
    assert refused.is_error is True
    body = json.loads(refused.content[0].text)  # type: ignore[union-attr]
    assert body["error"] == "bad_request"
    assert "run_skill_write" in body["message"]
    assert "create_issue" in body["message"]
    assert sent_before == 0  # the refused call sent nothing
    assert done.is_error is False
    assert done.structured_content == {"status": 201, "data": {"number": 7}}
    assert read.structured_content["status"] == 200  # type: ignore[index]
    assert [r.method for r in provider_server.api_requests()] == ["POST", "GET"]


async def test_a_large_answer_is_cut_to_the_output_budget(
    gateway: Gateway, provider_server: Provider
) -> None:
    issues = [{"number": n, "title": "x" * 200} for n in range(1000)]  # ~215 KB as JSON
    provider_server.reply("GET", "/repos/big/r/issues", Reply(200, issues))
    args = {"integration": "sample", "endpoint": "list_issues"}
    params = {"owner": "big", "repo": "r"}
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        cut = await client.call_tool("run_skill", {**args, "params": params})
        chosen = await client.call_tool(
            "run_skill", {**args, "params": params, "max_bytes": 300_000}
        )
    text = cut.content[0].text  # type: ignore[union-attr]
    assert len(text.encode()) <= BUDGET
    body = json.loads(text)
    assert body == cut.structured_content
    assert body["truncated"] is True
    assert body["data"] == issues[: len(body["data"])]
    assert body["omitted"] == len(issues) - len(body["data"])
    assert len(body["data"]) > 200  # the budget is used, not wasted
    # the caller's own max_bytes is theirs; the HTTP API answers in full
    assert chosen.structured_content["data"] == issues  # type: ignore[index]
    r = httpx.post(
        f"{gateway.server.url}/v1/sample/list_issues",
        json={"params": params},
        headers={"Authorization": f"Bearer {gateway.keys['full']}"},
    )
    assert r.json()["data"] == issues


async def test_the_tool_list_is_cacheable_and_filterable(gateway: Gateway) -> None:
    async with mcp_client(gateway.mcp_url, gateway.keys["full"], mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        listed = await client.session.list_tools()
    assert listed.ttl_ms == 300_000
    assert listed.cache_scope == "private"
    base = gateway.mcp_url + "?tools=endpoints"
    async with mcp_client(base + "&category=issues", gateway.keys["full"]) as client:
        issues_anywhere = [t.name for t in (await client.list_tools()).tools]
    both = base + "&integration=sample&category=issues"  # the two filters intersect
    async with mcp_client(both, gateway.keys["full"]) as client:
        by_category = {t.name: t for t in (await client.list_tools()).tools}
    async with mcp_client(base + "&integration=sample,oauthy", gateway.keys["full"]) as c:
        by_slug = [t.name for t in (await c.list_tools()).tools]
    issues = ["sample__create_issue", "sample__delete_issue", "sample__list_issues"]
    assert sorted(n for n in by_category if "__" in n) == issues
    assert set(issues) < set(issues_anywhere)  # github's issues too, under the cap of 100
    assert len(issues_anywhere) < 100 + 5
    assert by_category["sample__list_issues"].output_schema is not None
    assert "sample__get_user" in by_slug
    assert "oauthy__get_thing" in by_slug
    assert all(n.split("__")[0] in ("sample", "oauthy") for n in by_slug if "__" in n)


async def test_not_connected_asks_by_url_and_the_retried_call_runs(
    gateway: Gateway, provider_server: Provider
) -> None:
    """2026-07-28, a client declaring URL elicitation: the call to oauthy (not connected)
    answers input_required with the connect link; the user connects (the operator command
    stands in for the dashboard's OAuth flow, tested elsewhere) and accepts; the client
    retries and the call runs. A client without elicitation gets the tool error."""
    key = _user(gateway, "asked@example.com")
    provider_server.reply("GET", "/v2/things/t9", Reply(200, {"id": "t9"}))
    asked: list[types.ElicitRequestParams] = []

    async def connect(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        asked.append(params)
        link = ["connections", "set", "--email", "asked@example.com", "--integration", "oauthy"]
        await asyncio.to_thread(
            operator, gateway.cwd, gateway.env, [*link, "--access-token", "good-token"]
        )
        return types.ElicitResult(action="accept")

    args = {"integration": "oauthy", "endpoint": "get_thing", "params": {"thing_id": "t9"}}
    async with mcp_client(gateway.mcp_url, gateway.keys["full"], mode="auto") as plain:
        refused = await plain.call_tool("run_skill", args)  # no elicitation declared
    async with mcp_client(gateway.mcp_url, key, mode="auto", elicit=connect) as client:
        assert client.protocol_version == "2026-07-28"
        done = await client.call_tool("run_skill", args)
    assert refused.is_error is True
    assert refused.structured_content["error"] == "integration_not_connected"  # type: ignore[index]
    assert len(asked) == 1
    link = asked[0]
    assert isinstance(link, types.ElicitRequestURLParams)
    assert link.mode == "url"
    assert link.url.endswith("/integrations/oauthy")
    assert "connect" in link.message
    assert done.is_error is False
    assert done.structured_content == {"status": 200, "data": {"id": "t9"}}
    sent = provider_server.api_requests()[-1]
    assert (sent.path, sent.headers["authorization"]) == ("/v2/things/t9", "Bearer good-token")


async def test_a_declined_connection_answers_the_tool_error(gateway: Gateway) -> None:
    """The user declines (or never connects): the retry answers the tool error with the
    action_url instead of asking again."""
    key = _user(gateway, "declines@example.com")
    asked = 0

    async def decline(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        nonlocal asked
        asked += 1
        return types.ElicitResult(action="decline")

    args = {"integration": "oauthy", "endpoint": "get_thing", "params": {"thing_id": "t"}}
    async with mcp_client(gateway.mcp_url, key, mode="auto", elicit=decline) as client:
        result = await client.call_tool("run_skill", args)
    assert asked == 1
    assert result.is_error is True
    assert result.structured_content["error"] == "integration_not_connected"  # type: ignore[index]
    assert result.structured_content["action_url"].endswith("/integrations/oauthy")  # type: ignore[index]


async def test_a_2025_11_25_client_declaring_url_elicitation_gets_the_link_as_32042(
    gateway: Gateway, provider_server: Provider
) -> None:
    """2025-11-25 (the handshake): a client that declared URL elicitation at initialize
    (the SDK client does when given an elicitation callback) gets the JSON-RPC error
    -32042 carrying the connect link; the user connects; the client's retry runs. A
    client that declared none gets the tool result with action_url, as before."""
    key = _user(gateway, "handshake@example.com")
    provider_server.reply("GET", "/v2/things/h1", Reply(200, {"id": "h1"}))

    async def never(ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        raise AssertionError("a 2025-11-25 server sends no elicitation/create here")

    args = {"integration": "oauthy", "endpoint": "get_thing", "params": {"thing_id": "h1"}}
    async with mcp_client(gateway.mcp_url, key) as plain:
        assert plain.protocol_version == "2025-11-25"
        refused = await plain.call_tool("run_skill", args)  # no elicitation declared
    async with mcp_client(gateway.mcp_url, key, elicit=never) as client:
        assert client.protocol_version == "2025-11-25"
        with pytest.raises(MCPError) as raised:
            await client.call_tool("run_skill", args)
        link = ["connections", "set", "--email", "handshake@example.com", "--integration"]
        await asyncio.to_thread(
            operator, gateway.cwd, gateway.env, [*link, "oauthy", "--access-token", "good-token"]
        )
        done = await client.call_tool("run_skill", args)
    assert refused.is_error is True
    assert refused.structured_content["error"] == "integration_not_connected"  # type: ignore[index]
    assert refused.structured_content["action_url"].endswith("/integrations/oauthy")  # type: ignore[index]
    assert raised.value.error.code == URL_ELICITATION_REQUIRED
    asked = UrlElicitationRequiredError.from_error(raised.value.error).elicitations
    assert len(asked) == 1
    assert asked[0].mode == "url"
    assert asked[0].url == refused.structured_content["action_url"]  # type: ignore[index]
    assert asked[0].elicitation_id
    assert "not connected" in asked[0].message
    assert done.is_error is False
    assert done.structured_content == {"status": 200, "data": {"id": "h1"}}
    sent = provider_server.api_requests()[-1]
    assert (sent.path, sent.headers["authorization"]) == ("/v2/things/h1", "Bearer good-token")


async def test_a_session_id_counts_only_for_the_credential_that_initialized(
    gateway: Gateway,
) -> None:
    """The session id a client got at initialize (URL elicitation declared) declares
    nothing when another key sends it, or when it is altered: those calls get the tool
    result with action_url. Only a client that declared URL elicitation gets an id."""
    mine, theirs = _user(gateway, "sess-a@example.com"), _user(gateway, "sess-b@example.com")
    hello = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "clientInfo": {"name": "t", "version": "1"},
                   "capabilities": {"elicitation": {"url": {}}}},
    }  # fmt: skip
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "run_skill", "arguments": {"integration": "oauthy", "endpoint": "get_thing",
                                           "params": {"thing_id": "x"}}}}  # fmt: skip
    base = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}

    async with httpx.AsyncClient(timeout=30) as http:

        async def post(key: str, body: dict[str, Any], session: str | None = None) -> Any:
            headers = {**base, "Authorization": f"Bearer {key}"}
            if session is not None:
                headers["Mcp-Session-Id"] = session
            return await http.post(gateway.mcp_url, json=body, headers=headers)

        started = await post(mine, hello)
        session = started.headers["mcp-session-id"]
        formless = {**hello, "params": {**hello["params"], "capabilities": {"elicitation": {}}}}
        no_id = await post(mine, formless)
        own = (await post(mine, call, session)).json()  # the door's own fast path
        via_sdk = {**call, "params": {**call["params"], "_meta": {"progressToken": 5}}}
        own_sdk = (await post(mine, via_sdk, session)).json()  # through the SDK's handler
        other = (await post(theirs, call, session)).json()
        altered = (await post(mine, call, session.replace(".u.", ".v."))).json()
    assert started.status_code == 200
    assert "mcp-session-id" not in no_id.headers
    assert own["error"]["code"] == URL_ELICITATION_REQUIRED
    assert own_sdk["error"]["code"] == URL_ELICITATION_REQUIRED
    assert own_sdk["error"]["data"]["elicitations"][0]["url"].endswith("/integrations/oauthy")
    for answer in (other, altered):
        assert answer["result"]["isError"] is True
        assert answer["result"]["structuredContent"]["error"] == "integration_not_connected"
