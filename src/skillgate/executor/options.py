"""How one execution should run beyond its params: the request's options, checked once.

    {"dry_run": true}                     build the request, send nothing
    {"confirm": "cf_..."}                 the token a 409 confirmation_required gave
    {"paginate": {"max_items": N, "max_pages": P}}   follow the declared pagination
    {"fields": ["number", "user.login"]}  project the upstream data
    {"max_bytes": N}                      cut `data` to fit
    Idempotency-Key: K                    (a header) answer a repeat from storage

Every door (the agent API, MCP) turns its input into a `RunOptions` with `parse`
and states them with `SCHEMA` (JSON Schema, one property per option; `KEY_SCHEMA`
for the idempotency key, a header on the agent door and an argument on MCP); a
plain call is the shared `PLAIN`, which the executor tests by identity so the
common path pays nothing for the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skillgate.errors import BadRequest
from skillgate.kit.text import has_control

MAX_ITEMS = 10_000
MAX_PAGES = 100
DEFAULT_ITEMS = 1_000
DEFAULT_PAGES = 10
MAX_FIELDS = 100
MIN_BYTES = 1024
MAX_KEY_LENGTH = 255
MAX_CONFIRM = 128
MAX_PATH = 200  # one dotted path of `fields`


@dataclass(frozen=True, slots=True)
class Paginate:
    max_items: int = DEFAULT_ITEMS
    max_pages: int = DEFAULT_PAGES


@dataclass(frozen=True, slots=True)
class RunOptions:
    dry_run: bool = False
    confirm: str | None = None
    idempotency_key: str | None = None
    paginate: Paginate | None = None
    fields: tuple[str, ...] | None = None
    max_bytes: int | None = None


PLAIN = RunOptions()
# The options as JSON Schema, for every door's description of its input (the agent
# door's OpenAPI request body, MCP's run_skill): what `parse` accepts.
SCHEMA: dict[str, dict[str, Any]] = {
    "dry_run": {
        "type": "boolean",
        "description": "Build the request and show it (credentials redacted); send nothing",
    },
    "confirm": {
        "type": "string",
        "description": "The token a confirmation_required answer gave, to run that call",
    },
    "paginate": {
        "type": "object",
        "properties": {
            "max_items": {"type": "integer", "minimum": 1, "maximum": MAX_ITEMS},
            "max_pages": {"type": "integer", "minimum": 1, "maximum": MAX_PAGES},
        },
        "additionalProperties": False,
        "description": "Follow the endpoint's pages up to these caps",
    },
    "fields": {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 1,
        "maxItems": MAX_FIELDS,
        "description": "Keep only these dotted paths of data, e.g. number, user.login",
    },
    "max_bytes": {
        "type": "integer",
        "minimum": MIN_BYTES,
        "description": "Cut data to fit this many bytes (truncated: true)",
    },
}
NAMES = frozenset(SCHEMA)
KEY_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_KEY_LENGTH,
    "description": "Repeats with the same key are answered from the first call",
}


def _count(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{field}: must be a whole number from {low} to {high}.")
    return value


def _paginate(value: Any) -> Paginate | None:
    if value is None or value is False:
        return None
    if value is True:
        return Paginate()
    if not isinstance(value, dict):
        raise BadRequest('paginate: must be an object {"max_items": N, "max_pages": P}.')
    unknown = sorted(set(value) - {"max_items", "max_pages"})
    if unknown:
        raise BadRequest(f"paginate.{unknown[0][:64]}: unknown; use max_items and max_pages.")
    items = value.get("max_items", DEFAULT_ITEMS)
    pages = value.get("max_pages", DEFAULT_PAGES)
    return Paginate(
        _count(items, "paginate.max_items", 1, MAX_ITEMS),
        _count(pages, "paginate.max_pages", 1, MAX_PAGES),
    )


def _fields(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):  # "number,title" as the CLI writes it
        value = [part.strip() for part in value.split(",")]
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_FIELDS:
        raise BadRequest(f"fields: must be a list of 1 to {MAX_FIELDS} dotted paths.")
    out: list[str] = []
    for path in value:
        if (
            not isinstance(path, str)
            or not path
            or len(path) > MAX_PATH
            or has_control(path)
            or "" in path.split(".")
        ):
            raise BadRequest(
                f"fields: {str(path)[:64]!r} is not a dotted path such as 'user.login'."
            )
        out.append(path)
    return tuple(out)


def idempotency_key(value: str | None) -> str | None:
    """The Idempotency-Key header's value, checked (printable ASCII, 1..255)."""
    if value is None:
        return None
    if not 1 <= len(value) <= MAX_KEY_LENGTH or not all(" " <= c <= "~" for c in value):
        raise BadRequest(
            f"Idempotency-Key: must be 1 to {MAX_KEY_LENGTH} printable ASCII characters."
        )
    return value


def parse(data: dict[str, Any], key: str | None = None, max_bytes_cap: int = 0) -> RunOptions:
    """The options of a request body (its other fields are the caller's), checked;
    `PLAIN` when there are none. `max_bytes_cap`: the largest allowed (the upstream cap)."""
    if key is None and NAMES.isdisjoint(data):
        return PLAIN
    dry_run = data.get("dry_run", False)
    if not isinstance(dry_run, bool):
        raise BadRequest("dry_run: must be true or false.")
    confirm = data.get("confirm")
    if confirm is not None and (
        not isinstance(confirm, str) or not 1 <= len(confirm) <= MAX_CONFIRM or has_control(confirm)
    ):
        raise BadRequest("confirm: must be the token string a confirmation_required answer gave.")
    max_bytes = data.get("max_bytes")
    if max_bytes is not None:
        max_bytes = _count(max_bytes, "max_bytes", MIN_BYTES, max(max_bytes_cap, MIN_BYTES))
    options = RunOptions(
        dry_run=dry_run,
        confirm=confirm,
        idempotency_key=idempotency_key(key),
        paginate=_paginate(data.get("paginate")),
        fields=_fields(data.get("fields")),
        max_bytes=max_bytes,
    )
    return PLAIN if options == PLAIN else options
