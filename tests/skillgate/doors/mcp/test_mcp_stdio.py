"""`svc mcp` driven over stdio by the official MCP client: a relay to the gateway's
/mcp with the project's key; and `svc mcp config`'s snippets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp_types import PROTOCOL_VERSION_META_KEY as PROTOCOL_KEY
from mcp_types import URL_ELICITATION_REQUIRED, DiscoverResult

from skillgate_cli.commands.mcp import header_value, message_headers
from tests.process import BIN, clean_env, run_cli
from tests.skillgate.doors.mcp.conftest import Gateway, operator


def _svc_mcp(
    gateway: Gateway, cwd: Path, key: str | None, mode: str = "legacy", elicit: Any = None
) -> Client:
    if key is not None:
        (cwd / ".env").write_text(f"SVC_API_KEY={key}\n")
    env = clean_env(SVC_BASE_URL=gateway.server.url)
    params = StdioServerParameters(command=str(BIN / "svc"), args=["mcp"], env=env, cwd=cwd)
    return Client(params, mode=mode, elicitation_callback=elicit)  # type: ignore[arg-type]


async def test_svc_mcp_relays_search_get_run(gateway: Gateway, tmp_path: Path) -> None:
    async with _svc_mcp(gateway, tmp_path, gateway.keys["scoped"]) as client:
        assert client.server_info is not None
        assert client.server_info.name == "skillgate"
        tools = [t.name for t in (await client.list_tools()).tools]
        found = await client.call_tool("search_skills", {"query": "user profile"})
        doc = await client.call_tool("get_skill", {"integration": "sample", "endpoint": "get_user"})
        run = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "stdio"}},
        )
        refused = await client.call_tool(
            "run_skill", {"integration": "oauthy", "endpoint": "get_thing", "params": {}}
        )
        with pytest.raises(MCPError) as caught:
            await client.call_tool("nope", {})
    assert tools == [
        "list_integrations",
        "search_skills",
        "get_skill",
        "run_skill",
        "run_skill_write",
    ]
    assert found.structured_content["results"][0]["name"] == "get_user"  # type: ignore[index]
    assert doc.structured_content["integration"] == "sample"  # type: ignore[index]
    assert run.structured_content == {"status": 200, "data": {"ok": True, "path": "/users/stdio"}}
    assert refused.is_error
    assert refused.structured_content["error"] == "scope_not_allowed"
    assert "Unknown tool" in caught.value.message


async def test_svc_mcp_carries_revision_2026_07_28(gateway: Gateway, tmp_path: Path) -> None:
    """A client pinned to 2026-07-28 (no initialize: `server/discover`, then every request
    with its version in `params._meta`) through the relay: the gateway's door checks that
    `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` match each body."""
    async with _svc_mcp(gateway, tmp_path, gateway.keys["scoped"], "auto") as probing:
        assert probing.protocol_version == "2026-07-28"  # the probe answered: no fallback
        assert probing.server_info is not None
        assert probing.server_info.name == "skillgate"
    async with _svc_mcp(gateway, tmp_path, gateway.keys["scoped"], "2026-07-28") as client:
        assert client.protocol_version == "2026-07-28"
        discovered = DiscoverResult.model_validate(await client.session.send_discover("2026-07-28"))
        tools = [t.name for t in (await client.list_tools()).tools]
        run = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "v2026"}},
        )
        found = await client.call_tool("search_skills", {"query": "user profile"})
        with pytest.raises(MCPError) as caught:  # Mcp-Name base64-encoded, matched, unknown
            await client.call_tool("outil-été ", {})
    assert "2026-07-28" in discovered.supported_versions
    assert "search_skills" in (discovered.instructions or "")
    assert tools == [
        "list_integrations",
        "search_skills",
        "get_skill",
        "run_skill",
        "run_skill_write",
    ]
    assert run.structured_content == {"status": 200, "data": {"ok": True, "path": "/users/v2026"}}
    assert found.structured_content["results"][0]["name"] == "get_user"  # type: ignore[index]
    assert "Unknown tool" in caught.value.message


def test_the_relay_headers_follow_the_message() -> None:
    modern = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "run_skill", "_meta": {PROTOCOL_KEY: "2026-07-28"}},
    }
    assert message_headers(modern, "2025-11-25") == {
        "MCP-Protocol-Version": "2026-07-28",  # the message's own version wins
        "Mcp-Method": "tools/call",
        "Mcp-Name": "run_skill",
    }
    legacy = {"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "é"}}
    assert message_headers(legacy, "2025-11-25") == {
        "MCP-Protocol-Version": "2025-11-25",
        "Mcp-Method": "resources/read",
        "Mcp-Name": "=?base64?w6k=?=",
    }
    assert message_headers({"jsonrpc": "2.0", "id": 1, "result": {}}, None) == {}
    assert message_headers(None, None) == {}
    assert header_value(" x") == "=?base64?IHg=?="
    assert header_value("=?base64?abc?=") == "=?base64?PT9iYXNlNjQ/YWJjPz0=?="


async def test_svc_mcp_without_a_valid_key_says_to_log_in(gateway: Gateway, tmp_path: Path) -> None:
    with pytest.raises(BaseExceptionGroup) as caught:  # the handshake fails, in a task group
        async with _svc_mcp(gateway, tmp_path, "sk_not_a_real_key") as client:
            await client.list_tools()
    error = caught.value
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, MCPError)
    assert "svc login" in error.message
    assert error.data == {"error": "unauthorized", "status": 401}


@pytest.mark.parametrize("client", ["claude", "cursor", "vscode", "windsurf"])
def test_svc_mcp_config_prints_both_forms(tmp_path: Path, client: str) -> None:
    env = clean_env(SVC_BASE_URL="https://gw.example.com")
    both = run_cli("svc", "mcp", "config", "--client", client, cwd=tmp_path, env=env)
    assert both.returncode == 0, both.stderr
    assert "# HTTP" in both.stdout
    assert "# STDIO" in both.stdout
    http = json.loads(run_cli("svc", "mcp", "config", "--client", client, "--form", "http",
                              cwd=tmp_path, env=env).stdout)  # fmt: skip
    stdio = json.loads(run_cli("svc", "mcp", "config", "--client", client, "--form", "stdio",
                               cwd=tmp_path, env=env).stdout)  # fmt: skip
    servers = http.get("mcpServers") or http["servers"]
    server = servers["skillgate"]
    assert (server.get("url") or server.get("serverUrl")) == "https://gw.example.com/mcp"
    assert server["headers"]["Authorization"].startswith("Bearer ${")  # never the key itself
    local = (stdio.get("mcpServers") or stdio["servers"])["skillgate"]
    assert (local["command"], local["args"]) == ("svc", ["mcp"])


@pytest.mark.parametrize("client", ["claude", "cursor", "windsurf"])
def test_svc_mcp_config_says_the_http_form_needs_the_key_exported(
    tmp_path: Path, client: str
) -> None:
    """`svc login` writes SVC_API_KEY to .env only; the HTTP snippet interpolates it from
    the client's environment: the output says so (issue 23.9)."""
    env = clean_env(SVC_BASE_URL="https://gw.example.com")
    both = run_cli("svc", "mcp", "config", "--client", client, cwd=tmp_path, env=env)
    http_block = both.stdout.split("# STDIO")[0]
    assert "`svc login` writes it to .env only: export it first" in http_block
    assert "stdio form, which reads .env" in http_block
    alone = run_cli("svc", "mcp", "config", "--client", client, "--form", "http",
                    cwd=tmp_path, env=env)  # fmt: skip
    json.loads(alone.stdout)  # still the JSON alone
    assert "`svc login` writes it to .env only" in alone.stderr
    vscode = run_cli("svc", "mcp", "config", "--client", "vscode", cwd=tmp_path, env=env)
    assert ".env only" not in vscode.stdout  # VS Code asks for the key instead


async def test_svc_mcp_keeps_the_session_that_asks_by_url(gateway: Gateway, tmp_path: Path) -> None:
    """2025-11-25 over stdio: a client declaring URL elicitation is given a session id at
    initialize, which the relay sends back, so a call to oauthy (not connected) answers
    -32042 with the connect link; without the capability, the tool error."""

    async def never(ctx: Any, params: Any) -> Any:
        raise AssertionError("no elicitation/create on 2025-11-25 here")

    email = "stdio-asked@example.com"  # nothing connected
    made = operator(
        gateway.cwd, gateway.env,
        ["users", "create", "--email", email, "--password", "password123", "--plan", "pro"],
        ["keys", "create", "--email", email, "--name", "k", "--scopes", "*"],
    )  # fmt: skip
    key = json.loads(made[-1])["full_key"]
    args = {"integration": "oauthy", "endpoint": "get_thing", "params": {"thing_id": "s"}}
    async with _svc_mcp(gateway, tmp_path, key, elicit=never) as client:
        with pytest.raises(MCPError) as asked:
            await client.call_tool("run_skill", args)
    async with _svc_mcp(gateway, tmp_path, key) as plain:
        refused = await plain.call_tool("run_skill", args)
    assert asked.value.error.code == URL_ELICITATION_REQUIRED
    link = asked.value.error.data["elicitations"][0]  # type: ignore[index]
    assert link["url"].endswith("/integrations/oauthy")
    assert refused.structured_content["error"] == "integration_not_connected"  # type: ignore[index]
