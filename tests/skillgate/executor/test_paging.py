"""Following pagination (skillgate.executor.paging) on the shipped catalog's endpoints,
page by page, without a network: what each style makes of a response."""

from __future__ import annotations

from typing import Any

import pytest
from multidict import CIMultiDict

from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.models import Endpoint
from skillgate.executor import paging
from skillgate.executor.paging import Collector, Page
from skillgate.kit.outbound import UpstreamResponse


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _ep(catalog: Catalog, slug: str, name: str) -> Endpoint:
    found = catalog.endpoint(slug, name)
    assert found is not None
    assert found.pagination is not None
    return found


def _resp(body: Any, **headers: str) -> UpstreamResponse:
    return UpstreamResponse(200, CIMultiDict(headers), body)


def test_github_link_header_takes_query_values_never_the_url(catalog: Catalog) -> None:
    ep = _ep(catalog, "github", "list_issues")
    values = paging.first(ep, {"owner": "o", "repo": "r", "state": "all"}, 1000)
    assert values["per_page"] == 100  # raised to max_size
    link = (
        "<https://evil.example/repositories/123/issues?state=all&per_page=100&page=2&x=1>;"
        ' rel="next", '
        '<https://api.github.com/repositories/123/issues?page=9>; rel="last"'
    )
    page = paging.step(ep, values, _resp([{"number": 1}, {"number": 2}], Link=link))
    assert page.items == [{"number": 1}, {"number": 2}]
    # only declared query parameters, typed as declared; the host and path are not taken
    assert page.next == {"owner": "o", "repo": "r", "state": "all", "per_page": 100, "page": 2}
    last = '<https://api.github.com/repositories/123/issues?page=1>; rel="prev"'
    assert paging.step(ep, page.next, _resp([{"number": 3}], Link=last)).next is None


def test_github_without_a_link_header_counts_pages(catalog: Catalog) -> None:
    ep = _ep(catalog, "github", "list_issues")
    values = {"owner": "o", "repo": "r", "per_page": 2}
    assert paging.step(ep, values, _resp([1, 2])).next == {**values, "page": 2}
    assert paging.step(ep, {**values, "page": 2}, _resp([3])).next is None  # short page
    assert paging.step(ep, values, _resp([])).next is None


def test_github_after_cursor_in_the_link(catalog: Catalog) -> None:
    ep = next(
        e
        for e in catalog.get("github").endpoints  # type: ignore[union-attr]
        if e.pagination and e.pagination.style == "link_header" and e.pagination.param == "after"
    )
    required = {p.name: "x" for p in ep.parameters if p.required}
    link = '<https://api.github.com/x?after=Y3Vyc29yOjI%3D&per_page=100>; rel="next"'
    page = paging.step(ep, required, _resp([{"id": 1}], link=link))
    assert page.next is not None
    assert page.next["after"] == "Y3Vyc29yOjI="


def test_slack_next_cursor(catalog: Catalog) -> None:
    ep = _ep(catalog, "slack", "list_channels")
    values = paging.first(ep, {}, 50)
    assert values == {"limit": 50}  # min(max_size 999, max_items 50)
    body = {
        "ok": True,
        "channels": [{"id": "C1"}],
        "response_metadata": {"next_cursor": "dGVhbTpD", "warnings": ["x"]},
    }
    assert paging.step(ep, values, _resp(body)) == Page(
        [{"id": "C1"}], {"limit": 50, "cursor": "dGVhbTpD"}
    )
    body["response_metadata"] = {"next_cursor": ""}
    assert paging.step(ep, values, _resp(body)).next is None


def test_google_page_token(catalog: Catalog) -> None:
    ep = _ep(catalog, "gmail", "list_messages")
    values = paging.first(ep, {"q": "is:unread"}, 1000)
    assert values == {"q": "is:unread", "maxResults": 500}
    page = paging.step(ep, values, _resp({"messages": [{"id": "a"}], "nextPageToken": "t2"}))
    assert page.next == {**values, "pageToken": "t2"}
    # Gmail leaves `messages` out when there are none
    assert paging.step(ep, values, _resp({"resultSizeEstimate": 0})) == Page([], None)


def test_notion_start_cursor_in_a_post_body(catalog: Catalog) -> None:
    ep = _ep(catalog, "notion", "query_database")
    values = paging.first(ep, {"database_id": "db"}, 30)
    assert values == {"database_id": "db", "page_size": 30}
    body = {"object": "list", "results": [{"id": "p1"}], "next_cursor": "c2", "has_more": True}
    assert paging.step(ep, values, _resp(body)).next == {**values, "start_cursor": "c2"}
    body.update(has_more=False)  # a cursor beside has_more false: the end
    assert paging.step(ep, values, _resp(body)).next is None


def test_linear_page_info(catalog: Catalog) -> None:
    ep = _ep(catalog, "linear", "list_issues")
    values = paging.first(ep, {}, 1000)
    assert values == {"first": 50}  # no max_size: the documented default is the ceiling
    assert paging.first(ep, {}, 10) == {"first": 10}
    body = {
        "data": {
            "issues": {
                "nodes": [{"id": "i1"}, {"id": "i2"}],
                "pageInfo": {"hasNextPage": True, "endCursor": "e2"},
            }
        }
    }
    page = paging.step(ep, values, _resp(body))
    assert page == Page([{"id": "i1"}, {"id": "i2"}], {"first": 50, "after": "e2"})
    body["data"]["issues"]["pageInfo"]["hasNextPage"] = False  # endCursor stays set
    assert paging.step(ep, values, _resp(body)).next is None


def test_offsets_numeric_and_tokens(catalog: Catalog) -> None:
    box = _ep(catalog, "box", "list_folder_items")
    values = paging.first(box, {"folder_id": "0"}, 3)
    assert values["limit"] == 3
    body = {"total_count": 5, "entries": [1, 2, 3], "order": [{"by": "type"}], "offset": 0}
    assert paging.step(box, values, _resp(body)).next == {**values, "offset": 3}
    body = {"total_count": 6, "entries": [4, 5, 6], "order": []}
    assert paging.step(box, {**values, "offset": 3}, _resp(body)).next is None  # total reached
    asana = next(e for e in catalog.get("asana").endpoints if e.pagination)  # type: ignore[union-attr]
    required = {p.name: "1" for p in asana.parameters if p.required}
    page = paging.step(
        asana, required, _resp({"data": [{"gid": "1"}], "next_page": {"offset": "eyJ0"}})
    )
    assert page.next == {**required, "offset": "eyJ0"}
    assert paging.step(asana, required, _resp({"data": [], "next_page": None})).next is None
    sendgrid = _ep(catalog, "sendgrid", "list_blocks")
    values = {"limit": 2}
    assert paging.step(sendgrid, values, _resp([{"e": 1}, {"e": 2}])).next == {
        "limit": 2,
        "offset": 2,
    }
    assert paging.step(sendgrid, {"limit": 2, "offset": 2}, _resp([{"e": 3}])).next is None


def test_stripe_starting_after_the_last_id(catalog: Catalog) -> None:
    ep = next(e for e in catalog.get("stripe").endpoints if e.pagination)  # type: ignore[union-attr]
    required = {p.name: "x" for p in ep.parameters if p.required}
    body = {"object": "list", "data": [{"id": "a"}, {"id": "b"}], "has_more": True}
    assert paging.step(ep, required, _resp(body)).next == {**required, "starting_after": "b"}
    body["has_more"] = False
    assert paging.step(ep, required, _resp(body)).next is None


def test_items_heuristic_and_link_parsing(catalog: Catalog) -> None:
    p = _ep(catalog, "sendgrid", "list_blocks").pagination
    assert p is not None
    assert paging.items_of(p, [1, 2]) == [1, 2]
    assert paging.items_of(p, {"total": 2, "things": [1, 2]}) == [1, 2]
    assert paging.items_of(p, {"a": [1], "results": [2, 3]}) == [2, 3]
    assert paging.items_of(p, {"a": [1], "b": [2, 3]}) == [2, 3]  # the longest
    assert paging.items_of(p, {"a": 1}) == []
    assert paging.items_of(p, "text") == []
    assert paging.link_next('<https://x/a?p=2>; rel="prev next"') == "https://x/a?p=2"
    assert paging.link_next("<https://x/a?p=2>;rel=next") == "https://x/a?p=2"
    assert paging.link_next('<https://x/a?p=2>; rel="nextpage"') is None
    assert paging.link_next(None) is None


def _pages(n: int, per: int) -> list[Page]:
    out = []
    for i in range(n):
        nxt = {"q": "x", "page": i + 2} if i + 1 < n else None
        out.append(Page([{"n": i * per + j, "pad": "x" * 40} for j in range(per)], nxt))
    return out


def _drive(c: Collector, pages: list[Page]) -> None:
    values: dict[str, Any] | None = {"q": "x"}
    for page in pages:
        assert values is not None
        values = c.add(values, page)
        if values is None:
            return


def test_collector_runs_to_the_end() -> None:
    c = Collector({"q": "x"}, 1000, 10)
    _drive(c, _pages(3, 4))
    assert [i["n"] for i in c.items] == list(range(12))
    assert c.summary() == {"pages": 3, "items": 12, "complete": True, "next": None}


def test_collector_caps() -> None:
    c = Collector({"q": "x"}, 1000, 2)
    _drive(c, _pages(5, 4))
    assert c.summary() == {"pages": 2, "items": 8, "complete": False, "next": {"page": 3}}
    c = Collector({"q": "x"}, 6, 10)  # max_items inside the second page
    _drive(c, _pages(5, 4))
    assert c.summary() == {
        "pages": 2,
        "items": 6,
        "complete": False,
        "next": {"page": 2},
        "skip": 2,
    }
    c = Collector({"q": "x"}, 8, 10)  # max_items at a page's end: continue with the next
    _drive(c, _pages(5, 4))
    assert c.summary() == {"pages": 2, "items": 8, "complete": False, "next": {"page": 3}}


def test_collector_projection_failure_and_cut() -> None:
    c = Collector({"q": "x"}, 1000, 10, fields=("n",))
    values = c.add({"q": "x"}, _pages(3, 4)[0])
    assert values == {"q": "x", "page": 2}
    c.failed(values)
    assert c.items == [{"n": i} for i in range(4)]
    assert c.summary() == {"pages": 2, "items": 4, "complete": False, "next": {"page": 2}}
    c = Collector({"q": "x"}, 1000, 10)
    _drive(c, _pages(3, 4))
    c.cut(6)  # max_bytes kept 6 items: continue inside the second page
    assert c.summary() == {
        "pages": 3,
        "items": 6,
        "complete": False,
        "next": {"page": 2},
        "skip": 2,
    }
    c = Collector({"q": "x"}, 1000, 10)
    _drive(c, _pages(3, 4))
    c.cut(2)
    assert c.summary()["next"] == {}
    assert c.summary()["skip"] == 2


def test_collector_stops_fetching_past_max_bytes() -> None:
    c = Collector({"q": "x"}, 1000, 10, max_bytes=400)
    _drive(c, _pages(10, 4))  # ~60 bytes an item: the second page passes 400
    assert c.pages == 2
    # The item that passes 400 is the last one kept (the cut at the end removes it):
    # the rest of the page is never held, and the answer resumes inside it.
    assert len(c.items) == 7
    assert c.summary() == {
        "pages": 2,
        "items": 7,
        "complete": False,
        "next": {"page": 2},
        "skip": 3,
    }


def test_every_shipped_paginated_endpoint_declares_its_paging_parameters(
    catalog: Catalog,
) -> None:
    missing = []
    for slug in catalog.slugs:
        for ep in catalog.get(slug).endpoints:  # type: ignore[union-attr]
            p = ep.pagination
            names = {param.name for param in ep.parameters}
            for used in (p.param, p.size_param) if p else ():
                if used is not None and used not in names:
                    missing.append(f"{slug}.{ep.name}: {used}")
    assert missing == []
    assert sum(1 for s in catalog.slugs for e in catalog.get(s).endpoints if e.pagination) > 400  # type: ignore[union-attr]
