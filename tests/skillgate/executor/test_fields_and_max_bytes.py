"""`fields` and `max_bytes` through POST /v1/:integration/:endpoint, with and without
`paginate`, against the loopback provider; bad option values."""

from __future__ import annotations

from typing import Any

import pytest

from tests.skillgate.executor.paged import (
    ISSUES,
    OpenGateway,
    assert_refused,
    github_issues,
    slack_channels,
)
from tests.upstream import Provider, Reply


async def test_fields_on_nested_and_list_data(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    issue = {
        "number": 7,
        "title": "Crash",
        "user": {"login": "ann", "id": 1, "site_admin": False},
        "labels": [{"name": "bug", "color": "f00"}, {"name": "ui", "color": "0f0"}],
        "body": "long text",
    }
    provider.reply("GET", "/repos/octo/hello/issues/7", Reply(200, issue))
    github_issues(provider)
    async with open_gateway() as gw:
        body = await gw.run(
            "github",
            "get_issue",
            params={"owner": "octo", "repo": "hello", "issue_number": 7},
            fields=["number", "user.login", "labels.name", "milestone.title"],
        )
        assert body == {
            "status": 200,
            "data": {
                "number": 7,
                "user": {"login": "ann"},
                "labels": [{"name": "bug"}, {"name": "ui"}],
            },
        }
        r = await gw.issues(
            {"owner": "octo", "repo": "hello", "per_page": 3}, fields=["number", "user.login"]
        )
        assert r.json() == {
            "status": 200,
            "data": [
                {"number": i["number"], "user": {"login": i["user"]["login"]}} for i in ISSUES[:3]
            ],
        }


async def test_max_bytes_without_paginate(open_gateway: OpenGateway, provider: Provider) -> None:
    slack_channels(provider, total=200)
    async with open_gateway() as gw:
        r = await gw.call("slack", "list_channels", params={"limit": 200}, max_bytes=2048)
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
        small = await gw.run("slack", "list_channels", params={"limit": 2}, max_bytes=2048)
        assert "truncated" not in small


async def test_max_bytes_with_paginate_moves_next_to_the_first_item_left_out(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    github_issues(provider)
    params = {"owner": "octo", "repo": "hello", "per_page": 20}
    async with open_gateway() as gw:
        body = (await gw.issues(params, paginate={}, max_bytes=4096)).json()
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
        _, after_skip = await gw.resume(params, pagination, paginate={"max_items": 20})
        assert after_skip[:1] == [ISSUES[kept]]


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
    extra: dict[str, Any], named: str, open_gateway: OpenGateway, provider: Provider
) -> None:
    async with open_gateway() as gw:
        r = await gw.post("slack", "list_channels", params={}, **extra)
        assert_refused(r, named)
        assert provider.api_requests() == []
