"""Two server processes on one PostgreSQL database and one Redis: the MCP door keeps
no session, so one client alternating between them completes search -> get -> run;
a 2025-11-25 client that declared URL elicitation at initialize is answered -32042
whichever instance takes its call (its session id carries what it declared)."""

from __future__ import annotations

import json
import secrets
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import URL_ELICITATION_REQUIRED, ErrorData

from tests.conftest import PG_URL, REDIS_URL
from tests.process import serve
from tests.skillgate.doors.mcp.conftest import operator, server_env
from tests.upstream import Provider

pytestmark = pytest.mark.skipif(
    not (PG_URL and REDIS_URL), reason="needs SKILLGATE_TEST_DATABASE_URL and _REDIS_URL"
)


async def test_one_client_alternating_between_two_instances(
    tmp_path: Path, provider_server: Provider, pg_database: str | None
) -> None:
    assert pg_database is not None
    env = server_env(provider_server, SKILLGATE_DATABASE_URL=pg_database,
                     SKILLGATE_REDIS_URL=str(REDIS_URL))  # fmt: skip
    email = f"two{secrets.token_hex(3)}@example.com"
    out = operator(
        tmp_path, env,
        ["users", "create", "--email", email, "--password", "password123", "--plan", "pro"],
        ["connections", "set", "--email", email, "--integration", "sample",
         "--access-token", "good-token"],
        ["keys", "create", "--email", email, "--name", "k", "--scopes", "sample"],
        ["keys", "create", "--email", email, "--name", "all", "--scopes", "*"],
    )  # fmt: skip
    key, every = (json.loads(o)["full_key"] for o in out[-2:])
    with ExitStack() as stack:
        servers = [stack.enter_context(serve(tmp_path, env=env)) for _ in range(2)]
        ports = [int(s.url.rsplit(":", 1)[1]) for s in servers]
        sent: list[int] = []

        async def alternate(request: httpx2.Request) -> None:
            """Each POST of the official client to the other instance than the last."""
            port = ports[len(sent) % 2]
            sent.append(port)
            request.url = request.url.copy_with(port=port)

        auth = {"Authorization": f"Bearer {key}"}
        async with (
            httpx2.AsyncClient(headers=auth, timeout=30,
                               event_hooks={"request": [alternate]}) as http,
            Client(streamable_http_client(servers[0].url + "/mcp", http_client=http),
                   mode="legacy") as client,
        ):  # fmt: skip
            found = await client.call_tool("search_skills", {"query": "user profile"})
            hit = found.structured_content["results"][0]  # type: ignore[index]
            doc = await client.call_tool("get_skill", {"integration": "sample",
                                                       "endpoint": hit["name"]})  # fmt: skip
            run = await client.call_tool(
                "run_skill",
                {"integration": "sample", "endpoint": hit["name"], "params": {"username": "two"}},
            )
        asked = await _not_connected_asked(servers[0].url + "/mcp", every, alternate)
    assert set(sent) == set(ports)
    assert len(sent) >= 4
    assert hit["name"] == "get_user"
    assert doc.structured_content["name"] == "get_user"  # type: ignore[index]
    assert run.structured_content == {"status": 200, "data": {"ok": True, "path": "/users/two"}}
    assert not doc.is_error
    assert not run.is_error
    assert asked.code == URL_ELICITATION_REQUIRED
    assert asked.data["elicitations"][0]["url"].endswith("/integrations/oauthy")  # type: ignore[index]


async def _not_connected_asked(url: str, key: str, alternate: Any) -> ErrorData:
    """The error of a call to oauthy (not connected) by a client declaring URL
    elicitation, each of its requests sent to the other instance than the last."""

    async def never(ctx: Any, params: Any) -> Any:
        raise AssertionError("no elicitation/create on 2025-11-25 here")

    auth = {"Authorization": f"Bearer {key}"}
    args = {"integration": "oauthy", "endpoint": "get_thing", "params": {"thing_id": "x"}}
    async with (
        httpx2.AsyncClient(headers=auth, timeout=30, event_hooks={"request": [alternate]}) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy",
               elicitation_callback=never) as client,
    ):  # fmt: skip
        with pytest.raises(MCPError) as raised:
            await client.call_tool("run_skill", args)
    return raised.value.error
