"""Text inputs without control characters, in one place.

PostgreSQL refuses NUL in text (a 500 if it got that far) and no name, email,
slug, id, code or token of this product has a use for a control character, so
every text input is checked before it reaches a service:

    check(field, value)          raise BadRequest naming the field
    check_all(arguments)         `check` each text value of a call's arguments (the
                                 agent door's path parameters, an MCP tool's arguments)
    Text, Secret                 the same as pydantic `Annotated` string types, for
                                 JSON bodies and query/path parameters (400 via the
                                 validation handler, naming the field)

Control characters are Unicode category Cc (U+0000-U+001F, U+007F-U+009F) plus
lone surrogates (which no database can store). Secrets (passwords) may hold
anything but NUL and lone surrogates.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from skillgate.errors import BadRequest

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_NUL = re.compile("[\x00\ud800-\udfff]")
CONTROL_MESSAGE = "must not contain control characters (NUL, line breaks, tabs, ...)"
NUL_MESSAGE = "must not contain NUL characters"


def has_control(value: str) -> bool:
    return _CONTROL.search(value) is not None


def check(field: str, value: str, *, secret: bool = False) -> str:
    """`value`, or 400 `{field}: must not contain ...` (for a secret: NUL only)."""
    if (_NUL if secret else _CONTROL).search(value) is not None:
        raise BadRequest(f"{field}: {NUL_MESSAGE if secret else CONTROL_MESSAGE}.")
    return value


def check_all(arguments: Mapping[str, object]) -> None:
    """`check` every text value of `arguments` (400 naming the first bad one). Values of
    other types (numbers, an endpoint's `params` object) are left to their own checks."""
    for field, value in arguments.items():
        if isinstance(value, str):
            check(field[:64], value)


def _text(value: str) -> str:
    if _CONTROL.search(value) is not None:
        raise PydanticCustomError("control_character", CONTROL_MESSAGE)
    return value


def _secret(value: str) -> str:
    if _NUL.search(value) is not None:
        raise PydanticCustomError("control_character", NUL_MESSAGE)
    return value


Text = Annotated[str, AfterValidator(_text)]
Secret = Annotated[str, AfterValidator(_secret)]
