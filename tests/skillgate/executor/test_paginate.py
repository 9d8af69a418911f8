"""`paginate` through POST /v1/:integration/:endpoint: the five pagination styles of the
shipped GitHub, Slack, Gmail, Notion and Linear integrations against the loopback
provider, which plays each API's paging and records every page asked for; caps, the
continuation, a failing page, the rate limit and the log per page."""

from __future__ import annotations

from typing import Any

from tests.skillgate.executor.paged import (
    ISSUES,
    OpenGateway,
    assert_refused,
    github_issues,
    issue_requests,
    slack_channels,
)
from tests.upstream import Provider, Recorded, Reply


async def test_github_link_header_with_max_items_and_continuation(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    github_issues(provider)
    params = {"owner": "octo", "repo": "hello", "state": "all"}
    async with open_gateway() as gw:
        body = (await gw.issues(params, paginate={"max_items": 150})).json()
        assert body["status"] == 200
        assert body["data"] == ISSUES[:150]
        assert body["pagination"] == {
            "pages": 2,
            "items": 150,
            "complete": False,
            "next": {"per_page": 100, "page": 2},
            "skip": 50,
        }
        assert issue_requests(provider) == [
            {"state": "all", "per_page": "100"},
            {"state": "all", "per_page": "100", "page": "2"},
        ]
        provider.clear()
        rest, after_skip = await gw.resume(params, body["pagination"], paginate={})
        assert after_skip == ISSUES[150:]
        assert rest["pagination"] == {"pages": 2, "items": 130, "complete": True, "next": None}
        assert [q["page"] for q in issue_requests(provider)] == ["2", "3"]


async def test_a_failing_middle_page_keeps_the_items_so_far(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    github_issues(provider, fail_page=2)
    async with open_gateway() as gw:
        r = await gw.issues(
            {"owner": "octo", "repo": "hello", "per_page": 50}, paginate={"max_pages": 5}
        )
        assert r.headers["x-upstream-status"] == "502"
        assert r.json() == {
            "status": 502,
            "error": {"message": "Server Error"},
            "data": ISSUES[:50],
            "pagination": {"pages": 2, "items": 50, "complete": False, "next": {"page": 2}},
        }
        assert [q.get("page") for q in issue_requests(provider)] == [None, "2"]


async def test_slack_cursor_with_max_pages_and_fields(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    slack_channels(provider)
    async with open_gateway() as gw:
        body = await gw.run(
            "slack",
            "list_channels",
            params={"limit": 3},
            paginate={"max_pages": 2},
            fields=["name", "purpose.value"],
        )
        assert body["data"] == [
            {"name": f"chan-{i}", "purpose": {"value": "p" * 40}} for i in range(6)
        ]
        assert body["pagination"] == {
            "pages": 2,
            "items": 6,
            "complete": False,
            "next": {"cursor": "c6"},
        }
        assert [dict(r.query) for r in provider.api_requests()] == [
            {"limit": "3"},
            {"limit": "3", "cursor": "c3"},
        ]


async def test_google_page_token_to_the_end(open_gateway: OpenGateway, provider: Provider) -> None:
    messages = [{"id": f"m{i}", "threadId": f"t{i}"} for i in range(5)]

    def handle(rec: Recorded) -> Reply:
        start = int(dict(rec.query).get("pageToken", "0"))
        page: dict[str, Any] = {"messages": messages[start : start + 2]}
        if start + 2 < len(messages):
            page["nextPageToken"] = str(start + 2)
        return Reply(200, page)

    provider.reply("GET", "/gmail/v1/users/me/messages", handle)
    async with open_gateway() as gw:
        body = await gw.run("gmail", "list_messages", params={"userId": "me"}, paginate={})
        assert body == {
            "status": 200,
            "data": messages,
            "pagination": {"pages": 3, "items": 5, "complete": True, "next": None},
        }
        assert [dict(r.query) for r in provider.api_requests()] == [
            {"maxResults": "500"},
            {"maxResults": "500", "pageToken": "2"},
            {"maxResults": "500", "pageToken": "4"},
        ]


async def test_notion_start_cursor_in_the_post_body(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    rows = [{"object": "page", "id": f"p{i}"} for i in range(5)]

    def handle(rec: Recorded) -> Reply:
        sent = rec.json()
        start = int(sent.get("start_cursor", "0"))
        end = start + 2
        more = end < len(rows)
        page = {"object": "list", "results": rows[start:end], "has_more": more}
        page["next_cursor"] = str(end) if more else None
        return Reply(200, page)

    provider.reply("POST", "/databases/db1/query", handle)
    async with open_gateway() as gw:
        body = await gw.run(
            "notion",
            "query_database",
            params={
                "database_id": "db1",
                "filter": {"property": "Done", "checkbox": {"equals": False}},
            },
            paginate={"max_items": 4},
        )
        assert body["data"] == rows[:4]
        assert body["pagination"] == {
            "pages": 2,
            "items": 4,
            "complete": False,
            "next": {"page_size": 4, "start_cursor": "4"},
        }
        sent = [r.json() for r in provider.api_requests()]
        assert sent == [
            {"filter": {"property": "Done", "checkbox": {"equals": False}}, "page_size": 4},
            {
                "filter": {"property": "Done", "checkbox": {"equals": False}},
                "start_cursor": "2",
                "page_size": 4,
            },
        ]


async def test_linear_graphql_page_info(open_gateway: OpenGateway, provider: Provider) -> None:
    nodes = [{"id": f"i{i}", "identifier": f"ENG-{i}", "team": {"key": "ENG"}} for i in range(5)]

    def handle(rec: Recorded) -> Reply:
        variables = rec.json().get("variables") or {}  # the verify request has none
        start = int(variables.get("after") or 0)
        end = start + 2
        info = {"hasNextPage": end < len(nodes), "endCursor": str(min(end, len(nodes)))}
        return Reply(200, {"data": {"issues": {"nodes": nodes[start:end], "pageInfo": info}}})

    provider.reply("POST", "/graphql", handle)
    async with open_gateway() as gw:
        body = await gw.run(
            "linear",
            "list_issues",
            params={"first": 2},
            paginate={},
            fields=["identifier", "team.key"],
        )
        assert body["data"] == [
            {"identifier": f"ENG-{i}", "team": {"key": "ENG"}} for i in range(5)
        ]
        assert body["pagination"]["complete"] is True
        sent = [r.json()["variables"] for r in provider.api_requests()]
        assert sent == [{"first": 2}, {"first": 2, "after": "2"}, {"first": 2, "after": "4"}]


async def test_each_page_spends_the_rate_limit_and_writes_a_log_row(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    slack_channels(provider, total=20)
    async with open_gateway(plan="free", rate_free_per_minute=3) as gw:
        body = await gw.run("slack", "list_channels", params={"limit": 4}, paginate={})
        assert body["status"] == 429
        assert body["error"]["error"] == "rate_limited"
        assert body["retry_after"] >= 1
        assert [c["id"] for c in body["data"]] == [f"C{i}" for i in range(12)]
        assert body["pagination"] == {
            "pages": 4,
            "items": 12,
            "complete": False,
            "next": {"cursor": "c12"},
        }
        assert len(provider.api_requests()) == 3  # the fourth page was never sent
        assert await gw.log("endpoint", "status", "error") == [
            ("list_channels", None, "rate_limited"),
            ("list_channels", 200, None),
            ("list_channels", 200, None),
            ("list_channels", 200, None),
        ]


async def test_paginate_needs_a_paginated_endpoint(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    async with open_gateway() as gw:
        r = await gw.post(
            "github",
            "get_issue",
            params={"owner": "o", "repo": "r", "issue_number": 1},
            paginate={},
        )
        assert_refused(r, "paginate")
        assert provider.api_requests() == []


async def test_a_dry_run_with_paginate_previews_the_first_page(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    async with open_gateway() as gw:
        r = await gw.issues(
            {"owner": "octo", "repo": "hello"}, paginate={"max_items": 40}, dry_run=True
        )
        assert r.json()["request"]["url"] == f"{provider.url}/repos/octo/hello/issues?per_page=40"
        assert provider.api_requests() == []
