"""run_skill's paginate, fields and max_bytes through the MCP door: the same executor,
the same shaped envelope as the HTTP API."""

from __future__ import annotations

import json

import httpx

from tests.skillgate.doors.mcp.conftest import Gateway, mcp_client
from tests.upstream import Provider, Recorded, Reply

ISSUES = [
    {"number": n, "title": f"Issue {n}", "user": {"login": "ann", "id": n}} for n in range(40)
]


async def test_run_skill_paginates_projects_and_bounds(
    gateway: Gateway, provider_server: Provider
) -> None:
    def issues(rec: Recorded) -> Reply:  # the first `per_page` issues (all when not given)
        return Reply(200, ISSUES[: int(dict(rec.query).get("per_page", len(ISSUES)))])

    provider_server.reply("GET", "/repos/o/r/issues", issues)
    provider_server.clear()
    args = {
        "integration": "sample",
        "endpoint": "list_issues",
        "params": {"owner": "o", "repo": "r"},
        "paginate": {"max_items": 5},
        "fields": ["number", "user.login"],
    }
    async with mcp_client(gateway.mcp_url, gateway.keys["full"]) as client:
        paged = await client.call_tool("run_skill", args)
        bounded = await client.call_tool(
            "run_skill", {**args, "paginate": None, "fields": None, "max_bytes": 1024}
        )
    assert paged.is_error is False
    assert json.loads(paged.content[0].text) == {
        "status": 200,
        "data": [{"number": n, "user": {"login": "ann"}} for n in range(5)],
        # max_items stopped it after the first page: the params to continue with
        "pagination": {
            "pages": 1,
            "items": 5,
            "complete": False,
            "next": {"per_page": 5, "page": 2},
        },
    }
    sent = provider_server.api_requests()
    assert [dict(r.query) for r in sent] == [{"per_page": "5"}, {}]
    body = json.loads(bounded.content[0].text)
    assert body["truncated"] is True
    assert body["data"] == ISSUES[: len(body["data"])]
    assert body["omitted"] == 40 - len(body["data"])
    assert len(json.dumps(body["data"], separators=(",", ":"))) <= 1024
    r = httpx.post(
        f"{gateway.server.url}/v1/sample/list_issues",
        json={"params": args["params"], "max_bytes": 1024},
        headers={"Authorization": f"Bearer {gateway.keys['full']}"},
    )
    assert r.json() == body  # the HTTP API's answer, field for field
