"""The MCP door through the official MCP Python client, over real HTTP, against a real
server process: the handshake, the tool list, each tool, each refusal."""

from __future__ import annotations

import time

from tests.skillgate.mcp.conftest import Gateway, mcp_client


async def test_initialize_and_list_tools(gateway: Gateway) -> None:
    t = time.perf_counter()
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as full:
        print(full.protocol_version, full.server_info, full.server_capabilities, full.instructions)
        tools = await full.list_tools()
        print(tools)
        r = await full.call_tool("run_skill", {"integration": "sample", "endpoint": "get_user", "params": {"username": "x"}})
        print(r)
        r = await full.call_tool("run_skill", {"integration": "oauthy", "endpoint": "get_thing", "params": {"username": "x"}})
        print(r)
    print(time.perf_counter() - t)
    async with mcp_client(gateway.mcp_url, gateway.keys["full"], mode="auto") as full:
        print(full.protocol_version, full.server_info, full.server_capabilities, full.instructions)
        r = await full.call_tool("search_skills", {"query": "user"})
        print(r)
