"""Source operations -> catalog endpoint dicts, each one validated as it is made.

Rules (both importers; the field-level ones are in the modules that apply them):
- methods: GET, HEAD, POST, PUT, PATCH, DELETE; any other (OPTIONS, TRACE) is
  skipped;
- method and path are exactly the source's (placeholders as written); every
  placeholder must be a declared path parameter and every path parameter must
  appear in the path, else the operation is skipped;
- a path parameter holding a ref, branch, tag or file path is `multi_segment`
  (`segments`);
- `changes_data`: false for GET and HEAD; true for every other method unless the source
  marks the operation as a read (`SourceOperation.reads`: an OpenAPI
  `x-readOnly`-style flag). A name is never taken for a marker (Stripe's
  `PostRadarValueListsValueList` updates a list): a POST that only reads is
  listed, with the reason, under the overlay's `reads` (catalog.overlay);
- `scopes`: the OAuth scopes any one of which allows the call, when the source
  says (Google methods' `scopes`; an OpenAPI operation whose security
  requirements each name one OAuth 2.0 scope);
- a POST/PUT/PATCH with no parameters at all is kept when it has an
  operation id (the catalog validator asks a hand-written one to declare its
  parameters, not one whose source declares none: Netlify's `POST
  /deploy_keys`); without an id it is skipped;
- each endpoint is checked with `Endpoint.model_validate` and the example check
  (`validate.check_example`, the CLI parser round trip); when the example does
  not round-trip, the source examples give way to placeholders; what still
  fails is skipped with the validator's words. One bad operation never stops
  the import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from skillgate.catalog.importers import body as body_mod
from skillgate.catalog.importers import errors as errors_mod
from skillgate.catalog.importers import pagination, responses, segments
from skillgate.catalog.importers import params as params_mod
from skillgate.catalog.importers import schema as sch
from skillgate.catalog.importers.naming import readable, shortened, unique
from skillgate.catalog.importers.params import Param
from skillgate.catalog.importers.source import (
    UNMAPPABLE,
    SkipOperation,
    Skipped,
    SourceOperation,
    reason_of,
)
from skillgate.catalog.importers.text import (
    endpoint_description,
    humanise,
    only_the_id,
    said_from_path,
)
from skillgate.catalog.models import Endpoint
from skillgate.catalog.validate import check_example

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
READS = ("GET", "HEAD")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_CALLER_WORDS = frozenset({"user", "me", "profile", "account", "whoami", "self", "userinfo"})


@dataclass
class Compiled:
    endpoints: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verify_path: str | None = None
    # The compact 2xx response schema (`responses.compact`) of each endpoint that has
    # one, by `response_key`: kept apart from the endpoints (catalog.responses).
    responses: dict[str, Any] = field(default_factory=dict)


def response_key(endpoint: dict[str, Any]) -> str:
    """An endpoint's key in its integration's response schemas: its source operation id,
    else `METHOD path` (neither changes under an overlay: catalog.overlay)."""
    return str(endpoint.get("operation") or f"{endpoint['method']} {endpoint['path']}")


def _parameters(op: SourceOperation, notes: list[str]) -> list[Param]:
    built = [params_mod.from_source(s, notes) for s in op.params]
    result = [p for p in built if p is not None]
    result.sort(key=lambda p: ("path", "query", "header").index(p.location))
    if op.body is not None:
        if op.method in READS:
            notes.append(f"a request body on a {op.method}: left out")
        else:
            result.extend(body_mod.from_body(op.body, notes))
    placeholders = _PLACEHOLDER.findall(op.path)
    declared = {p.wire for p in result if p.location == "path"}
    for ph in placeholders:
        if ph not in declared:
            raise SkipOperation(f"path placeholder {{{ph}}} has no declared path parameter")
    for wire in declared - set(placeholders):
        raise SkipOperation(f"path parameter {wire!r} does not appear in the path")
    segments.mark(op.path, result)  # a ref, branch, tag or file path may hold '/'
    params_mod.name_all(result)
    return result


def changes_data(op: SourceOperation) -> bool:
    if op.method in READS:
        return False
    return not op.reads


def endpoint_dict(op: SourceOperation, name: str, notes: list[str]) -> tuple[dict[str, Any], str]:
    """(endpoint dict, verify path or "") of one operation; SkipOperation says why not."""
    if op.method not in METHODS:
        raise SkipOperation(f"method {op.method} is not supported by the executor")
    params = _parameters(op, notes)
    if not params and op.method in ("POST", "PUT", "PATCH") and not op.operation:
        raise SkipOperation(f"a {op.method} with no parameters (the validator requires some)")
    if only_the_id(op.operation, op.summary, op.description):
        description = said_from_path(op.operation, op.method, op.path)
    else:
        description = endpoint_description(op.summary, op.description, humanise(name))
    if op.deprecated:
        description = "Deprecated. " + description
    out: dict[str, Any] = {
        "name": name,
        "method": op.method,
        "path": op.path,
        "category": op.category,
        "description": description,
    }
    if op.operation:
        out["operation"] = op.operation
    if op.docs_url:
        out["docs_url"] = op.docs_url
    if op.scopes:
        out["scopes"] = list(op.scopes)
    if op.base_url:
        out["base_url"] = op.base_url
    if (
        op.body is not None
        and op.body.encoding in ("form", "multipart", "binary")
        and any(p.location == "body" for p in params)
    ):
        out["body"] = op.body.encoding
    if op.body is not None and op.body.content_type and any(p.location == "body" for p in params):
        out["content_type"] = op.body.content_type
    if op.query:
        out["query"] = dict(op.query)
    out["changes_data"] = changes_data(op)
    paging = pagination.recognise(op.params, params, op.result_schema, op.link_header)
    if paging:
        out["pagination"] = paging
    out["parameters"] = [p.to_dict() for p in params]
    has_path = any(p.location == "path" for p in params)
    out["errors"] = errors_mod.errors(op.responses, has_path)
    # A token is checked at the integration's own host: never on an endpoint's own one.
    return out, "" if op.base_url else _verify_path(op, params)


def _verify_path(op: SourceOperation, params: list[Param]) -> str:
    """The path to prove a token with, when the GET needs nothing but documented defaults."""
    if op.method != "GET" or op.query:  # a verify path has no query
        return ""
    path = op.path
    for p in params:
        if not p.required:
            continue
        if p.location != "path" or p.verify_value is None:
            return ""
        path = path.replace("{" + p.wire + "}", str(p.verify_value))
    return path


def _validated(slug: str, data: dict[str, Any]) -> dict[str, Any]:
    """`data` when the catalog accepts it; placeholders for examples that do not round-trip."""
    try:
        problem = check_example(slug, Endpoint.model_validate(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        raise SkipOperation(f"catalog refuses it: {where}: {msg}") from None
    if problem is None:
        return data
    for p in data["parameters"]:
        if "example" in p:
            p["example"] = sch.placeholder(p["type"], p["name"], p.get("items"))
    problem = check_example(slug, Endpoint.model_validate(data))
    if problem is not None:
        raise SkipOperation(f"its example does not round-trip: {problem}")
    return data


def compile_all(slug: str, operations: list[SourceOperation]) -> Compiled:
    """Every operation as an endpoint or a `Skipped` entry, names unique in document order."""
    result = Compiled()
    built: list[tuple[SourceOperation, dict[str, Any], str]] = []
    candidates: list[tuple[str, str]] = []
    said: list[str | None] = []
    for op in operations:
        notes: list[str] = []
        short = readable(op.operation, op.method, op.path, op.summary)
        try:
            data, verify = endpoint_dict(op, short or op.name, notes)
        except UNMAPPABLE as exc:
            result.skipped.append(Skipped(op.label, op.method, op.path, reason_of(exc)))
            continue
        result.notes.extend(f"{op.label}: {n}" for n in notes)
        built.append((op, data, verify))
        said.append(short)
    names = shortened(unique(op.name for op, _, _ in built), said)
    for (op, data, verify), (name, alias) in zip(built, names, strict=True):
        data["name"] = name
        if alias is not None:
            data["aliases"] = [alias]
        try:
            result.endpoints.append(_validated(slug, data))
        except UNMAPPABLE as exc:
            result.skipped.append(Skipped(op.label, op.method, op.path, reason_of(exc)))
            continue
        if verify:
            candidates.append((verify, name))
        _keep_response(result, data, op)
    result.verify_path = choose_verify(candidates)
    result.responses = {k: v for k, v in result.responses.items() if v is not None}
    return result


def _keep_response(result: Compiled, data: dict[str, Any], op: SourceOperation) -> None:
    """The endpoint's compact response schema, unless its key is another's too (two
    operations without an id on one method and path: which answer is which is unknown)."""
    key = response_key(data)
    if key in result.responses:
        result.responses[key] = None
        return
    result.responses[key] = responses.compact(op.answer_schema or op.result_schema)


def choose_verify(candidates: list[tuple[str, str]]) -> str | None:
    """The GET that proves a token, of (path, endpoint name) pairs that need no input but
    documented defaults: one about the caller (`/user`, `.../me/profile`), else the first
    list (a bare `get` may want more than its document says, e.g. Drive's `about`), else
    the first; never the bare root `/` (it answers without a token)."""
    usable = [(path, name) for path, name in candidates if path.strip("/")]
    for path, _ in usable:
        if set(re.split(r"[/{}:.]+", path.lower())) & _CALLER_WORDS:
            return path
    for path, name in usable:
        if "list" in name.split("_"):
            return path
    return usable[0][0] if usable else None
