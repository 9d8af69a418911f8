"""Google API Discovery documents -> catalog endpoints.

The mapping follows how Google's own client (`googleapiclient/discovery.py`)
turns a Discovery document into calls. Rules this module applies (shared ones:
see `compile`, `params`, `schema`, `naming`, `text`, `errors`, `pagination`):
- resources nest arbitrarily; methods are taken in document order, depth first
  (a resource's methods, then its sub-resources), the document's top-level
  methods last;
- name: the method id without the API name (`gmail.users.messages.list` ->
  `users_messages_list`); category: the resource path (`users.messages` ->
  `users_messages`; top-level methods: the API name);
- base URL: `rootUrl` + `servicePath` (what Discovery makes a method's path
  relative to); path: `/` + `flatPath` when there is one, else `path` (a path
  starting with `/` is from the root: outside the base URL, so the method is
  skipped with the reason; only media-upload paths are like that today);
  `{+name}` (reserved expansion) becomes `{name}` with `multi_segment`;
- with a `flatPath`, a placeholder the method does not declare (People's
  `v1/people/{peopleId}` for `{+resourceName}`) becomes a required string path
  parameter described from the one it replaces, which is left out;
- parameters in `parameterOrder` first, then the rest; `repeated` ones are
  arrays; defaults and maxima (strings in Discovery) are read as their type; of
  the API-wide parameters only `fields` (partial responses) is offered, the
  others are transport or credentials (`key`, `access_token`, `alt`, ...);
- request body: the `request` schema, JSON; a property is required when its
  `annotations.required` lists the method id;
- media: a method with `supportsMediaUpload` keeps its metadata-only call when
  it has a request body (the upload variant, on `mediaUpload.protocols`'
  paths, is listed as skipped: the executor sends JSON or form bodies only); a
  method that needs the upload is skipped; `supportsMediaDownload` is noted
  (the `alt=media` variant returns bytes, the metadata call is kept);
- errors: Discovery documents none, so each endpoint gets the status table's
  fallback; a Discovery document marks no method as a read, so every non-GET
  method changes data (a POST `search`/`query` that only reads is listed with
  its reason under the overlay's `reads`; a method's name is no marker);
- OAuth: the document's scopes, Google's authorize/token URLs, and the scopes
  each method accepts (any one of them allows the call): kept on the endpoint
  as `scopes` and used to choose the integration's scopes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from skillgate.catalog.importers.compile import compile_all
from skillgate.catalog.importers.naming import category, endpoint_name
from skillgate.catalog.importers.refs import resolve
from skillgate.catalog.importers.source import (
    UNMAPPABLE,
    DocumentError,
    Imported,
    Schema,
    SkipOperation,
    Skipped,
    SourceBody,
    SourceOperation,
    SourceParam,
    reason_of,
)

AUTHORIZE_URL = "https://accounts.google.com/o/oauth2/v2/auth"
TOKEN_URL = "https://oauth2.googleapis.com/token"
AUTHORIZE_PARAMS = {"access_type": "offline", "prompt": "consent", "include_granted_scopes": "true"}
GLOBAL_KEPT = ("fields",)
TOKEN_LABEL = "OAuth access token"
TOKEN_HELP = (
    "For testing only: paste a short-lived access token with the API's scopes, e.g. from "
    "the OAuth 2.0 Playground (https://developers.google.com/oauthplayground). Such tokens "
    "expire within an hour and cannot be refreshed: connect with Google for lasting access."
)
_PLUS = re.compile(r"\{\+([^{}]+)\}")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def _pointer_refs(node: Any) -> Any:
    """A copy with Discovery's bare `"$ref": "Message"` made a JSON pointer."""
    if isinstance(node, dict):
        out = {k: _pointer_refs(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            out["$ref"] = "#/schemas/" + ref
        return out
    if isinstance(node, list):
        return [_pointer_refs(v) for v in node]
    return node


def _methods(doc: dict[str, Any]) -> Iterator[tuple[list[str], dict[str, Any]]]:
    def walk(resources: Any, trail: list[str]) -> Iterator[tuple[list[str], dict[str, Any]]]:
        for name, resource in (resources or {}).items():
            for method in (resource.get("methods") or {}).values():
                yield [*trail, name], method
            yield from walk(resource.get("resources"), [*trail, name])

    yield from walk(doc.get("resources"), [])
    for method in (doc.get("methods") or {}).values():
        yield [], method


def _typed_value(schema: Schema, value: Any) -> Any:
    """Discovery writes defaults as strings; read them as the parameter's type."""
    kind = schema.get("type")
    if not isinstance(value, str):
        return value
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    if kind in ("integer", "number"):
        try:
            return int(value) if kind == "integer" else float(value)
        except ValueError:
            return None
    return value


def _param_schema(raw: dict[str, Any]) -> Schema:
    keys = ("type", "format", "enum", "minimum", "maximum", "items", "properties")
    base: Schema = {k: raw[k] for k in keys if k in raw}
    if "default" in raw:
        base["default"] = _typed_value(raw, raw["default"])
    if raw.get("repeated"):
        return {"type": "array", "items": {k: v for k, v in base.items() if k != "default"}}
    return base


def _source_param(wire: str, raw: dict[str, Any], multi: bool) -> SourceParam:
    return SourceParam(
        wire=wire,
        location=str(raw.get("location") or "query"),
        schema=_param_schema(raw),
        required=bool(raw.get("required")),
        description=str(raw.get("description") or ""),
        multi_segment=multi,
    )


def full_path(raw: str, service_path: str) -> str:
    """The method's path under the base URL (`rootUrl` + `servicePath`): `/` + its
    path. A path that starts with `/` is from the root and is returned as it is
    when there is no servicePath; otherwise it lies outside the base URL (callers
    refuse it)."""
    raw = _PLUS.sub(r"{\1}", raw)
    return raw if raw.startswith("/") else "/" + raw


def _path_and_params(
    method: dict[str, Any], service_path: str, globals_: dict[str, Any]
) -> tuple[str, list[SourceParam]]:
    raw_path = str(method.get("flatPath") or method.get("path") or "")
    if raw_path.startswith("/") and service_path:
        raise SkipOperation(f"its path {raw_path} is outside the base URL's /{service_path}")
    multi = set(_PLUS.findall(raw_path))
    path = full_path(raw_path, service_path)
    declared: dict[str, Any] = method.get("parameters") or {}
    placeholders = _PLACEHOLDER.findall(path)
    order = [n for n in method.get("parameterOrder") or [] if n in declared]
    order += [n for n in declared if n not in order]
    params: list[SourceParam] = []
    replaced = [n for n in order if declared[n].get("location") == "path" and n not in placeholders]
    for name in order:
        if name not in replaced:
            params.append(_source_param(name, declared[name], name in multi))
    for ph in placeholders:
        if ph not in declared:
            params.append(_segment_param(ph, replaced, declared))
    for name in GLOBAL_KEPT:
        if name in globals_ and name not in declared:
            params.append(_source_param(name, globals_[name], False))
    return path, params


def _segment_param(ph: str, replaced: list[str], declared: dict[str, Any]) -> SourceParam:
    if not replaced:
        raise SkipOperation(f"path placeholder {{{ph}}} has no declared parameter")
    whole = replaced[0]
    text = str(declared[whole].get("description") or "")
    return SourceParam(
        wire=ph,
        location="path",
        schema={"type": "string"},
        required=True,
        description=f"The {ph} part of {whole} ({whole}: {text})",
    )


def _body(method: dict[str, Any], method_id: str) -> SourceBody | None:
    request = method.get("request")
    if not isinstance(request, dict) or not request:
        return None
    schema: Schema = dict(request)
    props = schema.get("properties") or {}
    schema["required"] = [
        key
        for key, prop in props.items()
        if method_id in ((prop.get("annotations") or {}).get("required") or [])
    ]
    return SourceBody(schema, "json", required=True)


def _media(method: dict[str, Any], path: str, notes: list[str]) -> Skipped | None:
    """The upload variant as a `Skipped` entry; SkipOperation when the call needs it."""
    method_id = str(method.get("id"))
    if method.get("supportsMediaDownload"):
        notes.append(
            f"{method_id}: media download (alt=media) returns the file's bytes; "
            "only the metadata call is cataloged"
        )
    if not method.get("supportsMediaUpload"):
        return None
    if not method.get("request"):
        raise SkipOperation("needs a media upload; the executor sends JSON or form bodies only")
    protocols = (method.get("mediaUpload") or {}).get("protocols") or {}
    upload = str((protocols.get("simple") or protocols.get("resumable") or {}).get("path") or path)
    return Skipped(
        f"{method_id} (media upload)",
        str(method.get("httpMethod") or "POST"),
        full_path(upload, ""),
        "media upload (multipart/resumable) not supported by the executor; "
        "the metadata-only call is kept",
    )


def _operation(trail: list[str], method: dict[str, Any], ctx: dict[str, Any]) -> SourceOperation:
    method_id = str(method.get("id") or "")
    http = str(method.get("httpMethod") or "GET").upper()
    path, params = _path_and_params(method, ctx["service_path"], ctx["globals"])
    short_id = method_id.removeprefix(ctx["api"] + ".")
    return SourceOperation(
        operation=method_id,
        method=http,
        path=path,
        name=endpoint_name(short_id, http, path),
        category=category(".".join(trail), fallback=ctx["cat"]) if trail else ctx["cat"],
        summary="",
        description=str(method.get("description") or ""),
        docs_url=ctx["docs_url"],
        params=params,
        body=_body(method, method_id),
        result_schema=method.get("response"),
        deprecated=bool(method.get("deprecated")),
        scopes=tuple(str(s) for s in method.get("scopes") or []),
    )


def import_discovery(document: dict[str, Any], *, slug: str) -> Imported:
    """Every method of a Google Discovery document as a catalog endpoint or a `Skipped`."""
    if document.get("kind") != "discovery#restDescription" or "rootUrl" not in document:
        raise DocumentError("not a Google API Discovery document (kind discovery#restDescription)")
    notes: list[str] = []
    doc = resolve(_pointer_refs(document), notes)
    api = str(doc.get("name") or slug)
    docs_url = str(doc.get("documentationLink") or "") or None
    ctx: dict[str, Any] = {
        "api": api,
        "cat": category(api),
        "service_path": str(doc.get("servicePath") or ""),
        "globals": doc.get("parameters") or {},
        "docs_url": docs_url,
    }
    ops: list[SourceOperation] = []
    skipped: list[Skipped] = []
    for trail, method in _methods(doc):
        op_id = str(method.get("id") or ".".join(trail))
        http = str(method.get("httpMethod") or "GET").upper()
        try:
            op = _operation(trail, method, ctx)
            upload = _media(method, op.path, notes)
        except UNMAPPABLE as exc:
            path = full_path(str(method.get("path") or ""), ctx["service_path"])
            skipped.append(Skipped(op_id, http, path, reason_of(exc)))
            continue
        if upload is not None:
            skipped.append(upload)
        ops.append(op)
    compiled = compile_all(slug, ops)
    oauth = ((doc.get("auth") or {}).get("oauth2") or {}).get("scopes") or {}
    return Imported(
        endpoints=compiled.endpoints,
        skipped=skipped + compiled.skipped,
        title=str(doc.get("title") or api),
        description=str(doc.get("description") or doc.get("title") or ""),
        base_url=(str(doc["rootUrl"]).rstrip("/") + "/" + ctx["service_path"]).rstrip("/"),
        docs_url=docs_url,
        scopes={str(k): str((v or {}).get("description") or "") for k, v in oauth.items()},
        authorize_url=AUTHORIZE_URL,
        token_url=TOKEN_URL,
        authorize_params=dict(AUTHORIZE_PARAMS),
        auth_hint="bearer",
        token_label=TOKEN_LABEL,
        token_help=TOKEN_HELP,
        verify_path=compiled.verify_path,
        responses=compiled.responses,
        endpoint_scopes={e["name"]: list(e.get("scopes", [])) for e in compiled.endpoints},
        notes=notes + compiled.notes,
    )
