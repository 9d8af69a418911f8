"""The answer cap (SKILLGATE_MAX_ANSWER_BYTES): a paginated call over large pages stops
fetching once the items pass the cap, answers at most the cap with `truncated` and a
`next` that resumes at the first item left out, and an Idempotency-Key stores at most
the cap; a single call whose envelope would pass it is cut the same way. Against the
loopback provider playing GitHub's issues, a page after page without end."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from sqlalchemy import select

from skillgate.executor.models import IdempotentCall
from tests.skillgate.executor.paged import OpenGateway
from tests.upstream import Provider, Recorded, Reply

PARAMS = {"owner": "octo", "repo": "big"}
PATH = "/repos/octo/big/issues"


def _endless_issues(provider: Provider, body_bytes: int) -> None:
    """Issues numbered from 0, `per_page` a page, each with a `body_bytes` text; every
    page links to the next one."""

    def handle(rec: Recorded) -> Reply:
        q = dict(rec.query)
        page, per = int(q.get("page", 1)), int(q.get("per_page", 30))
        first = (page - 1) * per
        chunk = [{"number": n, "body": "x" * body_bytes} for n in range(first, first + per)]
        query = urlencode({**q, "page": page + 1})
        return Reply(200, chunk, {"Link": f'<{provider.url}{PATH}?{query}>; rel="next"'})

    provider.reply("GET", PATH, handle)


def _pages_fetched(provider: Provider) -> int:
    return len([r for r in provider.api_requests() if r.path == PATH])


async def test_pages_stop_at_the_cap_and_next_resumes(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    cap = 512 * 1024
    _endless_issues(provider, body_bytes=2000)  # 100 a page: ~200 kB pages
    async with open_gateway(max_answer_bytes=cap) as gw:
        paginate = {"max_items": 10_000, "max_pages": 40}
        r = await gw.issues(PARAMS, paginate=paginate)
        assert len(r.content) <= cap
        body = r.json()
        assert body["truncated"] is True
        assert body["bytes"] > cap  # what was collected before the cut
        pagination = body["pagination"]
        assert pagination["complete"] is False
        # Fetching stopped at the page that passed the cap: 3 of the 40 allowed.
        assert _pages_fetched(provider) == 3 == pagination["pages"]
        numbers = [item["number"] for item in body["data"]]
        assert numbers == list(range(len(numbers)))
        assert 200 < len(numbers) < 260  # ~2 kB an item, 512 kB
        assert pagination["items"] == len(numbers)

        # `next` (and `skip`) continue at the first item left out.
        provider.clear()
        _, rest = await gw.resume(PARAMS, pagination, paginate={"max_pages": 1})
        assert rest[0]["number"] == len(numbers)


async def test_the_default_cap_bounds_pages_of_megabytes(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    _endless_issues(provider, body_bytes=25_000)  # 100 a page: ~2.5 MB pages
    async with open_gateway() as gw:
        paginate = {"max_items": 10_000, "max_pages": 8}
        r = await gw.issues(PARAMS, paginate=paginate)
        assert len(r.content) <= 10 * 1024 * 1024
        body = r.json()
        assert body["truncated"] is True
        assert body["pagination"]["complete"] is False
        assert _pages_fetched(provider) == 5  # the fifth passes 10 MB; 8 were allowed


async def test_an_idempotency_key_stores_at_most_the_cap(
    open_gateway: OpenGateway, provider: Provider
) -> None:
    cap = 256 * 1024
    _endless_issues(provider, body_bytes=2000)
    async with open_gateway(max_answer_bytes=cap) as gw:
        payload: dict[str, Any] = {"params": PARAMS, "paginate": {"max_pages": 20}}
        first = await gw.post("github", "list_issues", "big-1", **payload)
        assert first.status_code == 200
        assert len(first.content) <= cap
        assert first.json()["truncated"] is True
        async with gw.harness.sessionmaker() as s:
            stored = (await s.execute(select(IdempotentCall))).scalars().one()
        assert stored.envelope is not None
        assert len(stored.envelope) <= cap
        fetched = _pages_fetched(provider)
        again = await gw.post("github", "list_issues", "big-1", **payload)
        assert again.headers["idempotent-replayed"] == "true"
        assert again.content == first.content
        assert _pages_fetched(provider) == fetched


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, [{"number": n, "body": "x" * 1000} for n in range(300)]),  # ~300 kB
        Reply(200, '"' * 40_000),  # text: 40 kB read, 80 kB once escaped as JSON
    ],
    ids=["json", "escaped-text"],
)
async def test_a_single_call_over_the_cap_is_cut_to_it(
    open_gateway: OpenGateway, provider: Provider, reply: Reply
) -> None:
    cap = 64 * 1024
    provider.reply("GET", PATH, reply)
    async with open_gateway(max_answer_bytes=cap) as gw:
        r = await gw.issues(PARAMS)
        assert len(r.content) <= cap
        body = r.json()
        assert body["status"] == 200
        assert body["truncated"] is True
        assert body["bytes"] > cap
        if isinstance(reply.body, list):
            assert body["data"] == reply.body[: len(body["data"])]
            assert body["omitted"] == 300 - len(body["data"])
        else:
            assert reply.body.startswith(body["data"])
            assert len(body["data"]) > 20_000
