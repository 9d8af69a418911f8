"""Source parameters and request bodies -> catalog parameters.

Rules (both importers):
- path, query and header parameters keep their location; path parameters are
  required and a string or number (anything else becomes a string);
- a query array the API wants comma-separated (`explode: false`) becomes a
  string parameter noted "Comma-separated."; a query object without a JSON
  `content` (deepObject style) cannot be sent: the operation is skipped when it
  is required, the parameter left out (with a note) when optional;
- cookie parameters, and header parameters naming a header the gateway owns
  (`models.PROTECTED_HEADERS`, `Content-Type`): skipped operation when required,
  left out when optional;
- a JSON (or form) request body: its top-level object properties become `in:
  body` parameters, required when the schema lists them, whether or not the
  source marks the body itself required (`requestBody.required` absent or
  false: the gateway sends a body on every POST, PUT and PATCH, and one with
  any field given, so the schema's `required` list always applies);
  server-set properties (`readOnly`, "Output only.") are left out; a nested
  object stays one `object` parameter (the agent passes JSON) unless it
  is small and flat (at most 6 scalar or scalar-array properties, and either
  required with a required property or optional with none), then each property
  is its own parameter with a dotted `maps_to` (`start.dateTime`; a form body
  uses `start[dateTime]`); a body alternative (`oneOf`) of objects is merged
  (properties united, required only where every alternative requires it; a
  single object alternative keeps its own `required` list);
- a JSON body whose only property is `data` holding a bigger object (the
  envelope of Asana and JSON:API, `{"data": {"name": ...}}`) has that object's
  fields as parameters, `data_name` with `maps_to: data.name` (one level;
  nested objects in it stay `object` parameters);
- a body that is not an object (an array, a scalar), a free-form object with no
  declared properties, a property name with a `.` and, in a form body, a
  required nested object or array: skipped operation (the executor places body
  parameters by dotted path into one JSON object or one form);
- names are sanitised (`naming.param_name`) with `maps_to` carrying the wire
  name; a name taken by an earlier parameter (path, then query, header, body)
  gets the location after it (`state_body`), then `_2`, `_3`, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers.naming import param_name
from skillgate.catalog.importers.source import Schema, SkipOperation, SourceBody, SourceParam
from skillgate.catalog.importers.text import param_description
from skillgate.catalog.models import HEADER_RE, PROTECTED_HEADERS

GATEWAY_HEADERS = PROTECTED_HEADERS | {"content-type"}
FLAT_MAX = 6
ENVELOPE = "data"


@dataclass
class Param:
    wire: str
    location: str
    type: str
    description: str
    required: bool = False
    enum: list[Any] | None = None
    default: Any = None
    items: str | None = None
    example: Any = None
    example_sourced: bool = False
    # A required parameter's documented default (Google's `userId=me`): safe for `verify`.
    verify_value: Any = None
    multi_segment: bool = False
    also: tuple[str, ...] = ()
    nullable: bool = False
    name: str = field(default="")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "in": self.location}
        if self.required:
            out["required"] = True
        out["description"] = self.description
        if self.wire != self.name:
            out["maps_to"] = self.wire
        if self.items is not None:
            out["items"] = self.items
        if self.enum is not None:
            out["enum"] = list(self.enum)
        if self.default is not None and not self.required:
            out["default"] = self.default
        if self.multi_segment:
            out["multi_segment"] = True
        if self.also:
            out["also"] = list(self.also)
        if self.nullable:
            out["nullable"] = True
        if self.required:
            out["example"] = self.example
        return out


def make(
    wire: str,
    location: str,
    schema: Schema,
    *,
    required: bool,
    description: str = "",
    examples: tuple[Any, ...] = (),
    force: sch.Typed | None = None,
    note: str = "",
    json_body: bool = False,
) -> Param:
    """One catalog parameter from a (resolved) schema; `json_body`: a JSON body field
    (the one place `null` can be sent)."""
    schema = sch.merged(schema)
    t = force or sch.typed(schema)
    enum = sch.clean_enum(schema, t.type)
    can_null = json_body and sch.nullable(schema)
    null_note = "May be null." if can_null else ""
    notes = " ".join(n for n in (t.note, null_note, note, sch.item_enum_note(schema)) if n)
    text = description or str(schema.get("description") or "")
    p = Param(
        wire=wire,
        location=location,
        type=t.type,
        description=param_description(text, param_name(wire), notes),
        required=required,
        enum=enum,
        items=t.items if t.type == "array" else None,
        also=t.also,
        nullable=can_null,
    )
    if required:
        p.example, p.example_sourced = sch.example(schema, t.type, enum, param_name(wire), examples)
        p.verify_value = sch.clean_default(schema, t.type, enum)
    else:
        p.default = sch.clean_default(schema, t.type, enum)
    return p


def from_source(src: SourceParam, notes: list[str]) -> Param | None:
    """The catalog parameter for a path/query/header parameter; None when left out."""
    label = f"{src.location} parameter {src.wire!r}"
    schema = sch.merged(src.schema)
    t = sch.typed(schema)
    if src.location == "cookie":
        _unsupported(src, f"{label}: cookies are not sent by the executor", notes)
        return None
    if src.location == "header" and (
        src.wire.lower() in GATEWAY_HEADERS or not HEADER_RE.match(src.wire)
    ):
        _unsupported(src, f"{label}: the gateway sets this header itself", notes)
        return None
    force: sch.Typed | None = None
    note = ""
    if src.location == "path":
        force = t if t.type in ("string", "number") else sch.Typed("string")
    elif src.location == "query" and t.type == "array" and not src.explode:
        force, note = sch.Typed("string"), "Comma-separated."
    elif src.location == "query" and t.type == "object" and not schema.get("x-json-content"):
        _unsupported(src, f"{label}: an object in the query string (deepObject)", notes)
        return None
    p = make(
        src.wire,
        src.location,
        schema,
        required=src.required or src.location == "path",
        description=src.description,
        examples=src.examples,
        force=force,
        note=note,
    )
    p.multi_segment = src.multi_segment and src.location == "path"
    return p


def _unsupported(src: SourceParam, problem: str, notes: list[str]) -> None:
    if src.required:
        raise SkipOperation(f"required {problem}")
    notes.append(f"optional {problem}: left out")
    return None


def _object_schema(body: SourceBody) -> tuple[Schema, set[str], list[list[str]]]:
    """(object schema, required names, alternative required groups) of a body."""
    schema = sch.merged(body.schema)
    alts = sch.alternatives(schema)
    kind = sch.plain_type(schema)
    if kind is None and alts:
        objects = [a for a in alts if sch.plain_type(a) == "object"]
        if not objects:
            shape = sch.plain_type(alts[0]) or "value"
            raise SkipOperation(f"request body is a JSON {shape}, not an object")
        props: dict[str, Any] = {}
        for alt in objects:
            for key, prop in (alt.get("properties") or {}).items():
                props.setdefault(key, prop)
        required = set.intersection(*(set(a.get("required") or []) for a in objects))
        return {"type": "object", "properties": props}, required, []
    if kind != "object":
        raise SkipOperation(f"request body is a JSON {kind or 'value'}, not an object")
    required = set(schema.get("required") or [])
    # `oneOf: [{required: [a]}, {required: [b, c]}]`: give a, or b and c.
    groups = [list(a.get("required") or []) for a in alts]
    groups = [g for g in groups if g]
    if len(groups) > 1:
        required -= {r for g in groups for r in g} - set.intersection(*(set(g) for g in groups))
    return schema, required, groups if len(groups) > 1 else []


def _either_note(groups: list[list[str]]) -> str:
    def join(names: list[str]) -> str:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    return "Give " + " or ".join(join(g) for g in groups) + "." if groups else ""


def from_body(body: SourceBody, notes: list[str]) -> list[Param]:
    """The body's top-level properties as parameters (nested ones flattened when small)."""
    schema, required, groups = _object_schema(body)
    props = schema.get("properties")
    if not isinstance(props, dict) or not props:
        if schema.get("additionalProperties") not in (None, False):
            raise SkipOperation("request body is a free-form JSON object with no declared fields")
        return []
    envelope = _envelope(props, body.encoding)
    if envelope is not None:
        key, inner = envelope
        return _flatten(key, inner, key in required, notes)
    either = {name for g in groups for name in g}
    discriminator = (schema.get("discriminator") or {}).get("propertyName")
    result: list[Param] = []
    for key, raw in props.items():
        prop = sch.merged(raw)
        if sch.is_read_only(prop):
            continue
        needed = key in required
        tag = _own_tag(body.schema, key) if key == discriminator else None
        if tag is not None:
            # The schema's own type tag (Microsoft Graph's `@odata.type`, required on
            # every entity by its generator): the body's schema is that one type, and
            # the provider takes the body as it when the tag is absent.
            notes.append(f"body field {key!r}: the type tag, {tag!r} for this body: left out")
            continue
        if "." in key:
            _unsupported_body(key, needed, "its name holds a '.'", notes)
            continue
        note = _either_note(groups) if key in either else ""
        # Whether a small object is split into fields is decided as it was before the
        # schema's `required` list became binding on an optional body: names stay.
        shape = needed and body.required
        result.extend(_body_param(key, prop, needed, shape, body.encoding, note, notes))
    return result


def _own_tag(schema: Any, key: str) -> str | None:
    """The type a body schema's discriminator `key` names when the body is one type:
    the default its own part gives the tag, else (its own part declares no subtypes,
    so it is a leaf type) "its own type"; None for a base with subtypes to choose."""
    parts = schema.get("allOf") if isinstance(schema, dict) else None
    if not isinstance(parts, list) or not parts:
        return None
    own = sch.merged(parts[-1])
    default = (own.get("properties") or {}).get(key, {}).get("default")
    if isinstance(default, str):
        return default
    return None if "discriminator" in own else "its own type"


def _envelope(props: dict[str, Any], encoding: str) -> tuple[str, Schema] | None:
    """(key, object schema) when a JSON body's one property is the `data` envelope that
    wraps the real fields (Asana's and JSON:API's `{"data": {...}}`) and is too big to
    flatten as a small object."""
    if encoding != "json" or list(props) != [ENVELOPE]:
        return None
    key, raw = next(iter(props.items()))
    inner = sch.merged(raw)
    fields = inner.get("properties")
    if sch.plain_type(inner) != "object" or not isinstance(fields, dict) or not fields:
        return None
    if (
        sch.alternatives(inner)
        or "." in key
        or _flattenable(inner, True)
        or _flattenable(inner, False)
    ):
        return None
    return key, inner


def _flatten(key: str, inner: Schema, required: bool, notes: list[str]) -> list[Param]:
    """The envelope's fields as parameters, `maps_to: <key>.<field>` (one level)."""
    needed = set(inner.get("required") or [])
    result: list[Param] = []
    for sub, raw in inner["properties"].items():
        prop = sch.merged(raw)
        if sch.is_read_only(prop):
            continue
        if "." in sub:
            _unsupported_body(
                f"{key}.{sub}", required and sub in needed, "its name holds a '.'", notes
            )
            continue
        result.append(
            make(f"{key}.{sub}", "body", prop, required=required and sub in needed, json_body=True)
        )
    return result


def _unsupported_body(key: str, required: bool, why: str, notes: list[str]) -> None:
    problem = f"body field {key!r}: {why}"
    if required:
        raise SkipOperation(f"required {problem}")
    notes.append(f"optional {problem}: left out")


def _body_param(
    key: str,
    prop: Schema,
    required: bool,
    shape: bool,
    encoding: str,
    note: str,
    notes: list[str],
) -> list[Param]:
    t = sch.typed(prop)
    if t.type == "object" and _flattenable(prop, shape):
        inner = set(prop.get("required") or [])
        fields = [
            (sub, sch.merged(sub_schema))
            for sub, sub_schema in prop["properties"].items()
            if not sch.is_read_only(sch.merged(sub_schema))
        ]
        wire = [f"{key}.{sub}" if encoding == "json" else f"{key}[{sub}]" for sub, _ in fields]
        some = ""
        if required and not inner & {sub for sub, _ in fields}:
            # A required object none of whose fields is required: give one at least.
            some = f"{key} is required: give at least one of its fields."
        return [
            make(
                w,
                "body",
                s,
                required=required and sub in inner,
                note=some,
                json_body=encoding == "json",
            )
            for w, (sub, s) in zip(wire, fields, strict=True)
        ]
    if encoding == "form" and t.type in ("object", "array"):
        _unsupported_body(key, required, f"a nested {t.type} cannot be form-encoded", notes)
        return []
    return [make(key, "body", prop, required=required, note=note, json_body=encoding == "json")]


def _flattenable(prop: Schema, required: bool) -> bool:
    props = prop.get("properties")
    if not isinstance(props, dict) or not props or len(props) > FLAT_MAX:
        return False
    if sch.alternatives(prop) or any("." in k or "[" in k for k in props):
        return False
    for sub in props.values():
        t = sch.typed(sch.merged(sub))
        if t.type == "object" or (t.type == "array" and t.items is None):
            return False
    has_required = bool(prop.get("required"))
    return has_required if required else not has_required


def name_all(params: list[Param]) -> None:
    """Give each parameter a unique catalog name, in order (see the module docstring)."""
    taken: set[str] = set()
    for p in params:
        base = param_name(p.wire)
        candidate = base
        if candidate in taken:
            candidate = param_name(f"{base}_{p.location}")
        n = 1
        while candidate in taken:
            n += 1
            candidate = param_name(f"{base}_{p.location}_{n}")
        taken.add(candidate)
        p.name = candidate
