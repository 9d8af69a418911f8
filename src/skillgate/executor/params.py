"""Validate `params` against the catalog and coerce them losslessly.

Every problem is reported at once, each naming its parameter (and, for an
unknown name, the closest valid one).
"""

from __future__ import annotations

import difflib
from typing import Any

from skillgate.catalog.coerce import CoercionError, coerce
from skillgate.catalog.models import Endpoint
from skillgate.errors import BadRequest


def validate(endpoint: Endpoint, params: Any) -> dict[str, Any]:
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise BadRequest("params: must be an object of parameter names to values.")
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
        if value is None:
            if param.required:
                problems.append(f"{name}: is required and cannot be null")
            continue  # an explicit null for an optional parameter means "not given"
        try:
            values[name] = coerce(param, value)
        except CoercionError as exc:
            problems.append(f"{name}: {exc}")
    for param in endpoint.parameters:
        if param.required and param.name not in params:
            problems.append(f"{param.name}: is required ({param.description.rstrip('.')})")
    if problems:
        known = ", ".join(p.name for p in endpoint.parameters) or "none"
        raise BadRequest(
            "Invalid params: " + "; ".join(problems) + f". Parameters of {endpoint.name}: {known}."
        )
    return values
