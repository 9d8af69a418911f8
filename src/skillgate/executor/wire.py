"""Arrays and objects in a query string or a form body, as the catalog's `style` says.

A parameter's value becomes (key, text) pairs:

| style        | array of scalars        | object / array of objects                   |
|--------------|-------------------------|---------------------------------------------|
| `deepObject` | `tags[]=a&tags[]=b`     | `metadata[k]=v`, `items[0][price]=p`        |
| `form`       | `tags=a&tags=b`         | JSON text                                   |
| unset        | query: `tags=a&tags=b`; | JSON text (Slack's `blocks` in a form body, |
|              | form body: JSON text    | an OpenAPI `content` query parameter)       |

`deepObject` is the bracket syntax Stripe documents and its own clients send
(OpenAPI `style: deepObject, explode: true`; the spec leaves arrays in it open):
scalars in an array take `[]`, an array holding objects numbers its items so
each object's fields stay together (`line_items[0][price]`,
`line_items[0][quantity]`); an empty object or array, or a null inside one, is
`key=` (Stripe: "posting an empty value" unsets it). Scalars are text as
everywhere: `true`/`false`, numbers as JSON writes them.
"""

from __future__ import annotations

import json
from typing import Any

Pairs = list[tuple[str, str]]


def text(value: Any) -> str:
    """One value as text: strings as they are, booleans as JSON, objects as JSON text."""
    if type(value) is str:  # the usual case first
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if value is None:
        return ""
    return str(value)


def _deep(key: str, value: Any, out: Pairs) -> None:
    if isinstance(value, dict):
        if not value:
            out.append((key, ""))
        for sub, inner in value.items():
            _deep(f"{key}[{sub}]", inner, out)
    elif isinstance(value, list):
        if not value:
            out.append((key, ""))
        elif any(isinstance(v, dict | list) for v in value):
            for i, inner in enumerate(value):
                _deep(f"{key}[{i}]", inner, out)
        else:
            out.extend((f"{key}[]", text(v)) for v in value)
    else:
        out.append((key, text(value)))


def pairs(key: str, value: Any, style: str | None, *, repeat: bool) -> Pairs:
    """The (key, text) pairs of one parameter; `repeat`: an unstyled array of scalars is
    repeated keys (the query string's default) rather than JSON text (a form body's)."""
    if style == "deepObject" and isinstance(value, dict | list):
        out: Pairs = []
        _deep(key, value, out)
        return out
    if isinstance(value, list) and (style == "form" or repeat):
        return [(key, text(v)) for v in value]
    return [(key, text(value))]
