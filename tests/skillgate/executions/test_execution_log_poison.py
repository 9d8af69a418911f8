"""One caller cannot stop the execution log (issue 22, item 1).

The attack: MCP `run_skill` calls whose `endpoint` holds a NUL, from a read-only key.
PostgreSQL refuses such a row; the writer used to put the batch back and retry it
forever, so no later row of any user was stored. Now the door refuses the argument
(a tool error naming it, nothing reaches the log), and a row the database refuses
anyway is set aside in the dead-letter file while the rows around it are stored.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from sqlalchemy import func, select

from skillgate.executions.models import Execution
from tests.conftest import Harness, bearer
from tests.upstream import Provider

ATTACKS = 10
LOAD = 30
_MCP_HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-06-18",
}


async def _mcp_call(harness: Harness, key: str, name: str, arguments: dict[str, Any]) -> Any:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    r = await harness.client.post(
        "/mcp", content=json.dumps(message), headers={**_MCP_HEADERS, **bearer(key)}
    )
    assert r.status_code == 200, r.text
    return r.json()


async def _stored(harness: Harness, user_id: str) -> int:
    await harness.executions.flush()
    async with harness.sessionmaker() as s:
        count = await s.scalar(
            select(func.count()).select_from(Execution).where(Execution.user_id == user_id)
        )
    return int(count or 0)


async def test_nul_in_an_mcp_endpoint_argument_stops_no_ones_log(
    harness: Harness, provider: Provider
) -> None:
    """The exact request of the attack run, then load from another user: all stored."""
    await harness.user("mallory@example.com")
    read_only, _ = await harness.key("mallory@example.com", scopes=["sample:read"])
    answers = [
        await _mcp_call(
            harness,
            read_only,
            "run_skill",
            {"integration": "sample", "endpoint": f"get_user\x00{i}", "params": {}},
        )
        for i in range(ATTACKS)
    ]

    victim = await harness.user("victim@example.com")
    key, _ = await harness.key("victim@example.com")
    await harness.connect_token(key)
    for _ in range(LOAD):
        r = await harness.run(key, "sample", "get_user", username="octo")
        assert r.status_code == 200, r.text
    assert await _stored(harness, victim.id) == LOAD

    for answer in answers:  # refused at the door, as a tool error naming the argument
        result = answer["result"]
        assert result["isError"] is True, answer
        error = result["structuredContent"]
        assert error["error"] == "bad_request", error
        assert error["message"].startswith("endpoint: must not contain control"), error


async def _refusal(answer: Any) -> str:
    result = answer["result"]
    assert result["isError"] is True, answer
    error = result["structuredContent"]
    assert error["error"] == "bad_request", error
    return str(error["message"])


async def test_every_door_refuses_control_characters_naming_the_argument(
    harness: Harness,
) -> None:
    """The same check (kit.text) on each door: MCP tool arguments and names (on the fast
    path and through the SDK), the agent door's path parameters. Nothing is logged."""
    user = await harness.user("mallory@example.com")
    key, _ = await harness.key("mallory@example.com", scopes=["sample:read"])
    calls: list[tuple[str, dict[str, Any], str]] = [
        ("run_skill", {"integration": "sam\x01ple", "endpoint": "get_user"}, "integration"),
        ("run_skill", {"integration": "sample", "endpoint": "get\nuser"}, "endpoint"),
        ("get_skill", {"integration": "sample", "endpoint": "get\x7fuser"}, "endpoint"),
        ("search_skills", {"query": "find\x00a user"}, "query"),
        ("search_skills", {"query": "a user", "integration": "sample\x9f"}, "integration"),
        ("sample__get\x00user", {"username": "octo"}, "name"),
    ]
    for name, arguments, field in calls:
        message = await _refusal(await _mcp_call(harness, key, name, arguments))
        assert message.startswith(f"{field}: must not contain control characters"), message
    # through the SDK (a `_meta` in the call takes the door off its fast path)
    sdk = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "run_skill",
            "arguments": {"integration": "sample", "endpoint": "get_user\x00"},
            "_meta": {"progressToken": 1},
        },
    }
    r = await harness.client.post(
        "/mcp", content=orjson.dumps(sdk), headers={**_MCP_HEADERS, **bearer(key)}
    )
    assert r.status_code == 200, r.text
    assert (await _refusal(r.json())).startswith("endpoint: must not contain control")

    for path in ("/v1/sample/get%01user", "/v1/skills/sample/get%0Auser"):
        method = harness.client.post if path.count("/") == 3 else harness.client.get
        r = await method(
            path, headers=bearer(key), **({"json": {}} if "skills" not in path else {})
        )
        assert r.status_code == 400, r.text
        assert r.json()["message"].startswith("endpoint: must not contain control"), r.text
    assert await _stored(harness, user.id) == 0  # refused at the doors: nothing logged
