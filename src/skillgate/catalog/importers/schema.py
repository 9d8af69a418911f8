"""JSON Schema fragments -> the catalog's five types, enums, defaults and examples.

Rules (both importers; Google Discovery schemas are JSON Schema with `$ref`s
resolved):
- types: `string`, `number` (`integer` too), `boolean`, `array`, `object`; an
  OpenAPI 3.1 type list's `"null"`, 3.0 `nullable: true` and a `null`
  alternative make it `nullable` (`[string, "null"]` -> a string or null);
  no `type`: `properties` -> object, `items` -> array, an `enum` -> its
  values' type, else (Google `any`, an empty schema) string;
- `allOf` is merged into one schema: properties and `required` united, the
  first `type`, `description`, `enum`, `default` and `items` kept (cycles stop);
- `oneOf`/`anyOf` (null alternatives dropped): alternatives that are all scalars
  of one type give that type (integer + number -> number); mixed types give
  the first of string, number, boolean, object, array that is among them (a
  string or a number: string), the others in `also` (each accepted as it is),
  noted in the description ("Accepts a string or a boolean."); a scalar or an
  array of that scalar gives the array (a single value is wrapped); a type
  list (`[string, integer]`) is read the same way;
- `items` only for arrays of scalars; enum values that do not have the type are
  dropped (an enum on array items is listed in the description instead);
- a default is kept only when it has the type (and is in the enum), never on
  a required parameter;
- an example is the first of: the source's examples, the first enum value, the
  default, that has the type; else a placeholder from the name and type
  (string: the name, number: 1, boolean: true, array: [the name], object: {}).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from skillgate.catalog.importers.source import Schema
from skillgate.catalog.models import value_matches

_SCALARS = ("string", "number", "boolean")
_JSON_TYPES = {
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "array": "array",
    "object": "object",
}
_MAX_RE = re.compile(
    r"\bmax(?:imum)?(?: allowed value(?: for this field)?)?(?: of| is)?\s*:?\s*(\d+)\b",
    re.IGNORECASE,
)


def merged(schema: Any, _seen: frozenset[int] = frozenset()) -> Schema:
    """`schema` with its `allOf` folded in (a new dict; the source is not changed)."""
    if not isinstance(schema, dict):
        return {}
    parts = schema.get("allOf")
    if not isinstance(parts, list) or id(schema) in _seen:
        return schema
    seen = _seen | {id(schema)}
    result: Schema = {k: v for k, v in schema.items() if k != "allOf"}
    props: dict[str, Any] = dict(result.get("properties") or {})
    required: list[str] = list(result.get("required") or [])
    for part in parts:
        sub = merged(part, seen)
        for key, value in sub.items():
            if key == "properties" and isinstance(value, dict):
                for name, prop in value.items():
                    props.setdefault(name, prop)
            elif key == "required" and isinstance(value, list):
                required.extend(r for r in value if r not in required)
            else:
                result.setdefault(key, value)
    if props:
        result["properties"] = props
    if required:
        result["required"] = required
    return result


def alternatives(schema: Schema) -> list[Schema]:
    """The non-null `oneOf`/`anyOf` alternatives of a schema, merged."""
    alts = schema.get("oneOf") or schema.get("anyOf") or []
    result = [merged(a) for a in alts if isinstance(a, dict)]
    return [a for a in result if not _is_null(a)]


def _is_null(schema: Schema) -> bool:
    t = schema.get("type")
    return t == "null" or (isinstance(t, list) and set(t) == {"null"})


@dataclass(frozen=True)
class Typed:
    """The catalog view of a schema."""

    type: str
    items: str | None = None
    note: str = ""
    also: tuple[str, ...] = ()


_ORDER = ("string", "number", "boolean", "object", "array")


def nullable(schema: Schema) -> bool:
    """Whether the source accepts `null` (3.0 `nullable`, a 3.1 type list, a null
    alternative)."""
    t = schema.get("type")
    if schema.get("nullable") is True or t == "null" or (isinstance(t, list) and "null" in t):
        return True
    alts = schema.get("oneOf") or schema.get("anyOf") or []
    return any(isinstance(a, dict) and _is_null(merged(a)) for a in alts)


def _declared(schema: Schema) -> list[str]:
    t = schema.get("type")
    names = [x for x in t if x != "null"] if isinstance(t, list) else [t] if t else []
    return [_JSON_TYPES[n] for n in names if n in _JSON_TYPES]


def _enum_type(values: list[Any]) -> str | None:
    for type_ in ("boolean", "number", "string"):
        if values and all(value_matches(type_, v) for v in values if v is not None):
            return type_
    return None


def plain_type(schema: Schema) -> str | None:
    """The type a schema states or implies, without looking at alternatives."""
    declared = _declared(schema)
    if len(declared) == 1:
        return declared[0]
    if len(declared) > 1:
        return _combine([Typed(t) for t in declared]).type
    if isinstance(schema.get("properties"), dict) or "additionalProperties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    enum = schema.get("enum")
    if isinstance(enum, list):
        return _enum_type(enum)
    return None


def items_type(schema: Schema) -> str | None:
    items = merged(schema.get("items"))
    t = plain_type(items) if items else None
    return t if t in _SCALARS else None


def typed(schema: Schema) -> Typed:
    """The catalog type of a (merged) schema, following its alternatives one level."""
    declared = _declared(schema)
    if len(set(declared)) > 1:  # a type list: [string, integer]
        return _combine([Typed(d, items_type(schema) if d == "array" else None) for d in declared])
    t = plain_type(schema)
    if t is None and (schema.get("oneOf") or schema.get("anyOf")):
        alts = alternatives(schema)
        if alts:
            return _combine([_shallow(a) for a in alts])
    if t is None:
        return Typed("string")
    if t == "array":
        return Typed("array", items_type(schema))
    return Typed(t)


def _shallow(schema: Schema) -> Typed:
    t = plain_type(schema) or "string"
    return Typed(t, items_type(schema) if t == "array" else None)


def _combine(options: list[Typed]) -> Typed:
    kinds = {o.type for o in options}
    if len(kinds) == 1:
        first = options[0]
        same_items = len({o.items for o in options}) == 1
        return Typed(first.type, first.items if same_items else None)
    scalars = kinds & set(_SCALARS)
    arrays = [o for o in options if o.type == "array"]
    if (
        "object" not in kinds
        and arrays
        and len({a.items for a in arrays}) == 1
        and scalars == {arrays[0].items}
    ):
        return Typed("array", arrays[0].items)  # one value or several
    ordered = [k for k in _ORDER if k in kinds]
    words = " or ".join(("an " if k[0] in "ao" else "a ") + k for k in ordered)
    items = arrays[0].items if len({a.items for a in arrays}) == 1 and arrays else None
    # A scalar union: its first scalar; with an object or array among them, that
    # (the object first), as before `also` existed, so the CLI still reads JSON there.
    chosen = next(k for k in ("object", "array") if k in kinds) if kinds - scalars else ordered[0]
    ordered.remove(chosen)
    return Typed(
        chosen,
        items if chosen == "array" else None,
        note=f"Accepts {words}.",
        also=tuple(ordered),
    )


def clean_enum(schema: Schema, type_: str) -> list[Any] | None:
    values = schema.get("enum")
    if not isinstance(values, list) or type_ in ("array", "object"):
        return None
    kept = [v for v in values if v is not None and value_matches(type_, v)]
    unique: list[Any] = []
    for v in kept:
        if v not in unique:
            unique.append(v)
    return unique or None


def item_enum_note(schema: Schema) -> str:
    """For an array whose items are an enum: `Items: a, b, c.` (short lists only)."""
    values = merged(schema.get("items")).get("enum")
    if not isinstance(values, list) or not values or len(values) > 12:
        return ""
    return "Items: " + ", ".join(str(v) for v in values if v is not None) + "."


def json_copy(value: Any) -> Any:
    """A detached copy of a JSON value (resolved documents share objects)."""
    return copy.deepcopy(value) if isinstance(value, dict | list) else value


def clean_default(schema: Schema, type_: str, enum: list[Any] | None) -> Any:
    default = schema.get("default")
    if default is None or not value_matches(type_, default):
        return None
    if enum is not None and default not in enum:
        return None
    return json_copy(default)


def example(
    schema: Schema, type_: str, enum: list[Any] | None, name: str, extra: tuple[Any, ...] = ()
) -> tuple[Any, bool]:
    """(example, from the source): the first suitable source value, else a placeholder."""
    candidates: list[Any] = list(extra)
    if "example" in schema:
        candidates.append(schema["example"])
    if isinstance(schema.get("examples"), list):
        candidates.extend(schema["examples"])
    if enum:
        candidates.append(enum[0])
    if "default" in schema:
        candidates.append(schema["default"])
    for value in candidates:
        if value is not None and value_matches(type_, value) and (not enum or value in enum):
            return json_copy(value), True
    return placeholder(type_, name, items_type(schema)), False


def placeholder(type_: str, name: str, items: str | None = None) -> Any:
    if type_ == "number":
        return 1
    if type_ == "boolean":
        return True
    if type_ == "object":
        return {}
    if type_ == "array":
        return [placeholder(items or "string", name)]
    return name


def maximum(schema: Schema, description: str = "") -> int | None:
    """The schema's `maximum` (Google writes it as a string), else "max N" in the text."""
    value = schema.get("maximum")
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    found = _MAX_RE.search(description or "")
    return int(found.group(1)) if found else None


def is_read_only(schema: Schema) -> bool:
    """A property the server sets (OpenAPI `readOnly`, Google "Output only.")."""
    if schema.get("readOnly") is True:
        return True
    text = str(schema.get("description") or "").strip().lower()
    return text.lstrip("[( ").startswith("output only") or text.endswith("read-only.")
