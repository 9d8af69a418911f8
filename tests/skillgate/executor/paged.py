"""What the safe-execution tests share: a key that calls (`Caller`: post, answer, log),
made ready on the test app's sample integration (`ready`) or on a gateway of its own
whose shipped GitHub, Slack, Gmail, Notion and Linear integrations point at the
loopback provider, connected (`gateway`); the provider playing GitHub's and Slack's
pagination; the shape of a refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

import httpx
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


@dataclass
class Caller:
    """A key on a started app and the calls a test makes with it."""

    harness: Harness
    full: str

    async def post(
        self, slug: str, name: str, idem: str | None = None, **body: Any
    ) -> httpx.Response:
        """POST /v1/<slug>/<name> with `body` (and Idempotency-Key `idem`), whatever it
        answers."""
        headers = bearer(self.full)
        if idem is not None:
            headers["Idempotency-Key"] = idem
        return await self.harness.client.post(f"/v1/{slug}/{name}", json=body, headers=headers)

    async def sample(
        self, endpoint: str, params: dict[str, Any], idem: str | None = None, **extra: Any
    ) -> httpx.Response:
        """The sample integration's `endpoint` with `params` and options `extra`."""
        return await self.post("sample", endpoint, idem, params=params, **extra)

    async def call(self, slug: str, name: str, **body: Any) -> httpx.Response:
        """`post`, answered 200 (the envelope says what the upstream answered)."""
        r = await self.post(slug, name, **body)
        assert r.status_code == 200, r.text
        return r

    async def run(self, slug: str, name: str, **body: Any) -> Any:
        """The envelope of `call`."""
        return (await self.call(slug, name, **body)).json()

    async def issues(self, params: dict[str, Any], **options: Any) -> httpx.Response:
        """GitHub's list_issues of the provider's repository (`github_issues`)."""
        return await self.call("github", "list_issues", params=params, **options)

    async def resume(
        self, params: dict[str, Any], pagination: dict[str, Any], **options: Any
    ) -> tuple[Any, list[Any]]:
        """list_issues again from a `pagination`'s `next`: the envelope, and its items
        from `skip` on (the first item the call before left out)."""
        body = (await self.issues({**params, **pagination["next"]}, **options)).json()
        return body, body["data"][pagination.get("skip", 0) :]

    async def log(self, *fields: str) -> list[tuple[Any, ...]]:
        """The key's user's execution log, newest first: `fields` of each row."""
        await self.harness.executions.flush()
        rows = (await self.harness.client.get("/v1/executions", headers=bearer(self.full))).json()
        return [tuple(e[f] for f in fields) for e in rows["executions"]]


async def ready(
    harness: Harness, email: str = "ada@example.com", plan: str = "pro", **key: Any
) -> Caller:
    """A user on `plan` with a key (created with `key`) that has connected the sample
    integration."""
    await harness.user(email, plan=plan)
    full, _ = await harness.key(email, **key)
    await harness.connect_token(full)
    return Caller(harness, full)


def assert_refused(r: httpx.Response, field: str, status: int = 400) -> None:
    """Refused with `status`, the message naming `field` first."""
    assert r.status_code == status, r.text
    assert r.json()["message"].startswith(f"{field}:")


@asynccontextmanager
async def gateway(
    database_url: str,
    tmp_path: Path,
    catalog: Catalog,
    provider: Provider,
    plan: str = "pro",
    **settings: Any,
) -> AsyncIterator[Caller]:
    """A server whose five integrations all point at the provider: the `Caller` of a user
    on `plan` whose key has connected them all (the provider's requests then cleared)."""
    async with open_harness(database_url, tmp_path, catalog, **settings) as harness:
        await harness.user(plan=plan)
        full, _ = await harness.key()
        for slug in SLUGS:
            await harness.connect_token(full, slug)
        provider.clear()
        yield Caller(harness, full)


class OpenGateway(Protocol):
    """The `open_gateway` fixture: `gateway` on the shipped integrations."""

    def __call__(
        self, plan: str = "pro", **settings: Any
    ) -> AbstractAsyncContextManager[Caller]: ...


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
