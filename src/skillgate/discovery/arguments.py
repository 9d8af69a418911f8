"""The search's arguments, defined once for every door: their JSON Schemas (the agent
door's OpenAPI query parameters, MCP's search_skills input) and the one check of
their values, whose product (`SearchArgs`) is what `Discovery.search` takes.

A door reads its own wire format into Python values first (the agent door a query
string, where `limit` is text; MCP JSON arguments, where a wrong type is a JSON-RPC
error) and passes them to `checked`. A value outside its bounds is `OutOfBounds`,
a 400 naming the argument; it carries the bounds so a door may word it its own way
(MCP answers it as a JSON-RPC error).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skillgate.catalog.models import SLUG_MAX
from skillgate.discovery.search import MAX_LIMIT
from skillgate.errors import BadRequest
from skillgate.kit import text

MAX_QUERY = 200
DEFAULT_LIMIT = 10
QUERY: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_QUERY}
INTEGRATION: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": SLUG_MAX}
LIMIT: dict[str, Any] = {
    "type": "integer",
    "minimum": 1,
    "maximum": MAX_LIMIT,
    "default": DEFAULT_LIMIT,
}


@dataclass(frozen=True, slots=True)
class SearchArgs:
    """A search's arguments, checked (made by `checked`)."""

    query: str
    integration: str | None = None
    limit: int = DEFAULT_LIMIT


class OutOfBounds(BadRequest):
    """An argument's length (text) or value (a number) outside `low..high`."""

    def __init__(self, message: str, field: str, low: int, high: int) -> None:
        super().__init__(message)
        self.field, self.low, self.high = field, low, high


def _text(name: str, value: str, high: int) -> str:
    """`value` of 1 to `high` characters, without control characters."""
    if len(value) > high:
        raise OutOfBounds(f"{name}: String should have at most {high} characters.", name, 1, high)
    text.check(name, value)
    if not value:
        raise OutOfBounds(f"{name}: String should have at least 1 character.", name, 1, high)
    return value


def query(value: str, name: str = "query") -> str:
    """The query: 1 to MAX_QUERY characters, not only white space. `name` is what the
    door calls it (`q` in the agent door's query string)."""
    if not value.strip():
        message = f"{name}: String should have at least 1 non-blank character."
        if value:  # not too short: blank
            _text(name, value, MAX_QUERY)
            raise BadRequest(message)
        raise OutOfBounds(message, name, 1, MAX_QUERY)
    return _text(name, value, MAX_QUERY)


def integration(value: str | None) -> str | None:
    """Only this integration's endpoints: a slug's length (an unknown one is a 404)."""
    return None if value is None else _text("integration", value, SLUG_MAX)


def limit(value: int) -> int:
    if value < 1:
        message = "limit: Input should be greater than or equal to 1."
        raise OutOfBounds(message, "limit", 1, MAX_LIMIT)
    if value > MAX_LIMIT:
        message = f"limit: Input should be less than or equal to {MAX_LIMIT}."
        raise OutOfBounds(message, "limit", 1, MAX_LIMIT)
    return value


def checked(
    query_text: str,
    slug: str | None = None,
    most: int = DEFAULT_LIMIT,
    *,
    query_name: str = "query",
) -> SearchArgs:
    """The three arguments checked, in this order (a door whose wire format types
    `limit` late checks them one by one: `query`, `integration`, `limit`)."""
    return SearchArgs(query(query_text, query_name), integration(slug), limit(most))
