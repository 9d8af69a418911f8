"""Lossless coercion of `params` to the catalog's declared types.

Used by the executor on every call and by the catalog validator on every
example, so what an example shows is exactly what the server accepts.
"""

from __future__ import annotations

import json
from typing import Any

from skillgate.catalog.models import Parameter
from skillgate_cli.params import parse_number

_BOOL_TEXT = {"true": True, "false": False}


class CoercionError(ValueError):
    """A value that cannot become the declared type without losing information."""


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null"


def coerce_scalar(type_: str, value: Any) -> Any:
    if type_ == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            # `svc run ... --title` (a bare flag) sends true: never file an issue titled "true".
            raise CoercionError(
                "expected a string, got a boolean: a bare flag means true; give it a value"
            )
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            return repr(value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value) and value:
            # The CLI splits "Hello, world" on commas; join it back.
            return ",".join(value)
    elif type_ == "number":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            number = parse_number(value.strip())
            if number is not None:
                return number
    elif type_ == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _BOOL_TEXT:
            return _BOOL_TEXT[value.lower()]
    elif type_ == "object":
        if isinstance(value, dict):
            return value
        if isinstance(value, str):
            try:
                parsed = json.loads(value)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                return parsed
    raise CoercionError(f"expected {_article(type_)}, got {_describe(value)}")


def _article(type_: str) -> str:
    return f"an {type_}" if type_[0] in "aeiou" else f"a {type_}"


_KINDS = {"a boolean": "boolean", "a number": "number", "a string": "string"}
_KINDS.update({"an array": "array", "an object": "object"})


def coerce(param: Parameter, value: Any) -> Any:
    """The value as `param` declares it; CoercionError says why it cannot be.

    A value whose own type is one of the other types the source accepts (`also`: a
    union) is kept as it is; anything else is made the declared `type`."""
    if value is None:
        raise CoercionError(f"expected {_article(param.type)}, got null")
    if param.also:
        kind = _KINDS.get(_describe(value))
        if kind in param.also:
            return value
        try:
            return _coerce_declared(param, value)
        except CoercionError:
            kinds = " or ".join(_article(k) for k in (param.type, *param.also))
            raise CoercionError(f"expected {kinds}, got {_describe(value)}") from None
    return _coerce_declared(param, value)


def _coerce_declared(param: Parameter, value: Any) -> Any:
    if param.type == "array":
        if isinstance(value, str):
            try:
                parsed = json.loads(value) if value.lstrip().startswith("[") else None
            except ValueError:
                parsed = None
            value = parsed if isinstance(parsed, list) else [value]
        elif not isinstance(value, list):
            value = [value]
        if param.items is not None:
            value = [coerce_scalar(param.items, v) for v in value]
        result: Any = value
    else:
        result = coerce_scalar(param.type, value)
    if param.enum is not None and result not in param.enum:
        choices = ", ".join(json.dumps(e) for e in param.enum)
        raise CoercionError(f"must be one of {choices}")
    return result
