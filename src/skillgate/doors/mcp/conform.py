"""An endpoint tool's answer held to the output schema it declares.

An endpoint tool whose source documents its answer declares that shape as the
envelope's `data` (outputs.endpoint_envelope), and the MCP specification asks a
server to send structured content that conforms; clients check it (the official
SDKs raise on a mismatch). A provider's answer may stray from its own document (a
field it calls an integer comes as a string, a `null` it does not mention), so
before answering, the door checks `data` against the schema and, on a mismatch,
says so in the answer: `schema_mismatch` names the first place and why, and the
schema admits such an answer with `data` left open. The data itself is never
changed. Answers cut to the output budget or paginated are not checked (their
`data` is open too), nor refusals and upstream errors (`isError`).

The check is written here, not `jsonschema`'s: a compact schema uses three keywords
(`type`, `properties`, `items`: importers.responses), and the library took ~8 ms for
30 GitHub issues (21 KB), 40 times the call's own CPU; this walk over a compiled form
(each node's allowed Python types) takes 0.3 ms. It follows JSON Schema's meaning of
each type (an integer may be written `1.0`; a boolean is not a number), and a test
holds it to `jsonschema` on the shipped schemas.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson

from skillgate.catalog import response_schemas
from skillgate.catalog.models import Endpoint
from skillgate.doors.mcp.outputs import MISMATCH

_MAX_SHOWN = 60
# The Python types orjson decodes each JSON Schema type to (a bool is not an int here:
# `type(True) is bool`); an integer may also be a float with no fraction.
_PY: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "object": (dict,),
    "array": (list,),
}


@dataclass(frozen=True, slots=True)
class _Node:
    """A compact schema ready to check against: the allowed Python types (None: any)."""

    kinds: tuple[str, ...]
    types: frozenset[type] | None
    whole_floats: bool  # "integer" without "number": a float must have no fraction
    properties: tuple[tuple[str, _Node], ...]
    items: _Node | None


def compile_schema(schema: dict[str, Any]) -> _Node:
    kind = schema.get("type")
    kinds = tuple([kind] if isinstance(kind, str) else kind or [])
    types = frozenset(t for k in kinds for t in _PY.get(k, ())) if kinds else None
    props = schema.get("properties") or {}
    items = schema.get("items")
    return _Node(
        kinds,
        types,
        "integer" in kinds and "number" not in kinds,
        tuple((name, compile_schema(sub)) for name, sub in props.items()),
        compile_schema(items) if items is not None else None,
    )


def _shown(value: Any) -> str:
    try:
        shown = orjson.dumps(value).decode()
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        shown = repr(value)
    return shown if len(shown) <= _MAX_SHOWN else shown[:_MAX_SHOWN] + "..."


def _mismatch(node: _Node, value: Any, where: str) -> str | None:
    kind = type(value)
    whole = node.whole_floats and kind is float and value.is_integer()
    if node.types is not None and kind not in node.types and not whole:
        return f"{where}: {_shown(value)} is not of type {' or '.join(node.kinds)}"
    if node.properties and kind is dict:
        for name, sub in node.properties:
            if name in value:
                found = _mismatch(sub, value[name], f"{where}.{name}")
                if found is not None:
                    return found
    if node.items is not None and kind is list:
        for i, item in enumerate(value):
            found = _mismatch(node.items, item, f"{where}[{i}]")
            if found is not None:
                return found
    return None


def mismatch(schema: dict[str, Any] | _Node, value: Any) -> str | None:
    """The first place `value` (as orjson decodes JSON) strays from a compact schema,
    and why; None if it fits."""
    node = schema if isinstance(schema, _Node) else compile_schema(schema)
    return _mismatch(node, value, "data")


@lru_cache(maxsize=1024)
def _compiled(slug: str, key: str) -> _Node | None:
    schema = response_schemas.schema_by_key(slug, key)
    return compile_schema(schema) if schema is not None else None


def checked(body: bytes, slug: str, endpoint: Endpoint) -> bytes:
    """A successful answer's JSON, with `schema_mismatch` when its data strays from the
    shape the endpoint tool declares (the same bytes when it does not, or declares none)."""
    node = _compiled(slug, response_schemas.key(endpoint))
    if node is None:
        return body
    envelope = orjson.loads(body)
    if not isinstance(envelope, dict) or "data" not in envelope:
        return body
    if "truncated" in envelope or "pagination" in envelope:
        return body
    found = mismatch(node, envelope["data"])
    if found is None:
        return body
    envelope[MISMATCH] = found
    return orjson.dumps(envelope)
