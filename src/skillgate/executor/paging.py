"""Following an endpoint's declared pagination, one real upstream call per page.

The executor's loop:

    values = paging.first(endpoint, values, max_items)   # page size raised
    pages = paging.Collector(original, max_items, max_pages, max_bytes, fields)
    while values is not None:
        response = <call upstream with values>            # rate limit, log row
        values = pages.add(values, paging.step(endpoint, values, response))

`step` never takes a URL from the upstream: it only works out the next
request's parameter values, and the request is built again by
`executor.request.build`, so it cannot leave the integration's host. By style:

- `link_header` (GitHub): the `rel="next"` URL of the `Link` header; its query
  values for the endpoint's declared query parameters (`page`, `after`,
  `since`) replace the current ones. Its path is ignored (GitHub's next link
  may be `/repositories/123/issues?page=2`). No next link: the last page.
- `page`: the `Link` header when the response has one; else the page number
  plus one, until a page is empty or shorter than the page size asked for.
- `cursor`, `page_token`: the value at `next` in the body (Slack's
  `response_metadata.next_cursor`, Google's `nextPageToken`, Notion's
  `next_cursor`, Linear's `data.issues.pageInfo.endCursor`) goes in `param`;
  empty, unchanged, or beside `has_more`/`hasNextPage` false: the last page.
  Without `next` (Stripe): the last item's `id` while `has_more` is true.
- `offset`: the value at `next` when declared; else Asana's `next_page.offset`
  token when the body has `next_page`; else numeric (SendGrid, Box): offset
  plus the page's item count, until a short or empty page or `total_count`.

A page's items are at `Pagination.items` (a dotted path); without it, the body
when it is a list, else its one top-level list field (several: `items`,
`data`, `entries` or `results`, else the longest).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from skillgate.catalog.coerce import CoercionError, coerce
from skillgate.catalog.models import Endpoint, Pagination, Parameter
from skillgate.executor.shape import project_tree, size, tree
from skillgate.kit.outbound import UpstreamResponse

_LINK = re.compile(r"<([^>]*)>\s*((?:;\s*[^;,]+)*)")
_REL_NEXT = re.compile(r"""rel\s*=\s*"?(?:[^";,]*\s)?next[\s";,]""", re.IGNORECASE)
_MORE_FLAGS = ("has_more", "hasNextPage", "has_next_page")
_ITEM_LISTS = ("items", "data", "entries", "results")


@dataclass(frozen=True)
class Page:
    items: list[Any]
    next: dict[str, Any] | None  # the next request's values; None: this was the last page


def _declared(endpoint: Endpoint) -> dict[str, Parameter]:
    return {p.name: p for p in endpoint.parameters}


def _coerced(param: Parameter, value: Any) -> Any:
    """`value` as `param` declares it, else as the upstream wrote it."""
    with contextlib.suppress(CoercionError):
        return coerce(param, value)
    return value


def _with(
    endpoint: Endpoint, values: dict[str, Any], name: str | None, value: Any
) -> dict[str, Any] | None:
    """`values` with `name` set to `value`; None when the endpoint does not declare
    `name` (the request would not carry it: the same page again)."""
    param = _declared(endpoint).get(name or "")
    if name is None or param is None:
        return None
    return {**values, name: _coerced(param, value)}


def first(endpoint: Endpoint, values: dict[str, Any], max_items: int) -> dict[str, Any]:
    """The first page's values: the page size raised to min(max_size, max_items) when
    the caller gave none (with no `max_size`, the size parameter's documented default
    is the ceiling: never more than the upstream would send anyway)."""
    p = endpoint.pagination
    if p is None or p.size_param is None or p.size_param in values:
        return values
    param = _declared(endpoint).get(p.size_param)
    if param is None or param.type != "number":
        return values
    ceiling = p.max_size or (param.default if isinstance(param.default, int) else None)
    if not ceiling:
        return values
    return {**values, p.size_param: _coerced(param, min(ceiling, max_items))}


def dig(body: Any, path: str) -> Any:
    """The value at a dotted path of objects, or None."""
    node = body
    for key in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def items_of(p: Pagination, body: Any) -> list[Any]:
    """The page's item list (see the module docstring); [] when there is none."""
    found = dig(body, p.items) if p.items else body
    if isinstance(found, list):
        return found
    if p.items or not isinstance(found, dict):
        return []
    lists = {k: v for k, v in found.items() if isinstance(v, list)}
    if len(lists) == 1:
        return next(iter(lists.values()))
    named = next((lists[k] for k in _ITEM_LISTS if k in lists), None)
    if named is not None:
        return named
    return max(lists.values(), key=len, default=[])


def link_next(header: str | None) -> str | None:
    """The `rel="next"` target of an RFC 8288 `Link` header."""
    for match in _LINK.finditer(header or ""):
        if _REL_NEXT.search(match.group(2) + ";"):
            return match.group(1)
    return None


def _link(endpoint: Endpoint, values: dict[str, Any], url: str) -> dict[str, Any] | None:
    """The next request's values from a next link's query (declared query params only)."""
    by_wire = {p.wire_name: p for p in endpoint.parameters if p.location == "query"}
    given: dict[str, list[str]] = {}
    for key, text in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if key in by_wire:
            given.setdefault(key, []).append(text)
    out = dict(values)
    for wire, texts in given.items():
        param = by_wire[wire]
        out[param.name] = _coerced(param, texts if param.type == "array" else texts[-1])
    return out if out != values else None  # no change: it would fetch the same page


def _token(
    endpoint: Endpoint, p: Pagination, values: dict[str, Any], body: Any
) -> dict[str, Any] | None:
    """The next request's values from the token at `next` in the body."""
    if p.next is None:
        return None
    token = dig(body, p.next)
    if token is None or token == "" or p.param is None or token == values.get(p.param):
        return None
    holder = dig(body, p.next.rpartition(".")[0]) if "." in p.next else body
    for node in (holder, body):
        if isinstance(node, dict) and any(node.get(f) is False for f in _MORE_FLAGS):
            return None
    return _with(endpoint, values, p.param, token)


def _number(values: dict[str, Any], name: str | None, start: int) -> int | None:
    value = values.get(name, start) if name else start
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _full(p: Pagination, values: dict[str, Any], items: list[Any]) -> bool:
    """Whether a page looks full (so another may follow)."""
    asked = _number(values, p.size_param, 0)
    return bool(items) and not (asked and len(items) < asked)


def _page_number(
    endpoint: Endpoint, p: Pagination, values: dict[str, Any], items: list[Any]
) -> Any:
    current = _number(values, p.param, 1)
    if p.param is None or current is None or not _full(p, values, items):
        return None
    return _with(endpoint, values, p.param, current + 1)


def _offset(
    endpoint: Endpoint, p: Pagination, values: dict[str, Any], body: Any, items: list[Any]
) -> Any:
    if p.next is not None:
        return _token(endpoint, p, values, body)
    if isinstance(body, dict) and "next_page" in body:  # Asana: an offset token
        token = dig(body, "next_page.offset")
        return _with(endpoint, values, p.param, token) if token and p.param else None
    offset = _number(values, p.param, 0)
    if p.param is None or offset is None or not _full(p, values, items):
        return None
    total = body.get("total_count") if isinstance(body, dict) else None
    if isinstance(total, int) and offset + len(items) >= total:
        return None
    return _with(endpoint, values, p.param, offset + len(items))


def _last_id(
    endpoint: Endpoint, p: Pagination, values: dict[str, Any], body: Any, items: list[Any]
) -> Any:
    """Stripe: `starting_after` the last item's id while `has_more`."""
    if not isinstance(body, dict) or body.get("has_more") is not True or not items:
        return None
    last = items[-1]
    if p.param is None or not isinstance(last, dict) or not last.get("id"):
        return None
    return _with(endpoint, values, p.param, last["id"])


def step(endpoint: Endpoint, values: dict[str, Any], response: UpstreamResponse) -> Page:
    """The items of the page `values` fetched and the values of the next one."""
    p = endpoint.pagination
    assert p is not None
    body = response.body
    items = items_of(p, body)
    link = response.headers.get("link")
    url = link_next(link)
    if p.style == "link_header" or (p.style in ("page", "cursor") and link and not p.next):
        nxt = _link(endpoint, values, url) if url else None
    elif p.style == "page":
        nxt = _page_number(endpoint, p, values, items)
    elif p.style == "offset":
        nxt = _offset(endpoint, p, values, body, items)
    elif p.next is not None:  # cursor, page_token
        nxt = _token(endpoint, p, values, body)
    else:
        nxt = _last_id(endpoint, p, values, body, items)
    return Page(items, nxt)


@dataclass
class _Share:
    """One fetched page's part of the answer."""

    values: dict[str, Any]  # the request that fetched it
    start: int  # the index of its first item in the answer


class Collector:
    """The items of every page, the caps, and the answer's `pagination` object."""

    def __init__(
        self,
        original: dict[str, Any],
        max_items: int,
        max_pages: int,
        max_bytes: int | None = None,
        fields: tuple[str, ...] | None = None,
    ) -> None:
        self.original = original  # the caller's params: `next` is what to add to them
        self.max_items, self.max_pages, self.max_bytes = max_items, max_pages, max_bytes
        self.fields = tree(fields) if fields else None
        self.items: list[Any] = []
        self.pages = 0
        self._shares: list[_Share] = []
        self._bytes = 2
        self._resume: tuple[dict[str, Any], int] | None = None  # values, items to skip

    def add(self, values: dict[str, Any], page: Page) -> dict[str, Any] | None:
        """Take a page; the values of the next request, or None to stop."""
        self.pages += 1
        items = page.items if self.fields is None else project_tree(page.items, self.fields)
        taken = self._fitting(items[: self.max_items - len(self.items)])
        self._shares.append(_Share(values, len(self.items)))
        self.items.extend(taken)
        if len(taken) < len(items):  # max_items or max_bytes reached inside this page
            self._resume = (values, len(taken))
            return None
        self._resume = (page.next, 0) if page.next is not None else None
        if page.next is None or self._capped():
            return None
        return page.next

    def _fitting(self, items: list[Any]) -> list[Any]:
        """The first of `items` while the answer is within max_bytes, the one that
        passes it included (so the cut at the end knows it was passed); the rest is
        never kept."""
        if self.max_bytes is None:
            return items
        kept = 0
        for item in items:
            if self._bytes > self.max_bytes:
                break
            self._bytes += size(item) + 1
            kept += 1
        return items if kept == len(items) else items[:kept]

    @property
    def size(self) -> int:
        """At least the bytes of `items` as JSON (exact when max_bytes is set)."""
        return self._bytes if self.max_bytes is not None else size(self.items)

    def summary_room(self) -> int:
        """Bytes the `pagination` object may take, whichever page `next` ends up at."""
        candidates = [s.values for s in self._shares]
        if self._resume is not None and self._resume[0] is not None:
            candidates.append(self._resume[0])
        longest = max((size(v) for v in candidates), default=0)
        return size(self.summary()) + longest + len(',"pagination":')

    def _capped(self) -> bool:
        return (
            len(self.items) >= self.max_items
            or self.pages >= self.max_pages
            or (self.max_bytes is not None and self._bytes > self.max_bytes)
        )

    def failed(self, values: dict[str, Any]) -> None:
        """The page `values` asked for failed: continuing means asking for it again."""
        self.pages += 1
        self._resume = (values, 0)

    def cut(self, kept: int) -> None:
        """Only the first `kept` items are returned (max_bytes): continue after them."""
        if kept >= len(self.items):
            return
        share = next(s for s in reversed(self._shares) if s.start <= kept)
        self._resume = (share.values, kept - share.start)
        del self.items[kept:]

    def summary(self) -> dict[str, Any]:
        """`{"pages", "items", "complete", "next", "skip"?}` for the answer."""
        out: dict[str, Any] = {
            "pages": self.pages,
            "items": len(self.items),
            "complete": self._resume is None,
            "next": None,
        }
        if self._resume is not None:
            values, skip = self._resume
            out["next"] = {k: v for k, v in values.items() if self.original.get(k) != v}
            if skip:
                out["skip"] = skip
        return out
