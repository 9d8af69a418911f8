"""Request bodies -> catalog parameters (both importers; see `params` for the rest).

Rules:
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
- a form or multipart body (`body: form` / `multipart`): an array or object
  field is written as the body's OpenAPI `encoding` says (`style`, see
  `executor.wire`): `deepObject` in brackets (Stripe's `metadata[k]=v`,
  `line_items[0][price]=p`), an array of scalars as repeated keys (`form`, the
  default) or comma-separated (`explode: false`, a string noted so), any other
  array or object as JSON text (the default content type OpenAPI gives an
  object part), noted "Sent as JSON text."; a field's name is its wire name as
  it is (a `.` in it is no path: `paypal.subject`); a multipart string with
  `format: binary` (or `contentMediaType`) is a `file` parameter; an array of
  files, or another style (`spaceDelimited`, ...), cannot be sent (skipped when
  required, left out when optional);
- an `application/octet-stream` body is one `file` parameter named `body`
  (`body: binary`): its bytes are the request body;
- a JSON body that is no object with fields (a JSON Patch array, a string, any
  value, a free-form object) is one required `whole_body` parameter `body`;
- a required JSON body whose only property is a small `data` (Asana's) stays one
  `object` parameter, required, its description naming the fields required
  inside it (a bigger `data` envelope has its fields as parameters, required as
  that object says);
- a free-form form body, a JSON property name with a `.`: skipped operation (the
  executor places JSON body parameters by dotted path).
"""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers.params import Param, bracketed, make
from skillgate.catalog.importers.source import Schema, SkipOperation, SourceBody

FLAT_MAX = 6
BINARY_BODY = "body"  # the one parameter of a raw (`application/octet-stream`) upload
ENVELOPE = "data"


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


_ANY = sch.Typed("object", note="Any JSON value.", also=("array", "string", "number", "boolean"))


def _whole(body: SourceBody) -> list[Param] | None:
    """One required `whole_body` parameter `body` for a JSON body without fields; else None."""
    schema = sch.merged(body.schema)
    kind = sch.plain_type(schema)
    alts = sch.alternatives(schema)
    fields = schema.get("properties") or any(sch.plain_type(a) == "object" for a in alts)
    free = kind == "object" and schema.get("additionalProperties") not in (None, False)
    if body.encoding != "json" or fields or (kind == "object" and not free):
        return None
    force = _ANY if kind is None and not alts else None
    text = str(schema.get("description") or "") or "The request body."
    p = make("body", "body", schema, required=True, description=text, force=force, json_body=True)
    p.whole_body = True
    return [p]


def from_body(body: SourceBody, notes: list[str]) -> list[Param]:
    """The body's top-level properties as parameters (nested ones flattened when small);
    a binary body is one file parameter, `body`; a JSON body without fields is one
    `whole_body` parameter, `body`."""
    if body.encoding == "binary":
        text = str(body.schema.get("description") or "") or "The file to upload."
        p = make(BINARY_BODY, "body", {}, required=body.required, description=text)
        p.file = True
        return [p]
    if (whole := _whole(body)) is not None:
        return whole
    schema, required, groups = _object_schema(body)
    props = schema.get("properties")
    if not isinstance(props, dict) or not props:
        if schema.get("additionalProperties") not in (None, False):
            raise SkipOperation(
                f"request body is a free-form {body.encoding} body with no declared fields"
            )
        return []
    # A required body whose only field is the `data` envelope (Asana's, with no
    # `required` list) needs that envelope: its own required fields bind.
    wrapped = body.required and list(props) == [ENVELOPE]
    envelope = _envelope(props, body.encoding)
    if envelope is not None:
        key, inner = envelope
        return _flatten(key, inner, key in required or wrapped, notes)
    either = {name for g in groups for name in g}
    discriminator = (schema.get("discriminator") or {}).get("propertyName")
    result: list[Param] = []
    for key, raw in props.items():
        prop = sch.merged(raw)
        if sch.is_read_only(prop):
            continue
        needed = key in required or wrapped
        tag = _own_tag(body.schema, key) if key == discriminator else None
        if tag is not None:
            # The schema's own type tag (Microsoft Graph's `@odata.type`, required on
            # every entity by its generator): the body's schema is that one type, and
            # the provider takes the body as it when the tag is absent.
            notes.append(f"body field {key!r}: the type tag, {tag!r} for this body: left out")
            continue
        if "." in key and body.encoding == "json":
            _unsupported_body(key, needed, "its name holds a '.'", notes)
            continue
        note = _either_note(groups) if key in either else _inside_note(prop) if wrapped else ""
        # Whether a small object is split into fields is decided as it was before the
        # schema's `required` list became binding on an optional body: names stay.
        shape = key in required and body.required
        result.extend(_body_param(key, prop, needed, shape, body, note, notes))
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


def _inside_note(prop: Schema) -> str:
    inner = [k for k in prop.get("required") or [] if k in (prop.get("properties") or {})]
    return f"Required inside it: {', '.join(inner)}." if inner else ""


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
    body: SourceBody,
    note: str,
    notes: list[str],
) -> list[Param]:
    t = sch.typed(prop)
    encoding = body.encoding
    if encoding == "multipart" and _is_file(prop):
        p = make(key, "body", prop, required=required, force=sch.Typed("string"), note=note)
        p.file = True
        return [p]
    if t.type == "object" and encoding != "multipart" and _flattenable(prop, shape):
        return _split(key, prop, required, encoding)
    if encoding != "json" and t.type in ("object", "array"):
        return _form_param(key, prop, t, required, body, note, notes)
    return [make(key, "body", prop, required=required, note=note, json_body=encoding == "json")]


def _split(key: str, prop: Schema, required: bool, encoding: str) -> list[Param]:
    """A small flat object as one parameter per field (`start.dateTime`, `a[b]`)."""
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


def _is_file(prop: Schema) -> bool:
    """A multipart property that is a file (`format: binary`, 3.1 `contentMediaType`)."""
    return prop.get("type") in ("string", "file", None) and (
        prop.get("format") == "binary" or "contentMediaType" in prop or prop.get("type") == "file"
    )


def _form_param(
    key: str,
    prop: Schema,
    t: sch.Typed,
    required: bool,
    body: SourceBody,
    note: str,
    notes: list[str],
) -> list[Param]:
    """An array or object in a form or multipart body, written as its `encoding` says:
    `deepObject` in brackets, an array of scalars as repeated keys (`form`, the
    default) or comma-separated (`explode: false`), anything else as JSON text (the
    OpenAPI default content type of an object part)."""
    style, explode = body.styles.get(key, ("form", True))
    items = sch.merged(prop.get("items")) if t.type == "array" else {}
    if items and _is_file(items):
        _unsupported_body(key, required, "an array of files", notes)
        return []
    if style == "deepObject":  # explode or not: OpenAPI defines brackets only
        chosen: str | None = "deepObject"
    elif style != "form":
        _unsupported_body(key, required, f"style {style} is not sent by the executor", notes)
        return []
    elif t.type == "array" and t.items is not None and not explode:
        return [
            make(
                key,
                "body",
                prop,
                required=required,
                force=sch.Typed("string"),
                note="Comma-separated.",
            )
        ]
    elif t.type == "array" and t.items is not None:
        chosen = "form"
    else:
        chosen, note = None, " ".join(n for n in (note, "Sent as JSON text.") if n)
    p = make(key, "body", prop, required=required, note=note)
    if chosen == "deepObject" and t.items is None:
        return [bracketed(p, prop)]
    p.style = chosen
    return [p]


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
