"""The MCP tools' `outputSchema`s: the shape of each tool's `structuredContent`.

A successful answer is the HTTP API's JSON (docs/api.md), so these describe those
objects, listing the fields an agent reads and leaving the rest open
(`additionalProperties` unset). A refusal (`isError: true`) is the error object
`{"error","message","action_url"?}`, which MCP does not check against the schema.

An endpoint tool answers the execution envelope: the compiled catalog keeps each
endpoint's parameters and errors but not its response body schema (the importers
drop it, docs/decisions.md), so `data` is left open and the envelope is the schema.
"""

from __future__ import annotations

from typing import Any

_STR = {"type": "string"}
_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}


# A refusal's error object: some clients (the Inspector's TypeScript SDK) check even an
# `isError` result's structured content against the schema, so every schema admits it
# (`{"error","message","action_url"?}`; its fields are not spelled out, to keep the
# tool list short: the schemas are in every client's context).
_REFUSAL = {"required": ["error", "message"]}


def _object(required: list[str], **properties: Any) -> dict[str, Any]:
    """An answer with `required`, or a refusal."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["anyOf"] = [{"required": required}, _REFUSAL]
    return schema


def _item(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_STATUS = {"type": "string", "enum": ["connected", "not_connected"]}

LISTING = _object(
    ["integrations"],
    integrations={
        "type": "array",
        "items": _item(
            ["slug", "name", "status"],
            slug=_STR,
            name=_STR,
            status=_STATUS,
            endpoints=_INT,
        ),
    },
)

SEARCH = _object(
    ["results", "no_match"],
    no_match=_BOOL,
    results={
        "type": "array",
        "items": _item(
            ["integration", "name", "method", "path"],
            integration=_STR,
            name=_STR,
            method=_STR,
            path=_STR,
            category=_STR,
            match={"type": "number"},
            status=_STATUS,
        ),
    },
)

SKILL = _object(
    ["name", "method", "path", "parameters"],
    integration=_STR,
    name=_STR,
    method=_STR,
    path=_STR,
    parameters={"type": "array", "items": {"type": "object"}},
)

# The execution envelope (DESIGN): `{"status","data"}` from the upstream, cut to the
# budget with `truncated`/`bytes`/`omitted`; a dry run's `{"dry_run","request"}`.
ENVELOPE = _object(
    [],
    status=_INT,
    data={},
    truncated=_BOOL,
    bytes=_INT,
    omitted=_INT,
    pagination={"type": "object"},
    dry_run=_BOOL,
    request={"type": "object"},
)
