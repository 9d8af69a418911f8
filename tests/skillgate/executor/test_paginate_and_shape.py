"""`paginate`, `fields` and `max_bytes` through POST /v1/:integration/:endpoint, with the
shipped GitHub, Slack, Gmail, Notion and Linear integrations against the loopback
provider, which plays each API's pagination and records every page asked for."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, parse_file
from tests.conftest import Harness, bearer, open_harness
from tests.upstream import Provider, Recorded, Reply

SLUGS = ("github", "slack", "gmail", "notion", "linear")
ISSUES = [
    {"number": 1000 - i, "title": f"Issue {i}", "user": {"login": f"u{i % 7}", "id": i}}
    for i in range(230)
]


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return Catalog(integrations={s: parse_file(SHIPPED_DIR / f"{s}.yaml") for s in SLUGS})


@asynccontextmanager
async def gateway(
    database_url: str,
    tmp_path: Path,
    catalog: Catalog,
    provider: Provider,
    plan: str = "pro",
    **settings: Any,
) -> AsyncIterator[tuple[Harness, str]]:
    """A server whose five integrations all point at the provider, connected."""
    async with open_harness(database_url, tmp_path, catalog, **settings) as harness:
        await harness.user(plan=plan)
        full, _ = await harness.key()
        for slug in SLUGS:
            await harness.connect_token(full, slug)
        provider.clear()
        yield harness, full


@pytest.fixture(autouse=True)
def _base_urls(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    for slug in SLUGS:
        monkeypatch.setenv(f"SKILLGATE_{slug.upper()}_BASE_URL", provider.url)


async def _run(harness: Harness, full: str, slug: str, name: str, **body: Any) -> Any:
    r = await harness.client.post(f"/v1/{slug}/{name}", json=body, headers=bearer(full))
    assert r.status_code == 200, r.text
    return r


def _github_issues(provider: Provider, fail_page: int | None = None) -> None:
    """GitHub: pages by `page`/`per_page`, a `Link` header whose next URL has another path
    (as GitHub's does: /repositories/<id>/issues)."""

    def handle(rec: Recorded) -> Reply:
        q = dict(rec.query)
        page, per = int(q.get("page", 1)), int(q.get("per_page", 30))
        if page == fail_page:
            return Reply(502, {"message": "Server Error"})
        chunk = ISSUES[(page - 1) * per : page * per]
        links = []
        if page * per < len(ISSUES):  # the request's own query, the next page
            query = urlencode({**q, "page": page + 1})
            links.append(f'<{provider.url}/repositories/99/issues?{query}>; rel="next"')
        links.append(f'<{provider.url}/repositories/99/issues?per_page={per}&page=1>; rel="first"')
        return Reply(200, chunk, {"Link": ", ".join(links)})

    provider.reply("GET", "/repos/octo/hello/issues", handle)


def _issue_requests(provider: Provider) -> list[dict[str, str]]:
    sent = provider.api_requests()
    assert all(r.path == "/repos/octo/hello/issues" for r in sent)  # never the Link's path
    return [dict(r.query) for r in sent]


async def test_github_link_header_with_max_items_and_continuation(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _github_issues(provider)
    params = {"owner": "octo", "repo": "hello", "state": "all"}
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness, full, "github", "list_issues", params=params, paginate={"max_items": 150}
        )
        body = r.json()
        assert body["status"] == 200
        assert body["data"] == ISSUES[:150]
        assert body["pagination"] == {
            "pages": 2,
            "items": 150,
            "complete": False,
            "next": {"per_page": 100, "page": 2},
            "skip": 50,
        }
        assert _issue_requests(provider) == [
            {"state": "all", "per_page": "100"},
            {"state": "all", "per_page": "100", "page": "2"},
        ]
        provider.clear()
        more = await _run(
            harness,
            full,
            "github",
            "list_issues",
            params={**params, **body["pagination"]["next"]},
            paginate={},
        )
        rest = more.json()
        assert rest["data"][body["pagination"]["skip"] :] == ISSUES[150:]
        assert rest["pagination"] == {"pages": 2, "items": 130, "complete": True, "next": None}
        assert [q["page"] for q in _issue_requests(provider)] == ["2", "3"]


async def test_a_failing_middle_page_keeps_the_items_so_far(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _github_issues(provider, fail_page=2)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "github",
            "list_issues",
            params={"owner": "octo", "repo": "hello", "per_page": 50},
            paginate={"max_pages": 5},
        )
        assert r.headers["x-upstream-status"] == "502"
        assert r.json() == {
            "status": 502,
            "error": {"message": "Server Error"},
            "data": ISSUES[:50],
            "pagination": {"pages": 2, "items": 50, "complete": False, "next": {"page": 2}},
        }
        assert [q.get("page") for q in _issue_requests(provider)] == [None, "2"]


def _slack_channels(provider: Provider, total: int = 7) -> None:
    channels = [
        {"id": f"C{i}", "name": f"chan-{i}", "purpose": {"value": "p" * 40}} for i in range(total)
    ]

    def handle(rec: Recorded) -> Reply:
        q = dict(rec.query)
        start = int(q.get("cursor", "c0")[1:])
        limit = int(q.get("limit", 100))
        nxt = start + limit
        meta = {"next_cursor": f"c{nxt}" if nxt < total else ""}
        page = {"ok": True, "channels": channels[start:nxt], "response_metadata": meta}
        return Reply(200, page)

    provider.reply("GET", "/conversations.list", handle)


async def test_slack_cursor_with_max_pages_and_fields(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _slack_channels(provider)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "slack",
            "list_channels",
            params={"limit": 3},
            paginate={"max_pages": 2},
            fields=["name", "purpose.value"],
        )
        body = r.json()
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


async def test_google_page_token_to_the_end(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    messages = [{"id": f"m{i}", "threadId": f"t{i}"} for i in range(5)]

    def handle(rec: Recorded) -> Reply:
        start = int(dict(rec.query).get("pageToken", "0"))
        page: dict[str, Any] = {"messages": messages[start : start + 2]}
        if start + 2 < len(messages):
            page["nextPageToken"] = str(start + 2)
        return Reply(200, page)

    provider.reply("GET", "/gmail/v1/users/me/messages", handle)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness, full, "gmail", "list_messages", params={"userId": "me"}, paginate={}
        )
        assert r.json() == {
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
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
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
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "notion",
            "query_database",
            params={
                "database_id": "db1",
                "filter": {"property": "Done", "checkbox": {"equals": False}},
            },
            paginate={"max_items": 4},
        )
        assert r.json()["data"] == rows[:4]
        assert r.json()["pagination"] == {
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


async def test_linear_graphql_page_info(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    nodes = [{"id": f"i{i}", "identifier": f"ENG-{i}", "team": {"key": "ENG"}} for i in range(5)]

    def handle(rec: Recorded) -> Reply:
        variables = rec.json().get("variables") or {}  # the verify request has none
        start = int(variables.get("after") or 0)
        end = start + 2
        info = {"hasNextPage": end < len(nodes), "endCursor": str(min(end, len(nodes)))}
        return Reply(200, {"data": {"issues": {"nodes": nodes[start:end], "pageInfo": info}}})

    provider.reply("POST", "/graphql", handle)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "linear",
            "list_issues",
            params={"first": 2},
            paginate={},
            fields=["identifier", "team.key"],
        )
        assert r.json()["data"] == [
            {"identifier": f"ENG-{i}", "team": {"key": "ENG"}} for i in range(5)
        ]
        assert r.json()["pagination"]["complete"] is True
        sent = [r.json()["variables"] for r in provider.api_requests()]
        assert sent == [{"first": 2}, {"first": 2, "after": "2"}, {"first": 2, "after": "4"}]


async def test_each_page_spends_the_rate_limit_and_writes_a_log_row(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _slack_channels(provider, total=20)
    async with gateway(
        database_url, tmp_path, shipped, provider, plan="free", rate_free_per_minute=3
    ) as (harness, full):
        r = await _run(harness, full, "slack", "list_channels", params={"limit": 4}, paginate={})
        body = r.json()
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
        await harness.executions.flush()
        rows = (await harness.client.get("/v1/executions", headers=bearer(full))).json()
        assert [(e["endpoint"], e["status"], e["error"]) for e in rows["executions"]] == [
            ("list_channels", None, "rate_limited"),
            ("list_channels", 200, None),
            ("list_channels", 200, None),
            ("list_channels", 200, None),
        ]


async def test_fields_on_nested_and_list_data(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    issue = {
        "number": 7,
        "title": "Crash",
        "user": {"login": "ann", "id": 1, "site_admin": False},
        "labels": [{"name": "bug", "color": "f00"}, {"name": "ui", "color": "0f0"}],
        "body": "long text",
    }
    provider.reply("GET", "/repos/octo/hello/issues/7", Reply(200, issue))
    _github_issues(provider)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "github",
            "get_issue",
            params={"owner": "octo", "repo": "hello", "issue_number": 7},
            fields=["number", "user.login", "labels.name", "milestone.title"],
        )
        assert r.json() == {
            "status": 200,
            "data": {
                "number": 7,
                "user": {"login": "ann"},
                "labels": [{"name": "bug"}, {"name": "ui"}],
            },
        }
        r = await _run(
            harness,
            full,
            "github",
            "list_issues",
            params={"owner": "octo", "repo": "hello", "per_page": 3},
            fields=["number", "user.login"],
        )
        assert r.json() == {
            "status": 200,
            "data": [
                {"number": i["number"], "user": {"login": i["user"]["login"]}} for i in ISSUES[:3]
            ],
        }


async def test_max_bytes_without_paginate(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _slack_channels(provider, total=200)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness, full, "slack", "list_channels", params={"limit": 200}, max_bytes=2048
        )
        body = r.json()
        data = body["data"]
        assert len(r.content) < 2048 + 200  # the envelope around at most 2048 bytes of data
        assert data["ok"] is True
        assert data["response_metadata"] == {"next_cursor": ""}
        kept = len(data["channels"])
        assert 5 < kept < 200
        assert body["truncated"] is True
        assert body["omitted"] == 200 - kept
        assert body["bytes"] > 2048
        small = await _run(
            harness, full, "slack", "list_channels", params={"limit": 2}, max_bytes=2048
        )
        assert "truncated" not in small.json()


async def test_max_bytes_with_paginate_moves_next_to_the_first_item_left_out(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    _github_issues(provider)
    params = {"owner": "octo", "repo": "hello", "per_page": 20}
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness, full, "github", "list_issues", params=params, paginate={}, max_bytes=4096
        )
        body = r.json()
        kept = len(body["data"])
        assert body["data"] == ISSUES[:kept]
        assert body["truncated"] is True
        assert body["omitted"] > 0
        pagination = body["pagination"]
        assert pagination["items"] == kept
        assert pagination["complete"] is False
        assert pagination["pages"] < 12  # stopped fetching once past max_bytes
        assert len(provider.api_requests()) == pagination["pages"]
        page = pagination["next"]["page"]
        assert (page - 1) * 20 + pagination.get("skip", 0) == kept  # nothing lost
        more = await _run(
            harness,
            full,
            "github",
            "list_issues",
            params={**params, **pagination["next"]},
            paginate={"max_items": 20},
        )
        assert more.json()["data"][pagination.get("skip", 0) :][:1] == [ISSUES[kept]]


async def test_paginate_needs_a_paginated_endpoint(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await harness.client.post(
            "/v1/github/get_issue",
            json={"params": {"owner": "o", "repo": "r", "issue_number": 1}, "paginate": {}},
            headers=bearer(full),
        )
        assert r.status_code == 400
        assert r.json()["message"].startswith("paginate:")
        assert provider.api_requests() == []


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"paginate": {"max_items": 0}}, "paginate.max_items"),
        ({"paginate": {"max_pages": 101}}, "paginate.max_pages"),
        ({"paginate": {"pages": 2}}, "paginate.pages"),
        ({"paginate": 3}, "paginate"),
        ({"fields": []}, "fields"),
        ({"fields": ["user..login"]}, "fields"),
        ({"max_bytes": 100}, "max_bytes"),
        ({"max_bytes": "big"}, "max_bytes"),
    ],
)
async def test_bad_option_values_are_400_naming_the_field(
    extra: dict[str, Any],
    named: str,
    database_url: str,
    tmp_path: Path,
    shipped: Catalog,
    provider: Provider,
) -> None:
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await harness.client.post(
            "/v1/slack/list_channels", json={"params": {}, **extra}, headers=bearer(full)
        )
        assert r.status_code == 400
        assert r.json()["message"].startswith(f"{named}:")
        assert provider.api_requests() == []


async def test_a_dry_run_with_paginate_previews_the_first_page(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await _run(
            harness,
            full,
            "github",
            "list_issues",
            params={"owner": "octo", "repo": "hello"},
            paginate={"max_items": 40},
            dry_run=True,
        )
        assert r.json()["request"]["url"] == f"{provider.url}/repos/octo/hello/issues?per_page=40"
        assert provider.api_requests() == []
