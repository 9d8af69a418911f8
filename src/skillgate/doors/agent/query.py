"""Query parameters of the agent door's routes, checked like the account door's:
a bad value is a 400 naming the parameter; unknown parameters are ignored."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from skillgate.errors import BadRequest
from skillgate.kit import text


def parse(raw: bytes) -> dict[str, str]:
    """A query string's names and values, as `urllib.parse.parse_qsl` reads them
    (`&`-separated, `+` a space, %-escapes UTF-8, blank values kept, an item without
    `=` a blank value) in a third of its time: it runs on every discovery request.
    The last value wins when a name repeats (as on the account door)."""
    values: dict[str, str] = {}
    if raw:
        for item in raw.decode("latin-1").split("&"):
            if item:
                name, _, value = item.partition("=")
                values[unquote_plus(name)] = unquote_plus(value)
    return values


class Query:
    def __init__(self, raw: bytes) -> None:
        self._values = parse(raw)

    def integer(
        self, name: str, default: int, low: int | None = None, high: int | None = None
    ) -> int:
        """The parameter as a whole number, `default` when absent; bounds checked when
        given (a door whose service checks them passes none)."""
        value = self._values.get(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise BadRequest(f"{name}: Input should be a valid integer.") from None
        if low is not None and number < low:
            raise BadRequest(f"{name}: Input should be greater than or equal to {low}.")
        if high is not None and number > high:
            raise BadRequest(f"{name}: Input should be less than or equal to {high}.")
        return number

    def get(self, name: str) -> str | None:
        """The parameter as sent (None when absent), unchecked."""
        return self._values.get(name)

    def required(self, name: str) -> str:
        """The parameter as sent, unchecked; a 400 when it is missing."""
        value = self._values.get(name)
        if value is None:
            raise BadRequest(f"{name}: Field required.")
        return value

    def text(self, name: str, max_length: int) -> str | None:
        value = self._values.get(name)
        if value is None:
            return None
        if len(value) > max_length:
            raise BadRequest(f"{name}: String should have at most {max_length} characters.")
        return text.check(name, value)

    def choice(self, name: str, options: tuple[str, ...]) -> str | None:
        value = self._values.get(name)
        if value is None:
            return None
        if value not in options:
            shown = " or ".join(repr(o) for o in options)
            raise BadRequest(f"{name}: Input should be {shown}.")
        return value


def described(name: str, schema: dict[str, Any], *, required: bool = False) -> dict[str, Any]:
    """A query parameter as /openapi.json shows it (optional unless `required`)."""
    return {"name": name, "in": "query", "required": required, "schema": schema}
