"""What the paging and shaping tests share: the shipped GitHub, Slack, Gmail, Notion and
Linear integrations pointed at the loopback provider (connected), and the provider
playing GitHub's and Slack's pagination."""

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


def shipped_catalog() -> Catalog:
    return Catalog(integrations={s: parse_file(SHIPPED_DIR / f"{s}.yaml") for s in SLUGS})


def point_at(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    for slug in SLUGS:
        monkeypatch.setenv(f"SKILLGATE_{slug.upper()}_BASE_URL", provider.url)


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


async def run(harness: Harness, full: str, slug: str, name: str, **body: Any) -> Any:
    r = await harness.client.post(f"/v1/{slug}/{name}", json=body, headers=bearer(full))
    assert r.status_code == 200, r.text
    return r


def github_issues(provider: Provider, fail_page: int | None = None) -> None:
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


def issue_requests(provider: Provider) -> list[dict[str, str]]:
    sent = provider.api_requests()
    assert all(r.path == "/repos/octo/hello/issues" for r in sent)  # never the Link's path
    return [dict(r.query) for r in sent]


def slack_channels(provider: Provider, total: int = 7) -> None:
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
