"""The `example` of an endpoint, generated from its parameters.

The example is always a valid `svc run` line: the catalog validator parses it
back with the CLI's own parser and checks it yields the declared values.
"""

from __future__ import annotations

import json
import re
from typing import Any

from skillgate.catalog.models import Endpoint, Parameter

_BARE_RE = re.compile(r"^[A-Za-z0-9_./:@+-]+$")


def _quote(text: str) -> str:
    if text and _BARE_RE.match(text) and not text.startswith("-"):
        return text
    if "'" not in text:
        return (
            "'" + text + "'"
            if ('"' in text or "$" in text or "`" in text or "\\" in text)
            else ('"' + text + '"')
        )
    return "'" + text.replace("'", "'\"'\"'") + "'"


def render_value(param: Parameter, value: Any) -> str | None:
    """The argument text for `value`, or None when the bare flag says it (true)."""
    if isinstance(value, bool):
        return None if value else "false"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return _quote(value)
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, str) and v and "," not in v for v in value)
    ):
        return _quote(",".join(value))
    return "'" + json.dumps(value, separators=(",", ":")).replace("'", "'\"'\"'") + "'"


def example_params(endpoint: Endpoint) -> list[tuple[Parameter, Any]]:
    """Required parameters and optional ones that carry an example, in order."""
    chosen: list[tuple[Parameter, Any]] = []
    for p in endpoint.parameters:
        if p.example is not None:
            chosen.append((p, p.example))
    return chosen


def build_example(slug: str, endpoint: Endpoint) -> str:
    parts = ["svc", "run", slug, endpoint.name]
    for param, value in example_params(endpoint):
        parts.append(f"--{param.name}")
        text = render_value(param, value)
        if text is not None:
            parts.append(text)
    return " ".join(parts)
