"""OpenAPI 3.0 / 3.1 and Swagger 2.0 documents -> catalog endpoints.

Swagger 2.0 is converted to OpenAPI 3.0 in-process first (`swagger`); other
Swagger versions are refused with a clear error.

Rules this module applies (shared ones: see `compile`, `params`, `schema`,
`naming`, `text`, `errors`, `pagination`):
- `$ref`s are resolved with jsonref (`refs`), path-level parameters merged
  under the operation's own (same name and location: the operation wins);
- name: snake_case of the `operationId` (`issues/list-for-repo` ->
  `issues_list_for_repo`), else of method + path;
- category: the first tag, else the first path segment that is not a version
  (Stripe's `/v1/customers` -> `customers`);
- description: summary + first paragraph of the description; `docs_url`: the
  operation's `externalDocs.url`, else the document's;
- base URL: the first server, its `{variables}` replaced by their defaults
  (only an absolute http(s) URL counts); a server URL with credentials in it
  (`user:password@`) refuses the document; an operation whose own `servers` (or
  its path's) name another host (GitHub's release-asset upload at
  uploads.github.com) keeps it as the endpoint's `base_url`, one more host of the
  integration; one that is not an absolute URL is skipped. The server's
  variables are kept in `Imported.server_variables` (for `--base-url
  'https://{region}.example.com'`: a variable the user gives when connecting);
- auth: `security.document_spec` (bearer, basic, apiKey in header/query/cookie,
  a two-part key and token); an operation parameter an `apiKey` scheme names
  (Trello's `key` and `token`) is that credential, sent by the gateway: left out;
- a parameter given as `content` (JSON-encoded) is an `object`/`array` whose
  value is sent as JSON text; a query array in `style: deepObject` (Stripe's
  `expand`) is sent the way such servers read it, `name[]=a&name[]=b` (wire
  name `name[]`), a query object in that style in brackets (`style: deepObject`,
  `created[gte]=1`);
- a query string written into a path (`/v1/messages?beta=true`) is the
  endpoint's fixed `query`, sent on every call; the path is the part before it;
- a path's `#fragment` (Box writes `/files/{file_id}#add_shared_link` to tell
  apart operations on one URL) is never sent by a client: the endpoint's path
  is the part before it;
- request body: `application/json`, else `application/x-www-form-urlencoded`
  (`body: form`), else another JSON type (`application/merge-patch+json`,
  `application/json-patch+json`, `application/vnd.api+json`: a JSON body sent
  with that `content_type`), else `*/*` with a schema (a JSON body sent as
  `application/json`), else `multipart/form-data` (`body: multipart`), each
  property's `encoding` style and explode kept (see `params`), else
  `application/octet-stream` (`body: binary`: one file parameter `body` whose
  bytes are the request body); `*/*` alone with no schema (a raw upload) and any
  other content type alone are skipped;
- errors from the documented 4xx/5xx responses; pagination from the query
  parameters, the 2xx JSON schema and its `Link` header;
- a non-GET that only reads: only an `x-readOnly`/`x-read-only`/`x-readonly`
  flag says so (an operation id ending in list or search is no marker: Stripe's
  `PostRadarValueListsValueList` updates a value list);
- scopes: from the operation's `security` (else the document's) when each of its
  alternatives is one OAuth 2.0 scheme with one scope (any one of them allows the
  call); a requirement of several scopes at once, or another scheme, gives none.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers import swagger
from skillgate.catalog.importers.compile import compile_all
from skillgate.catalog.importers.document import load_document
from skillgate.catalog.importers.media import is_json, request_body
from skillgate.catalog.importers.naming import category, endpoint_name, snake
from skillgate.catalog.importers.refs import resolve
from skillgate.catalog.importers.security import document_spec
from skillgate.catalog.importers.source import (
    HTTP_METHODS,
    UNMAPPABLE,
    DocumentError,
    Imported,
    Schema,
    SkipOperation,
    Skipped,
    SourceOperation,
    SourceParam,
    reason_of,
)

__all__ = ["import_openapi", "load_document"]

_VAR = re.compile(r"\{([^{}]+)\}")
_VERSION = re.compile(r"^v\d+(\.\d+)*$|^\d+(\.\d+)+$", re.IGNORECASE)
_READ_FLAGS = ("x-readOnly", "x-read-only", "x-readonly")


def _version(document: dict[str, Any]) -> None:
    if "swagger" in document:
        if str(document["swagger"]) != "2.0":
            raise DocumentError(f"Swagger {document['swagger']} is not supported (2.0 is)")
    else:
        version = str(document.get("openapi") or "")
        if not (version.startswith("3.0") or version.startswith("3.1")):
            raise DocumentError(
                f"not an OpenAPI 3.0/3.1 or Swagger 2.0 document (openapi: {version or 'missing'})"
            )
    if not isinstance(document.get("paths"), dict):
        raise DocumentError("the document has no `paths`")


def server_url(servers: Any) -> str | None:
    """The first server's absolute URL, variables at their defaults, without a final '/'."""
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
        return None
    first = servers[0]
    url = str(first.get("url") or "")
    variables = first.get("variables") or {}

    def value(match: re.Match[str]) -> str:
        var = variables.get(match.group(1)) or {}
        return str(var.get("default", match.group(0)))

    url = _VAR.sub(value, url).rstrip("/")
    if "@" in url.split("://", 1)[-1].split("/", 1)[0]:
        raise DocumentError(
            "servers: a server URL carries credentials (user:password@), which every "
            "user's dry run would show; remove them and import again"
        )
    return url if re.match(r"^https?://[^/?#{}]+", url) else None


def relative_path(servers: Any) -> str | None:
    """The first server's URL when it is a path (`/v1.56`: the API is served wherever
    the document is), without a final '/'; None otherwise."""
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
        return None
    url = str(servers[0].get("url") or "")
    return url.rstrip("/") if url.startswith("/") and not url.startswith("//") else None


def _param(raw: dict[str, Any]) -> SourceParam:
    given = raw.get("schema")
    schema: Schema = given if isinstance(given, dict) else {}
    content = raw.get("content")
    if not schema and isinstance(content, dict) and content:
        media = next(iter(content.values())) or {}
        schema = {**(media.get("schema") or {}), "x-json-content": True}
    style = raw.get("style", "form")
    wire = str(raw.get("name") or "")
    explode = bool(raw.get("explode", style == "form"))
    deep_array = style == "deepObject" and sch.plain_type(sch.merged(schema)) == "array"
    if raw.get("in") == "query" and deep_array:
        wire, explode = wire + "[]", True  # one `name[]=` pair per value
    examples: list[Any] = []
    if "example" in raw:
        examples.append(raw["example"])
    for ex in (raw.get("examples") or {}).values():
        if isinstance(ex, dict) and "value" in ex:
            examples.append(ex["value"])
    return SourceParam(
        wire=wire,
        location=str(raw.get("in") or ""),
        schema=schema,
        required=bool(raw.get("required")),
        description=str(raw.get("description") or ""),
        explode=explode,
        examples=tuple(examples),
        style=str(style),
    )


def _params(
    item: dict[str, Any], op: dict[str, Any], credentials: frozenset[tuple[str, str]]
) -> list[SourceParam]:
    """The operation's parameters (its own over its path's), without those that carry the
    credential: a parameter an `apiKey` security scheme names (Trello's `key` and `token`
    query parameters) is sent by the gateway from the connection, never by the caller."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in list(item.get("parameters") or []) + list(op.get("parameters") or []):
        if isinstance(raw, dict) and raw.get("name") and raw.get("in"):
            merged[(str(raw["name"]), str(raw["in"]))] = raw
    return [_param(raw) for key, raw in merged.items() if key not in credentials]


def _credential_params(schemes: dict[str, Any]) -> frozenset[tuple[str, str]]:
    """(name, location) of each parameter an `apiKey` security scheme sends."""
    return frozenset(
        (str(s["name"]), str(s["in"]))
        for s in schemes.values()
        if isinstance(s, dict) and s.get("type") == "apiKey" and s.get("name") and s.get("in")
    )


def _responses(op: dict[str, Any]) -> tuple[dict[int, str], Schema | None, bool]:
    codes: dict[int, str] = {}
    result: Schema | None = None
    link = False
    raw = {str(code): response for code, response in (op.get("responses") or {}).items()}
    for code in sorted(raw):
        response = raw[code]
        if not code.isdigit() or not isinstance(response, dict):
            continue
        codes[int(code)] = str(response.get("description") or "")
        if 200 <= int(code) < 300 and result is None:
            content = response.get("content") or {}
            media = next((m for m in content if is_json(m)), None)
            if media is not None:
                result = (content[media] or {}).get("schema")
            link = any(str(h).lower() == "link" for h in response.get("headers") or {})
    return codes, result, link


def _answer(op: dict[str, Any]) -> Schema | None:
    """The success answer's schema for the endpoint tool's output schema: the first 2xx
    response (a `2XX` range too: Microsoft Graph) with a JSON schema, `*/*` counting as
    JSON (DocuSign answers JSON under it)."""
    for code, response in sorted((str(c), r) for c, r in (op.get("responses") or {}).items()):
        if not ((code.isdigit() and 200 <= int(code) < 300) or code.upper() == "2XX"):
            continue
        content = (response.get("content") if isinstance(response, dict) else None) or {}
        media = next((m for m in content if is_json(m)), None) or (
            "*/*" if "*/*" in content else None
        )
        schema = (content[media] or {}).get("schema") if media is not None else None
        if isinstance(schema, dict):
            return schema
    return None


def _reads(op: dict[str, Any]) -> bool | None:
    """True when the document marks the operation a read; None: no marker."""
    return True if any(op.get(flag) is True for flag in _READ_FLAGS) else None


def _operation(
    path: str, method: str, item: dict[str, Any], op: dict[str, Any], ctx: dict[str, Any]
) -> SourceOperation:
    method_up = method.upper()
    op_id = str(op.get("operationId") or "")
    own = _own_server(op, item, ctx["base_url"])
    tags = op.get("tags") or []
    segment = next(
        (s for s in path.split("/") if s and "{" not in s and not _VERSION.match(s)), "general"
    )
    name = endpoint_name(op_id, method_up, path)
    codes, result, link = _responses(op)
    docs = (op.get("externalDocs") or {}).get("url") or ctx["docs_url"]
    return SourceOperation(
        operation=op_id,
        method=method_up,
        path=path,
        name=name,
        category=category(str(tags[0]) if tags else snake(segment)),
        summary=str(op.get("summary") or ""),
        description=str(op.get("description") or ""),
        docs_url=str(docs) if docs else None,
        params=_params(item, op, ctx["credentials"]),
        body=request_body(op),
        responses=codes,
        result_schema=result,
        answer_schema=_answer(op),
        link_header=link,
        reads=_reads(op),
        deprecated=bool(op.get("deprecated")),
        scopes=_oauth_scopes(op.get("security", ctx["security"]), ctx["oauth"]),
        base_url=own,
    )


def _own_server(op: dict[str, Any], item: dict[str, Any], base_url: str | None) -> str | None:
    """The operation's own host (its `servers`, else its path's) when not the document's:
    the endpoint's `base_url`. A server that is not an absolute URL skips it."""
    servers = op.get("servers") or item.get("servers")
    if not servers:
        return None
    url = server_url(servers)
    if url is None:
        raise SkipOperation(f"served from {servers!r}, not an absolute http(s) URL")
    return None if url == base_url else url


def _oauth_scopes(requirements: Any, oauth_schemes: set[str]) -> tuple[str, ...]:
    """The scopes any one of which allows the call: only when every alternative of the
    security requirement is one OAuth 2.0 scheme with one scope (else ())."""
    if not isinstance(requirements, list) or not requirements:
        return ()
    scopes: list[str] = []
    for requirement in requirements:
        if not isinstance(requirement, dict) or len(requirement) != 1:
            return ()
        [(scheme, names)] = requirement.items()
        if scheme not in oauth_schemes or not isinstance(names, list) or len(names) != 1:
            return ()
        if str(names[0]) not in scopes:
            scopes.append(str(names[0]))
    return tuple(scopes)


def _fixed_query(text: str) -> dict[str, str]:
    """The constant pairs of a query string written into a path (`method=flickr.x`);
    a templated one (`lat={lat}`) is a declared query parameter, not a constant."""
    pairs = parse_qsl(text, keep_blank_values=True)
    return {k: v for k, v in pairs if "{" not in k + v}


def _operations(
    doc: dict[str, Any], ctx: dict[str, Any], skipped: list[Skipped]
) -> list[SourceOperation]:
    ops: list[SourceOperation] = []
    for key, item in doc["paths"].items():
        if not isinstance(item, dict):
            continue
        # A fragment is never sent; a query string in the path is sent as it is.
        path, _, fixed = str(key).split("#", 1)[0].partition("?")
        for method, op in item.items():
            if method not in HTTP_METHODS or not isinstance(op, dict):
                continue
            label = str(op.get("operationId") or f"{method.upper()} {path}")
            try:
                ops.append(_operation(path, method, item, op, ctx))
                ops[-1].query = _fixed_query(fixed)
            except UNMAPPABLE as exc:
                skipped.append(Skipped(label, method.upper(), path, reason_of(exc)))
    return ops


def _security(doc: dict[str, Any], imported: Imported) -> None:
    """OAuth 2.0 from `components.securitySchemes` (the first authorization-code or
    implicit flow), and how a pasted credential is sent (`security.document_spec`)."""
    schemes = (doc.get("components") or {}).get("securitySchemes") or {}
    for scheme in schemes.values():
        if not isinstance(scheme, dict):
            continue
        kind = scheme.get("type")
        if kind == "oauth2":
            flows = scheme.get("flows") or {}
            flow = flows.get("authorizationCode") or flows.get("implicit") or {}
            imported.authorize_url = imported.authorize_url or flow.get("authorizationUrl")
            imported.token_url = imported.token_url or flow.get("tokenUrl")
            for scope, text in (flow.get("scopes") or {}).items():
                imported.scopes.setdefault(str(scope), str(text or ""))
    imported.auth_hint = document_spec(doc)


def import_openapi(document: dict[str, Any], *, slug: str) -> Imported:
    """Every operation of an OpenAPI 3.0/3.1 document as a catalog endpoint or a `Skipped`."""
    _version(document)
    notes: list[str] = []
    if "swagger" in document:  # 2.0: resolved first, so no reference needs a new address
        doc = swagger.convert(resolve(document, notes))
    else:
        doc = resolve(document, notes)
    info = doc.get("info") or {}
    docs_url = (doc.get("externalDocs") or {}).get("url")
    schemes = (doc.get("components") or {}).get("securitySchemes") or {}
    ctx: dict[str, Any] = {
        "base_url": server_url(doc.get("servers")),
        "docs_url": docs_url,
        "security": doc.get("security"),
        "oauth": {
            str(k) for k, v in schemes.items() if isinstance(v, dict) and v.get("type") == "oauth2"
        },
        "credentials": _credential_params(schemes),
    }
    skipped: list[Skipped] = []
    compiled = compile_all(slug, _operations(doc, ctx, skipped))
    imported = Imported(
        endpoints=compiled.endpoints,
        skipped=skipped + compiled.skipped,
        title=str(info.get("title") or slug),
        description=str(info.get("description") or info.get("title") or ""),
        base_url=ctx["base_url"],
        base_path=relative_path(doc.get("servers")),
        docs_url=str(docs_url) if docs_url else None,
        verify_path=compiled.verify_path,
        responses=compiled.responses,
        notes=notes + compiled.notes,
    )
    _security(doc, imported)
    imported.server_variables = _server_variables(doc.get("servers"))
    return imported


def _server_variables(servers: Any) -> dict[str, dict[str, str]]:
    """The first server's variables: name -> {description, default} (as text)."""
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
        return {}
    found = servers[0].get("variables") or {}
    return {
        str(name): {k: str(var[k]) for k in ("description", "default") if var.get(k) is not None}
        for name, var in found.items()
        if isinstance(var, dict)
    }
