"""Swagger 2.0 -> OpenAPI 3.0, in-process, for what the importer reads.

Why our own: no maintained Python library converts (swagger2openapi is a Node
tool; prance converts through a web service; aiopenapi3 reads Swagger 2.0 into
its own objects but gives no OpenAPI 3 document). The importer needs only the
parts it reads, so this is a focused mapping, run on a document whose `$ref`s
are already resolved (`refs.resolve`), so `#/definitions/...` never needs a new
address:
- `servers`: `schemes` (https preferred), `host` and `basePath`; no `host`: the
  `basePath` alone, a relative server (then `--base-url` gives the host);
- parameters: `type`/`format`/`items`/`enum`/`default`/bounds move into a
  `schema`; `collectionFormat` (default `csv`) becomes `style`/`explode`
  (`multi`: repeated keys; `csv`: comma-separated; `ssv`/`pipes`: space/pipe
  delimited);
- an `in: body` parameter becomes the `requestBody`, one media type per
  `consumes` (the operation's, else the document's, else JSON); `in: formData`
  parameters become an object body, `multipart/form-data` when a field is a
  `file` or the operation consumes only multipart, else form-urlencoded;
- responses: `schema` under each `produces` type, `headers` kept;
- `securityDefinitions` -> `components.securitySchemes` (`basic` -> http basic;
  OAuth `implicit`/`accessCode`/`password`/`application` -> the OpenAPI 3 flows);
- everything else of an operation (ids, tags, texts, `security`, `x-` keys) as is.
"""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers.source import HTTP_METHODS

_SCHEMA_KEYS = (
    "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
    "uniqueItems", "multipleOf",
)  # fmt: skip
_STYLES = {
    "csv": ("form", False),
    "multi": ("form", True),
    "ssv": ("spaceDelimited", False),
    "pipes": ("pipeDelimited", False),
}
_FLOWS = {
    "implicit": "implicit",
    "accessCode": "authorizationCode",
    "password": "password",
    "application": "clientCredentials",
}
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def _servers(doc: dict[str, Any]) -> list[dict[str, str]]:
    base = str(doc.get("basePath") or "").rstrip("/")
    host = doc.get("host")
    if not host:
        return [{"url": base or "/"}]
    schemes = [str(s) for s in doc.get("schemes") or []]
    scheme = "https" if "https" in schemes or not schemes else schemes[0]
    return [{"url": f"{scheme}://{host}{base}"}]


def _schema(raw: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema part of a non-body Swagger parameter (or an array's `items`)."""
    schema = {k: raw[k] for k in _SCHEMA_KEYS if k in raw}
    if isinstance(schema.get("items"), dict):
        schema["items"] = _schema(schema["items"])
    if schema.get("type") == "file":
        schema = {"type": "string", "format": "binary"}
    return schema


def _parameter(raw: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in raw.items() if k not in _SCHEMA_KEYS and k != "collectionFormat"}
    out["schema"] = _schema(raw)
    if raw.get("type") == "array" and raw.get("in") in ("query", "header", "path"):
        style, explode = _STYLES.get(str(raw.get("collectionFormat") or "csv"), ("form", False))
        out["style"] = "simple" if raw.get("in") != "query" else style
        out["explode"] = explode
    return out


def _form_body(fields: list[dict[str, Any]], consumes: list[str]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for f in fields:
        prop = _schema(f)
        if f.get("description"):
            prop["description"] = f["description"]
        props[str(f["name"])] = prop
    required = [str(f["name"]) for f in fields if f.get("required")]
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    files = any(f.get("type") == "file" for f in fields)
    media = MULTIPART if files or (MULTIPART in consumes and FORM not in consumes) else FORM
    return {"required": bool(required), "content": {media: {"schema": schema}}}


def _body(params: list[dict[str, Any]], consumes: list[str]) -> dict[str, Any] | None:
    for p in params:
        if p.get("in") == "body":
            content = {media: {"schema": p.get("schema") or {}} for media in consumes}
            body = {"content": content, "required": bool(p.get("required"))}
            if p.get("description"):
                body["description"] = p["description"]
            return body
    fields = [p for p in params if p.get("in") == "formData"]
    return _form_body(fields, consumes) if fields else None


def _responses(raw: dict[str, Any], produces: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for code, response in raw.items():
        if not isinstance(response, dict):
            continue
        converted: dict[str, Any] = {"description": str(response.get("description") or "")}
        if response.get("schema") is not None:
            converted["content"] = {m: {"schema": response["schema"]} for m in produces}
        if isinstance(response.get("headers"), dict):
            converted["headers"] = {
                name: {"schema": _schema(h) if isinstance(h, dict) else {}}
                for name, h in response["headers"].items()
            }
        out[str(code)] = converted
    return out


def _operation(op: dict[str, Any], shared: list[Any], doc: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in op.items() if k not in ("parameters", "consumes", "produces")}
    for key in ("responses", "schemes"):
        out.pop(key, None)
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in [*shared, *(op.get("parameters") or [])]:
        if isinstance(raw, dict) and raw.get("name") and raw.get("in"):
            merged[(str(raw["name"]), str(raw["in"]))] = raw
    params = list(merged.values())
    consumes = [str(m) for m in op.get("consumes") or doc.get("consumes") or ["application/json"]]
    produces = [str(m) for m in op.get("produces") or doc.get("produces") or ["application/json"]]
    out["parameters"] = [_parameter(p) for p in params if p.get("in") not in ("body", "formData")]
    body = _body(params, consumes)
    if body is not None:
        out["requestBody"] = body
    out["responses"] = _responses(op.get("responses") or {}, produces)
    return out


def _security_scheme(raw: dict[str, Any]) -> dict[str, Any]:
    kind = raw.get("type")
    if kind == "basic":
        return {"type": "http", "scheme": "basic"}
    if kind != "oauth2":
        return dict(raw)
    flow: dict[str, Any] = {"scopes": raw.get("scopes") or {}}
    for key in ("authorizationUrl", "tokenUrl"):
        if raw.get(key):
            flow[key] = raw[key]
    name = _FLOWS.get(str(raw.get("flow")), "implicit")
    return {"type": "oauth2", "flows": {name: flow}}


def convert(doc: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI 3.0 form of a Swagger 2.0 document whose references are resolved."""
    paths: dict[str, Any] = {}
    for path, item in (doc.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        shared = item.get("parameters") or []
        paths[path] = {
            method: _operation(op, shared, doc)
            for method, op in item.items()
            if method in HTTP_METHODS and isinstance(op, dict)
        }
    schemes = doc.get("securityDefinitions") or {}
    out = {k: v for k, v in doc.items() if k.startswith("x-") or k in ("info", "tags")}
    out.update(openapi="3.0.3", servers=_servers(doc), paths=paths)
    out["components"] = {
        "securitySchemes": {
            str(k): _security_scheme(v) for k, v in schemes.items() if isinstance(v, dict)
        }
    }
    for key in ("security", "externalDocs"):
        if key in doc:
            out[key] = doc[key]
    return out
