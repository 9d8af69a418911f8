"""The MCP tools' `outputSchema`s: the shape of each tool's `structuredContent`.

A successful answer is the HTTP API's JSON (docs/api.md), so these describe those
objects, listing the fields an agent reads and leaving the rest open
(`additionalProperties` unset). A refusal (`isError: true`) is the error object
`{"error","message","action_url"?}`, which MCP does not check against the schema.

An endpoint tool answers the execution envelope. Where the pinned source documents
the success answer's JSON schema (catalog.response_schemas: compact, no `$ref`, no
`required`), the envelope's `data` is that schema (`endpoint_envelope`), except in
an answer cut to the output budget (`truncated`), a paginated one (`pagination`:
`data` is the pages' items) and one whose data the gateway found off its documented
shape (`schema_mismatch`, tools.py): those leave `data` open, so a client that
checks structured content against the schema never fails a real answer. Without a
documented schema `data` is left open and the envelope is the schema.
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

# The answers whose `data` is not held to the source's schema (see the module).
MISMATCH = "schema_mismatch"
_OPEN_DATA = [{"required": ["truncated"]}, {"required": ["pagination"]}, {"required": [MISMATCH]}]


def endpoint_envelope(data: dict[str, Any] | None) -> dict[str, Any]:
    """An endpoint tool's schema: the envelope, its `data` the source's answer shape."""
    if data is None:
        return ENVELOPE
    return {
        **ENVELOPE,
        "properties": {**ENVELOPE["properties"], MISMATCH: _STR},
        "anyOf": [*_OPEN_DATA, {"properties": {"data": data}}],
    }
