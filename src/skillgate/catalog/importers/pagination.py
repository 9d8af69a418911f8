"""Recognise how an operation pages its results (documentation for the agent).

Rules (both importers), first match wins, on the query parameters' wire names
and the success response's schema:
- page token (Google): `pageToken` (or `page_token`) and `nextPageToken` (or
  `next_page_token`) in the response -> `page_token`, next = that field, size
  = `maxResults`, `pageSize`, `page_size` or `limit`;
- page number (GitHub): `page` with `per_page` -> `link_header` when the
  response declares a `Link` header, else `page`; size = `per_page` with its
  schema `maximum` (or the "max N" its description states) as `max_size`;
- cursor: `cursor`, `start_cursor`, `starting_after`, `page_cursor` or
  `next_cursor` -> `cursor`, with next = the response field that carries the
  next cursor when one is recognisable (`next_cursor`, `nextCursor`,
  `response_metadata.next_cursor`, `cursor`, `next`); `after` the same when the
  response has such a field;
- offset: `offset` with `limit` (or `count`) -> `offset`;
- a `Link` header with any size parameter -> `link_header`.

`items` (where a page's item list is) is set when the response is an object
with one array property, or several of which one is named `items`, `data`,
`entries` or `results` (Box's `entries` beside its `order`); a response that is
itself an array needs none.
"""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers.params import Param
from skillgate.catalog.importers.source import Schema, SourceParam

_SIZES = ("maxResults", "pageSize", "page_size", "per_page", "limit", "count", "max_results")
_CURSORS = ("cursor", "start_cursor", "starting_after", "page_cursor", "next_cursor")
_NEXT_CURSOR = (
    "next_cursor",
    "nextCursor",
    "response_metadata.next_cursor",
    "meta.next_cursor",
    "cursor",
    "next",
)
_ITEM_LISTS = ("items", "data", "entries", "results")


def response_fields(result: Schema | None) -> set[str]:
    """Top-level property names of a response schema, plus one nested level (`a.b`)."""
    top = sch.merged(result)
    fields: set[str] = set()
    for name, prop in (top.get("properties") or {}).items():
        fields.add(name)
        for sub in (sch.merged(prop).get("properties") or {}) if isinstance(prop, dict) else ():
            fields.add(f"{name}.{sub}")
    return fields


def item_list(result: Schema | None) -> str | None:
    """The array property holding a page's items, when the schema makes it clear."""
    arrays: list[str] = [
        str(name)
        for name, prop in (sch.merged(result).get("properties") or {}).items()
        if isinstance(prop, dict) and sch.plain_type(sch.merged(prop)) == "array"
    ]
    if len(arrays) == 1:
        return arrays[0]
    return next((name for name in _ITEM_LISTS if name in arrays), None)


def recognise(
    sources: list[SourceParam], params: list[Param], result: Schema | None, link_header: bool
) -> dict[str, Any] | None:
    """The catalog `pagination` mapping for an operation, or None."""
    query = {p.wire: p for p in params if p.location == "query"}
    raw = {s.wire: s for s in sources if s.location == "query"}
    fields = response_fields(result)
    size = next((w for w in _SIZES if w in query), None)

    items = item_list(result)

    def page(style: str, param: str, next_field: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"style": style, "param": query[param].name}
        if next_field:
            out["next"] = next_field
        if items is not None:
            out["items"] = items
        if size is not None:
            out["size_param"] = query[size].name
            source = raw.get(size)
            top = sch.maximum(sch.merged(source.schema), source.description) if source else None
            if top is not None and top > 0:
                out["max_size"] = top
        return out

    for token in ("pageToken", "page_token"):
        if token in query:
            found = next((f for f in ("nextPageToken", "next_page_token") if f in fields), None)
            if found:
                return page("page_token", token, found)
    if "page" in query and "per_page" in query:
        size = "per_page"
        return page("link_header" if link_header else "page", "page")
    next_cursor = next((f for f in _NEXT_CURSOR if f in fields), None)
    for cursor in _CURSORS:
        if cursor in query:
            return page("cursor", cursor, next_cursor)
    if "after" in query and (next_cursor or link_header):
        return page("link_header" if link_header else "cursor", "after", next_cursor)
    if "offset" in query and size in ("limit", "count"):
        return page("offset", "offset")
    if link_header and size is not None:
        out = {"style": "link_header", "size_param": query[size].name}
        return out | ({"items": items} if items is not None else {})
    return None
