"""The success response's JSON schema, compacted: the shape an endpoint tool declares.

An importer hands over the 2xx JSON schema with every `$ref` resolved (a recursive
schema is a dict that contains itself). `compact` keeps what tells an agent the
answer's shape, as plain JSON Schema with no `$ref`, and nothing a real answer
could fail for reasons the shape does not care about:

- kept: `type` (OpenAPI 3.0 `nullable: true` and Swagger's `x-nullable` add
  `"null"`; 3.1 type lists as written), `properties`, `items`;
  `allOf` is merged into one object (its properties' union; a property two
  parts describe differently is left open), `oneOf`/`anyOf` likewise when every
  branch is an object, else their scalar types as a type list, else open;
- left out: `required` and `additionalProperties` (providers leave documented
  fields out and add new ones), `enum` (providers add values), `format`,
  descriptions, examples, every keyword of the OpenAPI dialect (`discriminator`,
  `readOnly`, `xml`, `x-*`); Google's `type: any` is open;
- bounded: at most `MAX_DEPTH` levels of nesting, the first `MAX_PROPERTIES`
  properties of an object in the document's order (the others stay allowed, just
  not described), and `MAX_BYTES` of JSON in all, else the first `NARROW` of a
  nested object's, else one level fewer, until it fits;
  a schema that says nothing past its root type (or nothing at all) is None: the
  tool declares the envelope alone.
"""

from __future__ import annotations

from typing import Any

import orjson

MAX_DEPTH = 4
MAX_PROPERTIES = 50
NARROW = 12  # properties of a nested object, when the answer is too large with all 50
MAX_BYTES = 2048
_SCALARS = ("string", "integer", "number", "boolean", "null")
_TYPES = frozenset({*_SCALARS, "object", "array"})
Schema = dict[str, Any]


def _types(schema: Schema) -> list[str] | None:
    """The schema's types as a list (null added where the OpenAPI dialect says so);
    None when it names none we know."""
    raw = schema.get("type")
    kinds = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else []
    if not kinds and isinstance(schema.get("properties"), dict):
        kinds = ["object"]
    if not kinds and isinstance(schema.get("items"), dict):
        kinds = ["array"]
    if not kinds or not all(isinstance(k, str) and k in _TYPES for k in kinds):
        return None
    if (schema.get("nullable") is True or schema.get("x-nullable") is True) and "null" not in kinds:
        kinds.append("null")
    return kinds


def _typed(kinds: list[str]) -> Schema:
    return {"type": kinds[0] if len(kinds) == 1 else kinds}


def _kinds(schema: Schema) -> list[str]:
    kind = schema.get("type")
    return [kind] if isinstance(kind, str) else list(kind or [])


def _merge(parts: list[Schema]) -> Schema:
    """Objects' properties as one object; a name described two ways is left open."""
    merged: dict[str, Schema] = {}
    for part in parts:
        for name, sub in (part.get("properties") or {}).items():
            merged[name] = sub if merged.get(name, sub) == sub else {}
    out = _typed(["object", "null"] if any("null" in _kinds(p) for p in parts) else ["object"])
    if merged:
        out["properties"] = merged
    return out


Seen = tuple[int, ...]


def _combined(parts: list[Any], depth: int, seen: Seen, widths: tuple[int, int]) -> Schema:
    """`allOf`/`oneOf`/`anyOf` parts, compacted, as one schema that admits whatever any
    part admits (a relaxation of allOf, exact for the others but for nesting)."""
    done = [_walk(p, depth, seen, widths) for p in parts if isinstance(p, dict)]
    if not done or any(not d for d in done):
        return {}  # a part that admits anything
    if all(set(_kinds(d)) <= {"object", "null"} for d in done):
        return _merge(done)
    if all(len(d) == 1 for d in done):  # bare types: one list of them
        return _typed(list(dict.fromkeys(k for d in done for k in _kinds(d))))
    return {}


_COMBINATORS = ("allOf", "oneOf", "anyOf")


def _walk(schema: Any, depth: int, seen: Seen, widths: tuple[int, int]) -> Schema:
    """`widths`: how many properties of an object at this level, and below it."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return {}  # a recursive schema: open from where it repeats
    seen = (*seen, id(schema))
    for key in _COMBINATORS:
        parts = schema.get(key)
        if isinstance(parts, list):
            # Keys beside the combinator (an object's own properties) are one more part.
            own = {k: v for k, v in schema.items() if k not in _COMBINATORS}
            combined = _combined([*parts, *([own] if _types(own) else [])], depth, seen, widths)
            if combined and schema.get("nullable") is True and "null" not in _kinds(combined):
                combined.update(_typed([*_kinds(combined), "null"]))
            return combined
    kinds = _types(schema)
    if kinds is None:
        return {}
    out = _typed(kinds)
    if depth <= 0:
        return out
    if "object" in kinds and isinstance(schema.get("properties"), dict):
        props = list(schema["properties"].items())[: widths[0]]
        below = (widths[1], widths[1])
        out["properties"] = {str(k): _walk(v, depth - 1, seen, below) for k, v in props}
    if "array" in kinds and isinstance(schema.get("items"), dict):
        items = _walk(schema["items"], depth - 1, seen, widths)  # a list's items: same level
        if items:
            out["items"] = items
    return out


def _says_something(schema: Schema) -> bool:
    return "properties" in schema or "items" in schema


def compact(schema: Any) -> Schema | None:
    """The compact form of a resolved response schema, or None (see the module)."""
    for depth in range(MAX_DEPTH, 0, -1):
        for nested in (MAX_PROPERTIES, NARROW):
            out = _walk(schema, depth, (), (MAX_PROPERTIES, nested))
            if not _says_something(out):
                return None
            if len(orjson.dumps(out)) <= MAX_BYTES:
                return out
    return None
