"""`fields` and `max_bytes` through POST /v1/:integration/:endpoint, with and without
`paginate`, against the loopback provider; bad option values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import Catalog
from tests.conftest import bearer
from tests.skillgate.executor.paged import (
    ISSUES,
    gateway,
    github_issues,
    run,
    slack_channels,
)
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("paged_upstream")


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
    github_issues(provider)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await run(
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
        r = await run(
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
    slack_channels(provider, total=200)
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await run(
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
        small = await run(
            harness, full, "slack", "list_channels", params={"limit": 2}, max_bytes=2048
        )
        assert "truncated" not in small.json()


async def test_max_bytes_with_paginate_moves_next_to_the_first_item_left_out(
    database_url: str, tmp_path: Path, shipped: Catalog, provider: Provider
) -> None:
    github_issues(provider)
    params = {"owner": "octo", "repo": "hello", "per_page": 20}
    async with gateway(database_url, tmp_path, shipped, provider) as (harness, full):
        r = await run(
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
        more = await run(
            harness,
            full,
            "github",
            "list_issues",
            params={**params, **pagination["next"]},
            paginate={"max_items": 20},
        )
        assert more.json()["data"][pagination.get("skip", 0) :][:1] == [ISSUES[kept]]


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
