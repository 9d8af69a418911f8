"""Every shipped compiled endpoint, as agents see it (overlays applied), against its
pinned source, read here independently of the importer (issue 25.1): plain JSON, `$ref`s
followed by hand, no code shared with `skillgate.catalog.importers`.

Compared, field by field: method and path; each path, query and header parameter the
source declares (required-ness, and that a required one is offered); each body field
the source's schema requires (OpenAPI: `required` of the body object, of its one object
`oneOf` alternative, or inside a `data` envelope; Google: `annotations.required` naming
the method), which must be a required parameter; and no parameter is required that
the source does not require. Every difference must be listed, with its reason, in
`verify_deviations.yaml` beside this file; a listed difference that no longer occurs
fails too, so the list stays true. Partial: types and scopes are not compared yet.
"""

from __future__ import annotations

import json
import lzma
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
import yaml

from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.models import Endpoint, Integration

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ROOT / "catalog-sources"
DEVIATIONS = Path(__file__).with_name("verify_deviations.yaml")
_PLUS = re.compile(r"\{\+([^{}]+)\}")


def _lock() -> list[dict[str, Any]]:
    sources: list[dict[str, Any]] = yaml.safe_load((SOURCES / "sources.yaml").read_text())[
        "sources"
    ]
    return sources


def _deref(doc: dict[str, Any], node: Any, google: bool, depth: int = 0) -> Any:
    """`node` with its own `$ref` followed (not its children's); cycles stop at 50."""
    while isinstance(node, dict) and "$ref" in node and depth < 50:
        ref = str(node["$ref"])
        if google:
            target = doc["schemas"][ref]
        else:
            target = doc
            for part in ref.lstrip("#/").split("/"):
                # A URI fragment (RFC 6901 section 6): percent-decoded, then ~1 and ~0.
                key = unquote(part).replace("~1", "/").replace("~0", "~")
                target = target[int(key)] if isinstance(target, list) else target[key]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        depth += 1
    return node


def _all_of(doc: dict[str, Any], schema: Any) -> dict[str, Any]:
    """An OpenAPI schema with `allOf` parts' properties and required lists folded in."""
    schema = _deref(doc, schema, False)
    if not isinstance(schema, dict):
        return {}
    props = dict(schema.get("properties") or {})
    required = list(schema.get("required") or [])
    for part in schema.get("allOf") or []:
        sub = _all_of(doc, part)
        for k, v in (sub.get("properties") or {}).items():
            props.setdefault(k, v)
        required += [r for r in sub.get("required") or [] if r not in required]
        for k in ("type", "oneOf", "anyOf"):
            if k in sub and k not in schema:
                schema = {**schema, k: sub[k]}
    return {**schema, "properties": props, "required": required}


class Fact:
    """What the source says about one operation."""

    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path
        self.params: dict[tuple[str, str], bool] = {}  # (location, wire) -> required
        self.body_required: set[str] = set()  # top-level body fields the schema requires
        self.body_fields: dict[str, dict[str, Any]] = {}  # top-level name -> schema
        self.read_only: set[str] = set()


def _openapi_facts(doc: dict[str, Any]) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    for key, item in doc["paths"].items():
        item = _deref(doc, item, False)
        path = key.split("#", 1)[0]
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            fact = Fact(method.upper(), path)
            for raw in [*(item.get("parameters") or []), *(op.get("parameters") or [])]:
                raw = _deref(doc, raw, False)
                schema = _deref(doc, raw.get("schema") or {}, False)
                wire = raw["name"]
                if raw.get("style") == "deepObject" and schema.get("type") == "array":
                    wire += "[]"
                fact.params[(raw["in"], wire)] = bool(raw.get("required")) or raw["in"] == "path"
            _openapi_body(doc, op, fact)
            facts[op.get("operationId") or f"{method.upper()} {path}"] = fact
    return facts


def _openapi_body(doc: dict[str, Any], op: dict[str, Any], fact: Fact) -> None:
    body = _deref(doc, op.get("requestBody"), False)
    content = (body or {}).get("content") or {}
    media = next(
        (
            m
            for m in content
            if m.split(";")[0] in ("application/json", "application/x-www-form-urlencoded")
        ),
        None,
    )
    if media is None:
        return
    raw = (content[media] or {}).get("schema") or {}
    schema = _all_of(doc, raw)
    objects = [
        s
        for s in (_all_of(doc, a) for a in schema.get("oneOf") or schema.get("anyOf") or [])
        if s.get("type") == "object" or s.get("properties")
    ]
    if not schema.get("properties") and len(objects) == 1:
        schema = objects[0]
    props = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    if list(props) == ["data"]:  # the envelope: {"data": {...}}
        inner = _all_of(doc, props["data"])
        if inner.get("properties") and "data" in (schema.get("required") or []):
            fact.body_fields = {f"data.{k}": v for k, v in inner["properties"].items()}
            fact.body_required = {f"data.{k}" for k in inner.get("required") or []}
            fact.body_fields["data"] = props["data"]
            return
    fact.body_fields = dict(props)
    fact.body_required = set(schema.get("required") or []) - {_one_type_tag(doc, raw)}
    fact.read_only = {k for k, v in props.items() if _read_only(_deref(doc, v, False))}


def _google_facts(doc: dict[str, Any]) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}

    def walk(resources: dict[str, Any]) -> None:
        for resource in resources.values():
            for m in (resource.get("methods") or {}).values():
                facts[m["id"]] = _google_method(doc, m)
            walk(resource.get("resources") or {})

    walk(doc.get("resources") or {})
    for m in (doc.get("methods") or {}).values():
        facts[m["id"]] = _google_method(doc, m)
    return facts


def _google_method(doc: dict[str, Any], m: dict[str, Any]) -> Fact:
    raw = _PLUS.sub(r"{\1}", m.get("flatPath") or m["path"])
    fact = Fact(m["httpMethod"], raw if raw.startswith("/") else "/" + raw)
    holes = set(re.findall(r"\{([^{}]+)\}", fact.path))
    for name, p in (m.get("parameters") or {}).items():
        where = p.get("location", "query")
        if where == "path" and name not in holes:
            continue  # the flat path spells it as other placeholders (People's resourceName)
        fact.params[(where, name)] = bool(p.get("required"))
    for hole in holes:
        fact.params.setdefault(("path", hole), True)
    if "fields" in (doc.get("parameters") or {}):  # API-wide partial responses, optional
        fact.params.setdefault(("query", "fields"), False)
    request = _deref(doc, m.get("request"), True)
    props = (request or {}).get("properties") or {}
    fact.body_fields = dict(props)
    fact.body_required = {
        k
        for k, v in props.items()
        if m["id"] in ((v.get("annotations") or {}).get("required") or [])
    }
    fact.read_only = {
        k for k, v in props.items() if str(v.get("description", "")).startswith("Output only")
    }
    return fact


def _discriminator(doc: dict[str, Any], schema: Any) -> str | None:
    """The discriminator property a schema or one of its allOf ancestors declares."""
    schema = _deref(doc, schema, False)
    if not isinstance(schema, dict):
        return None
    own = (schema.get("discriminator") or {}).get("propertyName")
    parts = (_discriminator(doc, part) for part in schema.get("allOf") or [])
    return own or next((p for p in parts if p), None)


def _one_type_tag(doc: dict[str, Any], schema: Any) -> str | None:
    """The type tag a body of one schema type need not carry (docs/catalog.md, "type
    tags"): the discriminator of an `allOf` schema whose own (last) part gives the tag
    a default or declares no subtypes of its own; None for a base with subtypes."""
    schema = _deref(doc, schema, False)
    parts = schema.get("allOf") if isinstance(schema, dict) else None
    tag = _discriminator(doc, schema)
    if not parts or tag is None:
        return None
    own = _deref(doc, parts[-1], False)
    own_tag = ((own.get("properties") or {}).get(tag) or {}) if isinstance(own, dict) else {}
    if isinstance(own_tag, dict) and isinstance(own_tag.get("default"), str):
        return tag
    return None if isinstance(own, dict) and "discriminator" in own else tag


def _read_only(schema: Any) -> bool:
    """A property marked readOnly (a JSON Schema may also be `true`/`false`)."""
    return isinstance(schema, dict) and bool(schema.get("readOnly"))


def _top(wire: str) -> str:
    """The top-level body field a wire name is in: `start.date`, `scope[type]` -> start, scope."""
    return re.split(r"[.\[]", wire, maxsplit=1)[0]


def _differences(endpoint: Endpoint, fact: Fact) -> list[str]:
    out: list[str] = []
    if (endpoint.method, endpoint.path) != (fact.method, fact.path):
        out.append(f"call: {endpoint.method} {endpoint.path} != {fact.method} {fact.path}")
    offered = {(p.location, p.wire_name): p for p in endpoint.parameters}
    for (location, wire), required in fact.params.items():
        p = offered.get((location, wire))
        if p is None:
            if required and location in ("path", "query", "header"):
                out.append(f"{location} {wire}: required by the source, not offered")
        elif p.required != required:
            out.append(f"{location} {wire}: required {p.required}, the source says {required}")
    body = [p for p in endpoint.parameters if p.location == "body"]
    tops = {_top(p.wire_name) for p in body} | {p.wire_name for p in body}
    for name in sorted(fact.body_required - fact.read_only):
        given = [p for p in body if p.wire_name == name or _top(p.wire_name) == name]
        if name not in tops and not given:
            if endpoint.body is not None or body:
                out.append(f"body {name}: required by the source, not offered")
        elif given and not any(p.required for p in given):
            out.append(f"body {name}: required by the source, offered as optional")
    for p in body:
        top = p.wire_name if p.wire_name in fact.body_fields else _top(p.wire_name)
        if p.required and top in fact.body_fields and top not in fact.body_required:
            out.append(f"body {p.wire_name}: required, the source does not require {top}")
    for p in endpoint.parameters:
        where = (p.location, p.wire_name)
        if p.location in ("query", "header") and p.required and where not in fact.params:
            out.append(f"{p.location} {p.wire_name}: required, the source does not declare it")
    return out


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _found(catalog: Catalog) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for source in _lock():
        doc = json.loads(lzma.decompress((SOURCES / source["stored"]).read_bytes()))
        google = source["importer"] == "google"
        facts = _google_facts(doc) if google else _openapi_facts(doc)
        integration: Integration = catalog.integrations[source["slug"]]
        for endpoint in integration.endpoints:
            if endpoint.operation is None:
                continue  # hand-written (no source operation)
            fact = facts.get(endpoint.operation)
            key = f"{source['slug']}.{endpoint.name}"
            if fact is None:
                found[key] = [f"operation {endpoint.operation!r} is not in the source"]
                continue
            problems = _differences(endpoint, fact)
            if problems:
                found[key] = problems
    return found


def test_every_shipped_endpoint_says_what_its_source_says(shipped: Catalog) -> None:
    listed = yaml.safe_load(DEVIATIONS.read_text()) or []
    reviewed: dict[str, set[str]] = {}
    for entry in listed:
        assert len(str(entry.get("reason", "")).strip()) >= 10, entry
        reviewed.setdefault(entry["endpoint"], set()).add(entry["difference"])
    found = _found(shipped)
    unlisted = {k: [d for d in v if d not in reviewed.get(k, set())] for k, v in found.items()}
    unlisted = {k: v for k, v in unlisted.items() if v}
    stale = {
        k: sorted(v - set(found.get(k, [])))
        for k, v in reviewed.items()
        if v - set(found.get(k, []))
    }
    total = sum(len(v) for v in unlisted.values())
    shown = "\n".join(f"{k}: {d}" for k, v in sorted(unlisted.items()) for d in v)
    assert not unlisted, f"{total} unlisted differences:\n{shown}"
    assert not stale, f"listed differences that no longer occur: {stale}"
