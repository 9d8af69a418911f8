"""Validate `params` against the catalog and coerce them losslessly.

Every problem is reported at once, each naming its parameter (and, for an
unknown name, the closest valid one).

`as_typed` (optional, from the request body) maps a parameter name to the exact
text the user typed for it (`svc run ... --zip 007`). The CLI guesses a type
for `params` (`007` -> 7 is not round-trippable so it stays "007", but `1e3`,
`true`, `{"k": 1}` do change); when the endpoint declares that parameter a
`string` and `params` also names it, the typed text is used instead, so text
arrives as typed whether or not the CLI knew the types; so is a file parameter's when
the CLI's guess has no file's form (`--file "Bake sale: Saturday"` read as a mapping).
Ignored otherwise.

Overlapping body parameters (Calendar's `start`, an object, and `start_date`,
`maps_to: start.date`) are merged as the body's shape defines: the fields go
into the object (`request.build`); a field given both ways, or inside a `start`
that is not an object, is refused naming both, so no value is silently dropped.

A parameter a connection variable fills (catalog.fills: Twilio's `AccountSid`) and
the call leaves out takes the connection's value (`from_connection`), before the key's
policy, a dry run or an approval sees the values: they show what is sent.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from skillgate.catalog import hosts
from skillgate.catalog.coerce import CoercionError, coerce
from skillgate.catalog.models import Endpoint, Integration
from skillgate.errors import BadRequest
from skillgate.executor.uploads import DEFAULT_MAX_UPLOAD_BYTES, has_file_form, upload


def _typed_texts(as_typed: Any) -> dict[str, str]:
    if as_typed is None:
        return {}
    if not isinstance(as_typed, dict) or not all(isinstance(v, str) for v in as_typed.values()):
        raise BadRequest(
            "as_typed: must be an object of parameter names to the text typed for them."
        )
    return as_typed


def _inside(value: Any, keys: list[str]) -> bool:
    """Whether `value` (a whole object) already holds the dotted path `keys`, or is
    no object at all (the part could not go into it)."""
    for key in keys:
        if not isinstance(value, dict):
            return True
        if key not in value:
            return False
        value = value[key]
    return True


def _overlaps(endpoint: Endpoint, values: dict[str, Any]) -> list[str]:
    """A problem for each body field given both whole and on its own."""
    given = [p for p in endpoint.parameters if p.location == "body" and p.name in values]
    if len(given) < 2:
        return []
    problems: list[str] = []
    for whole in given:
        prefix = whole.wire_name + "."
        for part in given:
            if part.wire_name.startswith(prefix) and _inside(
                values[whole.name], part.wire_name[len(prefix) :].split(".")
            ):
                problems.append(
                    f"{whole.name} and {part.name}: both give {part.wire_name}; give one of them"
                )
    return problems


def validate(
    endpoint: Endpoint,
    params: Any,
    as_typed: Any = None,
    upload_cap: int = DEFAULT_MAX_UPLOAD_BYTES,
) -> dict[str, Any]:
    """The params as the endpoint declares them; one 400 naming every problem (a file
    over `upload_cap` bytes: 413 naming it, executor.uploads)."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadRequest("params: must be an object of parameter names to values.")
    typed = _typed_texts(as_typed)
    declared = {p.name: p for p in endpoint.parameters}
    problems: list[str] = []
    values: dict[str, Any] = {}
    for name, value in params.items():
        param = declared.get(name)
        if param is None:
            hint = difflib.get_close_matches(str(name), list(declared), n=1, cutoff=0.6)
            shown = str(name)[:64]
            problems.append(
                f"unknown parameter {shown!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
            )
            continue
        if value == "null" and param.nullable and "string" not in (param.type, *param.also):
            value = None  # `svc run ... --milestone null` without the types cached
        if value is None:
            if param.nullable:
                values[name] = None  # the source accepts null: it is sent (clears the field)
            elif param.required:
                problems.append(f"{name}: is required and cannot be null")
            continue  # an explicit null for an optional parameter means "not given"
        if param.file:
            if name in typed and not has_file_form(value):  # text the CLI read as a mapping, ...
                value = typed[name]  # ("Bake sale: Saturday"): the text as typed
            upload(param, value, upload_cap)  # 400/413 naming it; sent as given
            values[name] = value
            continue
        if param.type == "string" and name in typed:
            value = typed[name]  # the text as typed beats the CLI's guess
        try:
            values[name] = coerce(param, value)
        except CoercionError as exc:
            problems.append(f"{name}: {exc}")
    for param in endpoint.parameters:
        if param.required and param.name not in params:
            problems.append(f"{param.name}: is required ({param.description.rstrip('.')})")
    problems.extend(_overlaps(endpoint, values))
    if problems:
        known = ", ".join(p.name for p in endpoint.parameters) or "none"
        raise BadRequest(
            "Invalid params: " + "; ".join(problems) + f". Parameters of {endpoint.name}: {known}."
        )
    return values


def unfilled(endpoint: Endpoint, values: Mapping[str, Any]) -> bool:
    """Whether the call left out a parameter its connection fills."""
    return any(p.from_connection and p.name not in values for p in endpoint.parameters)


def from_connection(
    integration: Integration,
    endpoint: Endpoint,
    values: dict[str, Any],
    variables: Mapping[str, str],
    username: str | None,
) -> dict[str, Any]:
    """`values` with each parameter the connection fills that the call left out taken
    from the connection's variable (or, for a `from_username` one, its Basic username);
    400 naming the parameter when the connection has none."""
    declared = {v.name: v for v in integration.variables}
    filled = dict(values)
    for param in endpoint.parameters:
        if not param.from_connection or param.name in values:
            continue
        var = declared[param.from_connection]
        value = variables.get(var.name) or hosts.from_username(var, username)
        if not value:
            raise BadRequest(
                f"{param.name}: not given, and this {integration.name} connection has no "
                f"{var.label} (variables.{var.name}) to fill it; give {param.name}, or "
                f"reconnect {integration.name} with the {var.label}."
            )
        try:
            filled[param.name] = coerce(param, value)
        except CoercionError as exc:
            raise BadRequest(f"{param.name}: the connection's {var.label}: {exc}") from None
    return filled
