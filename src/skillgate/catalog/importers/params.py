"""Source parameters and request bodies -> catalog parameters.

Rules (both importers):
- path, query and header parameters keep their location; path parameters are
  required and a string or number (anything else becomes a string);
- a query array the API wants comma-separated (`explode: false`) becomes a
  string parameter noted "Comma-separated."; a query object in `style:
  deepObject` (exploded or not: OpenAPI defines only the exploded form) is an
  `object` with `style: deepObject`, its fields listed, sent in
  brackets (`filter[status]=open`); one in another style without a JSON
  `content` cannot be sent: the operation is skipped when it is required, the
  parameter left out (with a note) when optional;
- an `Authorization` or `Content-Type` header parameter is left out, required or
  not (noted): the gateway sends the credential and the body's type itself;
- cookie parameters, and header parameters naming another header the gateway
  owns (`models.PROTECTED_HEADERS`): skipped operation when required, left out
  when optional;
- request bodies: `importers.body`;
- names are sanitised (`naming.param_name`) with `maps_to` carrying the wire
  name; a name taken by an earlier parameter (path, then query, header, body)
  gets the location after it (`state_body`), then `_2`, `_3`, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers.naming import param_name
from skillgate.catalog.importers.source import Schema, SkipOperation, SourceParam
from skillgate.catalog.importers.text import param_description
from skillgate.catalog.models import HEADER_RE, PROTECTED_HEADERS

GATEWAY_HEADERS = PROTECTED_HEADERS | {"content-type"}
# Sent by the gateway itself (credential, body type): such a parameter is always left out.
SENT_BY_GATEWAY = frozenset({"authorization", "content-type"})


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
    whole_body: bool = False
    style: str | None = None
    file: bool = False
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
        if self.whole_body:
            out["whole_body"] = True
        if self.style is not None:
            out["style"] = self.style
        if self.file:
            out["file"] = True
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
    if src.location == "header" and src.wire.lower() in SENT_BY_GATEWAY:
        notes.append(f"{label}: left out, the gateway sends it (credential, body type)")
        return None
    if src.location == "header" and (
        src.wire.lower() in GATEWAY_HEADERS or not HEADER_RE.match(src.wire)
    ):
        _unsupported(src, f"{label}: the gateway sets this header itself", notes)
        return None
    force: sch.Typed | None = None
    note = ""
    style: str | None = None
    if src.location == "path":
        force = t if t.type in ("string", "number") else sch.Typed("string")
    elif src.location == "query" and t.type == "array" and not src.explode:
        force, note = sch.Typed("string"), "Comma-separated."
    elif src.location == "query" and t.type == "object" and not schema.get("x-json-content"):
        if src.style != "deepObject":  # with or without explode: brackets are its one form
            _unsupported(src, f"{label}: an object in the query string ({src.style})", notes)
            return None
        style = "deepObject"
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
    return bracketed(p, schema) if style else p


def _object_of(schema: Schema) -> Schema:
    """The object a bracketed (deepObject) value holds: the schema, its array's items,
    or its first object alternative (Stripe's `created`: a number or {gt, lt, ...})."""
    for candidate in (schema, sch.merged(schema.get("items")), *sch.alternatives(schema)):
        if isinstance(candidate.get("properties"), dict) and candidate["properties"]:
            return candidate
    return {}


def bracketed(p: Param, schema: Schema) -> Param:
    """`p` sent in brackets: its fields named in the description (what the agent passes
    is the JSON object; the wire form is the gateway's), and a required one's example
    holding its required fields when the source gives none."""
    p.style = "deepObject"
    obj = _object_of(schema)
    props = obj.get("properties") or {}
    needed = [k for k in obj.get("required") or [] if k in props]
    if props:
        names = [f"{k} (required)" if k in needed else k for k in list(props)[:12]]
        more = ", ..." if len(props) > 12 else ""
        lead = "Items have fields: " if p.type == "array" else "Fields: "
        p.description = f"{p.description.rstrip()} {lead}{', '.join(names)}{more}."
    if p.required and not p.example_sourced and needed:
        sample = {k: sch.placeholder(sch.typed(sch.merged(props[k])).type, k, None) for k in needed}
        p.example = [sample] if p.type == "array" else sample
    return p


def _unsupported(src: SourceParam, problem: str, notes: list[str]) -> None:
    if src.required:
        raise SkipOperation(f"required {problem}")
    notes.append(f"optional {problem}: left out")
    return None


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
