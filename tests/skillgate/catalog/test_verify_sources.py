"""Every shipped compiled endpoint, as agents see it (overlays applied), against its
pinned source, read here independently of the importer (issue 25.1): plain JSON, `$ref`s
followed by hand, no code shared with `skillgate.catalog.importers`.

Compared, field by field: method and path; each path, query and header parameter the
source declares (required-ness, and that a required one is offered); each body field
the source's schema requires (OpenAPI: `required` of the body object, of its one object
`oneOf` alternative, or inside a `data` envelope; Google: `annotations.required` naming
the method), which must be a required parameter; and no parameter is required that
the source does not require; each offered parameter's types (`type` and `also`)
against the source's (`integer` is `number`; an array offered for "one item or a
list" and a comma-joined string for a `form`/`explode: false` array are the same
wire), its enum values within the source's, and the endpoint's scopes equal to the
operation's. Every difference must be listed, with its reason, in
`verify_deviations.yaml` beside this file; a listed difference that no longer occurs
fails too, so the list stays true. Each integration's host is its source's server's.
A parameter the source declares for the credential (Trello's `key` and `token` query
parameters, SendGrid's `Authorization` header) is the one the gateway sends from the
connection (`auth.sent_credentials`, what the executor puts on the wire), not a
difference. Nor is a required parameter offered as optional because a connection
variable fills it (`from_connection`, catalog.fills: Twilio's `AccountSid`): the
executor always sends a value, the caller's or the connection's.
"""

from __future__ import annotations

import json
import lzma
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from skillgate.catalog.auth import sent_credentials
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

    def __init__(self, method: str, path: str, doc: dict[str, Any], google: bool) -> None:
        self.doc = doc
        self.google = google
        self.method = method
        self.path = path
        self.params: dict[tuple[str, str], bool] = {}  # (location, wire) -> required
        self.body_required: set[str] = set()  # top-level body fields the schema requires
        self.body_fields: dict[str, dict[str, Any]] = {}  # top-level name -> schema
        self.read_only: set[str] = set()
        self.wrapped = False  # the body is required and is the `data` envelope
        self.kinds: dict[tuple[str, str], set[str]] = {}  # (location, wire) -> JSON types
        self.enums: dict[tuple[str, str], set[str]] = {}  # (location, wire) -> enum values
        self.scopes: set[str] = set()  # any one of them allows the call
        self.joined: set[tuple[str, str]] = set()  # arrays sent comma-joined (explode false)


def _openapi_facts(doc: dict[str, Any]) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    for key, item in doc["paths"].items():
        item = _deref(doc, item, False)
        path = key.split("#", 1)[0]
        for method, op in item.items():
            if method not in ("get", "head", "post", "put", "patch", "delete"):
                continue
            fact = Fact(method.upper(), path, doc, False)
            for raw in [*(item.get("parameters") or []), *(op.get("parameters") or [])]:
                raw = _deref(doc, raw, False)
                schema = _deref(doc, raw.get("schema") or {}, False)
                wire = raw["name"]
                if raw.get("style") == "deepObject" and schema.get("type") == "array":
                    wire += "[]"
                fact.params[(raw["in"], wire)] = bool(raw.get("required")) or raw["in"] == "path"
                _kind_and_enum(doc, fact, (raw["in"], wire), schema, False)
                if raw.get("explode") is False and raw.get("style", "form") == "form":
                    fact.joined.add((raw["in"], wire))
            fact.scopes = _openapi_scopes(doc, op)
            _openapi_body(doc, op, fact)
            facts[op.get("operationId") or f"{method.upper()} {path}"] = fact
    return facts


_JSON_KINDS = {"integer": "number", "number": "number", "string": "string"}
_JSON_KINDS |= {"boolean": "boolean", "array": "array", "object": "object"}


def _kinds(doc: dict[str, Any], schema: Any, google: bool, depth: int = 0) -> set[str]:
    """The JSON types a schema accepts (`null` left out); empty when it does not say."""
    schema = _deref(doc, schema, google)
    if not isinstance(schema, dict) or depth > 5:
        return set()
    declared = schema.get("type")
    names = declared if isinstance(declared, list) else [declared] if declared else []
    found = {_JSON_KINDS[n] for n in names if n in _JSON_KINDS}
    for key in ("oneOf", "anyOf"):
        for alt in schema.get(key) or []:
            found |= _kinds(doc, alt, google, depth + 1)
    if not found and (schema.get("properties") or schema.get("additionalProperties")):
        found = {"object"}
    for part in schema.get("allOf") or []:
        found = found or _kinds(doc, part, google, depth + 1)
    return found


def _kind_and_enum(
    doc: dict[str, Any], fact: Fact, where: tuple[str, str], schema: Any, google: bool
) -> None:
    schema = _deref(doc, schema, google)
    kinds = _kinds(doc, schema, google)
    if kinds:
        fact.kinds[where] = kinds
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if isinstance(enum, list) and enum:
        fact.enums[where] = {json.dumps(v) for v in enum if v is not None}


def _openapi_scopes(doc: dict[str, Any], op: dict[str, Any]) -> set[str]:
    """The scopes any one of which allows the call, as the catalog means `scopes`: only
    when each alternative requirement is one OAuth 2.0 scheme naming one scope (a
    requirement naming two means both, which "any one of" cannot say: none then)."""
    schemes = (doc.get("components") or {}).get("securitySchemes") or {}
    oauth = {k for k, v in schemes.items() if isinstance(v, dict) and v.get("type") == "oauth2"}
    found: set[str] = set()
    for requirement in op.get("security", doc.get("security")) or []:
        if not isinstance(requirement, dict) or len(requirement) != 1:
            return set()
        [(scheme, names)] = requirement.items()
        if scheme not in oauth or not isinstance(names, list) or len(names) != 1:
            return set()
        found.add(str(names[0]))
    return found


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
        # `data` is required when the schema says so, or when it is the only field of a
        # body the operation requires (Asana: `requestBody.required`, no `required` list).
        needed = "data" in (schema.get("required") or []) or bool((body or {}).get("required"))
        if inner.get("properties") and needed:
            fact.body_fields = {f"data.{k}": v for k, v in inner["properties"].items()}
            fact.body_required = {f"data.{k}" for k in inner.get("required") or []}
            fact.wrapped = needed
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
    fact = Fact(m["httpMethod"], raw if raw.startswith("/") else "/" + raw, doc, True)
    holes = set(re.findall(r"\{([^{}]+)\}", fact.path))
    for name, p in (m.get("parameters") or {}).items():
        where = p.get("location", "query")
        if where == "path" and name not in holes:
            continue  # the flat path spells it as other placeholders (People's resourceName)
        fact.params[(where, name)] = bool(p.get("required"))
        _kind_and_enum(doc, fact, (where, name), p, True)
        if p.get("repeated"):  # a repeated Discovery parameter is a list
            fact.kinds[(where, name)] = {"array"}
    fact.scopes = {str(s) for s in m.get("scopes") or []}
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


def _credential_params(integration: Integration) -> frozenset[tuple[str, str]]:
    """(location, name) of every credential part the gateway sends for the integration,
    whichever way the user connects (header names lower-case)."""
    parts = [integration.auth.oauth2, integration.auth.token, integration.auth.basic]
    return frozenset(
        (where, name.lower() if where == "header" else name)
        for auth in parts
        if auth is not None
        for where, name, _ in sent_credentials(auth, "token", "username", "key")
    )


def _differences(
    endpoint: Endpoint, fact: Fact, credential: frozenset[tuple[str, str]] = frozenset()
) -> list[str]:
    out: list[str] = []
    if (endpoint.method, endpoint.path) != (fact.method, fact.path):
        out.append(f"call: {endpoint.method} {endpoint.path} != {fact.method} {fact.path}")
    offered = {(p.location, p.wire_name): p for p in endpoint.parameters}
    for (location, wire), required in fact.params.items():
        if (location, wire.lower() if location == "header" else wire) in credential:
            continue  # the credential: the gateway sends it from the connection
        p = offered.get((location, wire))
        if p is None:
            if required and location in ("path", "query", "header"):
                out.append(f"{location} {wire}: required by the source, not offered")
        elif p.required != required and not (required and p.from_connection):
            out.append(f"{location} {wire}: required {p.required}, the source says {required}")
    body = [p for p in endpoint.parameters if p.location == "body"]
    tops = {_top(p.wire_name) for p in body} | {p.wire_name for p in body}
    for name in sorted(fact.body_required - fact.read_only):
        given = [
            p
            for p in body
            if p.wire_name == name
            or _top(p.wire_name) == name
            or name.startswith(p.wire_name + ".")
        ]
        if name not in tops and not given:
            if endpoint.body is not None or body:
                out.append(f"body {name}: required by the source, not offered")
        elif given and not any(p.required for p in given):
            out.append(f"body {name}: required by the source, offered as optional")
    for p in body:
        top = p.wire_name if p.wire_name in fact.body_fields else _top(p.wire_name)
        needed = top in fact.body_required or (top == "data" and fact.wrapped)
        if p.required and top in fact.body_fields and not needed:
            out.append(f"body {p.wire_name}: required, the source does not require {top}")
    for p in endpoint.parameters:
        where = (p.location, p.wire_name)
        if p.location in ("query", "header") and p.required and where not in fact.params:
            out.append(f"{p.location} {p.wire_name}: required, the source does not declare it")
    out += _type_differences(endpoint, fact)
    if set(endpoint.scopes) != fact.scopes:
        out.append(f"scopes: {sorted(endpoint.scopes)} != the source's {sorted(fact.scopes)}")
    return out


def _type_differences(endpoint: Endpoint, fact: Fact) -> list[str]:
    """Each offered parameter's types (`type` and `also`) and enum against the source's."""
    out: list[str] = []
    for p in endpoint.parameters:
        where = (p.location, p.wire_name)
        if p.location == "body" and p.wire_name in fact.body_fields:
            _kind_and_enum(fact.doc, fact, where, fact.body_fields[p.wire_name], fact.google)
        theirs = fact.kinds.get(where)
        ours = {p.type, *p.also}
        if where in fact.joined and theirs == {"array"}:
            theirs = {"array", "string"}  # `a,b` is the same wire as ["a", "b"]
        if ours == {"array"} and theirs and theirs - ours <= {p.items or "string"}:
            theirs = ours  # one item or a list of them: a single value is wrapped
        if theirs and not (ours <= theirs if where in fact.joined else ours == theirs):
            out.append(
                f"{p.location} {p.wire_name}: type {sorted(ours)}, the source says {sorted(theirs)}"
            )
        enum = fact.enums.get(where)
        if enum and p.enum is not None and {json.dumps(v) for v in p.enum} - enum:
            out.append(f"{p.location} {p.wire_name}: enum values the source does not list")
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
        credential = _credential_params(integration)
        host = _source_host(doc, google)
        if urlsplit(integration.base_url).hostname != host:
            found[f"{source['slug']}.(integration)"] = [
                f"host: {urlsplit(integration.base_url).hostname} != the source's {host}"
            ]
        for endpoint in integration.endpoints:
            if endpoint.operation is None:
                continue  # hand-written (no source operation)
            fact = facts.get(endpoint.operation)
            key = f"{source['slug']}.{endpoint.name}"
            if fact is None:
                found[key] = [f"operation {endpoint.operation!r} is not in the source"]
                continue
            problems = _differences(endpoint, fact, credential)
            if problems:
                found[key] = problems
    return found


def _source_host(doc: dict[str, Any], google: bool) -> str | None:
    if google:
        return urlsplit(str(doc["rootUrl"])).hostname
    servers = doc.get("servers") or [{}]
    return urlsplit(str(servers[0].get("url", ""))).hostname


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


def test_the_verifier_sees_a_wrong_type_enum_or_scope(shipped: Catalog) -> None:
    """The comparison is not vacuous: a changed type, enum value or scope is a difference."""
    doc = json.loads(lzma.decompress((SOURCES / "gmail.v1.json.xz").read_bytes()))
    facts = _google_facts(doc)
    gmail = shipped.integrations["gmail"]
    endpoint = next(e for e in gmail.endpoints if e.operation == "gmail.users.messages.list")
    assert _differences(endpoint, facts[endpoint.operation]) == []
    params = [
        p.model_copy(update={"type": "number"}) if p.name == "q" else p for p in endpoint.parameters
    ]
    wrong = endpoint.model_copy(update={"parameters": params, "scopes": ("https://x/only",)})
    found = _differences(wrong, facts[endpoint.operation])
    assert "query q: type ['number'], the source says ['string']" in found
    assert any(d.startswith("scopes: ['https://x/only'] != the source's") for d in found)
    listed = next(e for e in gmail.endpoints if any(p.enum for p in e.parameters))
    params = [
        p.model_copy(update={"enum": (*p.enum, "invented")}) if p.enum else p
        for p in listed.parameters
    ]
    found = _differences(listed.model_copy(update={"parameters": params}), facts[listed.operation])
    assert any(d.endswith("enum values the source does not list") for d in found)


def test_only_the_credential_the_gateway_sends_is_left_unoffered(shipped: Catalog) -> None:
    """Trello's source declares `key` and `token` on every operation: they are what its
    auth sends, so not offering them is right; another required query parameter left out
    is still a difference."""
    doc = json.loads(lzma.decompress((SOURCES / "trello.com.json.xz").read_bytes()))
    facts = _openapi_facts(doc)
    trello = shipped.integrations["trello"]
    credential = _credential_params(trello)
    assert credential == {("query", "key"), ("query", "token")}
    card = next(e for e in trello.endpoints if e.operation == "getCardsByIdCard")
    fact = facts["getCardsByIdCard"]
    assert {("query", "key"), ("query", "token")} <= set(fact.params)
    assert _differences(card, fact, credential) == []
    assert "query key: required by the source, not offered" in _differences(card, fact)
    fact.params[("query", "invented")] = True
    found = _differences(card, fact, credential)
    assert found == ["query invented: required by the source, not offered"]


def test_only_a_parameter_the_connection_fills_is_offered_optional(shipped: Catalog) -> None:
    """Twilio's source requires `AccountSid` on send_sms; the connection's Account SID
    fills it (catalog.fills), so offering it optional is right. The same parameter
    optional without a connection to fill it is still a difference."""
    doc = json.loads(lzma.decompress((SOURCES / "twilio.com.api.json.xz").read_bytes()))
    send = next(e for e in shipped.integrations["twilio"].endpoints if e.name == "send_sms")
    fact = _openapi_facts(doc)[str(send.operation)]
    assert fact.params[("path", "AccountSid")] is True
    [sid] = [p for p in send.parameters if p.name == "AccountSid"]
    assert (sid.required, sid.from_connection) == (False, "account_sid")
    assert _differences(send, fact) == []
    params = [p.model_copy(update={"from_connection": None}) for p in send.parameters]
    found = _differences(send.model_copy(update={"parameters": params}), fact)
    assert found == ["path AccountSid: required False, the source says True"]
