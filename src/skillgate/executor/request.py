"""Build the one upstream request: URL from the path template, query, headers, body.

The host is fixed by the catalog (or its `SKILLGATE_<SLUG>_BASE_URL` override).
Path parameters become percent-encoded single segments, or, for one the catalog
marks `multi_segment` (a git ref, branch, tag or file path), segments split at
`/` (or a given `%2F`), each encoded once; values that could change the path's
shape (`..`, `.`, empty segments, `/` elsewhere, `\\`, control characters) are
refused, and the final URL is checked to stay under the integration's base URL.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import SplitResult, quote, urlencode, urlsplit

import orjson

from skillgate.catalog.models import BodyEncoding, Endpoint, Parameter
from skillgate.errors import BadRequest
from skillgate.executor import uploads, wire
from skillgate.kit.outbound import USER_AGENT, UpstreamRequest
from skillgate.kit.upstream import Credential, place_credential, with_query

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]+")  # what `quote` leaves as it is
_ENCODED_SLASH = re.compile("%2f", re.IGNORECASE)


def _json(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:  # integers beyond 64 bits
        return json.dumps(value, ensure_ascii=False).encode()


def _segment(param: Parameter, value: Any) -> str:
    """The path text for one path parameter, every segment percent-encoded once.

    `%2F` (either case) is an encoded slash the caller already wrote: in a
    `multi_segment` parameter it separates segments like `/` (`feature%2Fx` is
    `feature/x`); in any other it stays one encoded slash inside the segment
    (GitHub's environment names). Every other character is the value's own and
    is encoded (a literal `%` becomes `%25`). Empty, `.` and `..` segments are
    refused either way."""
    text = wire.text(value)
    if _UNRESERVED.fullmatch(text) and text != "." and text != "..":
        return text  # the common case: nothing to refuse, nothing to encode
    if _CONTROL.search(text) or "\\" in text:
        raise BadRequest(f"{param.name}: control characters and backslashes are not allowed.")
    if param.multi_segment:
        parts, joint = _ENCODED_SLASH.sub("/", text).split("/"), "/"
    elif "/" in text:
        raise BadRequest(f"{param.name}: must be a single path segment (no '/').")
    else:
        parts, joint = _ENCODED_SLASH.split(text), "%2F"
    for part in parts:
        if part in ("", ".", ".."):
            raise BadRequest(f"{param.name}: {text!r} is not a valid path segment.")
    return joint.join(quote(part, safe="") for part in parts)


def _place(target: dict[str, Any], dotted: str, value: Any) -> None:
    """Put `value` at the dotted path. An object given whole and fields of it given on
    their own (`start` and `start.date`) are merged, in either order (the executor's
    validation refuses a field given both ways); the caller's objects are copied,
    never changed."""
    keys = dotted.split(".")
    node = target
    for key in keys[:-1]:
        child = node.get(key)
        child = dict(child) if isinstance(child, dict) else {}
        node[key] = child
        node = child
    last = keys[-1]
    placed = node.get(last)
    if isinstance(value, dict) and isinstance(placed, dict):
        value = _merged(value, placed)  # fields placed before stay
    node[last] = value


def _merged(whole: dict[str, Any], placed: dict[str, Any]) -> dict[str, Any]:
    out = dict(whole)
    for key, value in placed.items():
        inner = out.get(key)
        both = isinstance(inner, dict) and isinstance(value, dict)
        out[key] = _merged(inner, value) if both else value  # type: ignore[arg-type]
    return out


@dataclass(frozen=True)
class _Plan:
    """What `build` needs of an endpoint, worked out once per endpoint."""

    pieces: tuple[str | Parameter, ...]  # the path template: literals and path parameters
    others: tuple[Parameter, ...]  # query, header and body parameters, in catalog order
    encoding: BodyEncoding | None


_PLANS: dict[int, tuple[Endpoint, _Plan]] = {}


def _plan(endpoint: Endpoint) -> _Plan:
    found = _PLANS.get(id(endpoint))
    if found is not None and found[0] is endpoint:
        return found[1]
    by_wire = {p.wire_name: p for p in endpoint.parameters if p.location == "path"}
    split = _PLACEHOLDER.split(endpoint.path)  # literal, name, literal, name, ..., literal
    pieces = tuple(by_wire[x] if i % 2 else x for i, x in enumerate(split) if i % 2 or x)
    plan = _Plan(
        pieces,
        tuple(p for p in endpoint.parameters if p.location != "path"),
        endpoint.body_encoding,
    )
    if len(_PLANS) >= 10_000:  # catalogs are loaded once; this only bounds test runs
        _PLANS.clear()
    _PLANS[id(endpoint)] = (endpoint, plan)  # holding the endpoint keeps its id unique
    return plan


@lru_cache(maxsize=256)
def _split_base(base_url: str) -> SplitResult:
    return urlsplit(base_url)


def build(
    endpoint: Endpoint,
    base_url: str,
    values: dict[str, Any],
    default_headers: dict[str, str],
    credential: Credential | tuple[Credential, ...] | None,
) -> UpstreamRequest:
    plan = _plan(endpoint)
    path = "".join(
        piece if isinstance(piece, str) else _segment(piece, values[piece.name])
        for piece in plan.pieces
    )
    url = base_url + path
    base = _split_base(base_url)
    final = urlsplit(url)
    if (final.scheme, final.netloc) != (base.scheme, base.netloc) or not final.path.startswith(
        base.path
    ):
        raise BadRequest("The request would leave the integration's host.")  # defence in depth

    query: list[tuple[str, str]] = list(endpoint.query.items())  # the path's own, first
    headers = {"User-Agent": USER_AGENT, **default_headers}
    headers.update(endpoint.headers)
    body_params: list[Parameter] = []
    for p in plan.others:
        if p.name not in values:
            continue
        value = values[p.name]
        if p.location == "query":
            query.extend(wire.pairs(p.wire_name, value, p.style, repeat=True))
        elif p.location == "header":
            text = wire.text(value)
            if _CONTROL.search(text):
                raise BadRequest(f"{p.name}: control characters are not allowed in a header.")
            headers[p.wire_name] = text
        else:
            body_params.append(p)
    body = _body(endpoint, plan.encoding, body_params, values, headers)
    if credential is not None:  # last: no parameter can replace it
        query = place_credential(credential, headers, query)
    return UpstreamRequest(endpoint.method, with_query(url, query), headers, body, query)


def _body(
    endpoint: Endpoint,
    encoding: BodyEncoding | None,
    params: list[Parameter],
    values: dict[str, Any],
    headers: dict[str, str],
) -> bytes | None:
    """The body of the request, its Content-Type set in `headers` (docs/execution.md).

    JSON and GraphQL bodies place each parameter at its dotted `maps_to` path; a form
    or multipart body takes each wire name as it is (`consent_collection[promotions]`,
    `user.name`), arrays and objects written as the parameter's `style` says."""
    if encoding == "form":
        form: list[tuple[str, str]] = []
        for p in params:
            form.extend(wire.pairs(p.wire_name, values[p.name], p.style, repeat=False))
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return urlencode(form).encode()
    if encoding == "multipart":
        fields: list[uploads.Field] = []
        for p in params:
            if p.file:
                up = uploads.upload(p, values[p.name], cap=sys.maxsize)  # checked in params
                fields.append((p.wire_name, (up.filename, up.data, up.content_type)))
            elif p.style is not None:
                fields.extend(wire.pairs(p.wire_name, values[p.name], p.style, repeat=False))
            else:
                fields.extend(uploads.text_fields(p.wire_name, values[p.name]))
        body, headers["Content-Type"] = uploads.multipart(fields)
        return body
    if encoding == "related":  # JSON metadata, then the one file (Google's media uploads)
        return _related(params, values, headers)
    if encoding == "binary":  # the one file parameter is the whole body
        if not params:
            return None
        up = uploads.upload(params[0], values[params[0].name], cap=sys.maxsize)
        headers.setdefault("Content-Type", up.content_type)  # a header parameter's wins
        return up.data
    whole = next((p for p in params if p.whole_body), None)
    if whole is not None:  # its value is the whole JSON body (a JSON Patch array, ...)
        headers["Content-Type"] = endpoint.content_type or "application/json"
        return _json(values[whole.name])
    body_values: dict[str, Any] = {}
    for p in params:
        _place(body_values, p.wire_name, values[p.name])
    if encoding == "graphql":
        headers["Content-Type"] = "application/json"
        return _json({"query": endpoint.graphql, "variables": body_values})
    if encoding == "json" and (body_values or endpoint.method in ("POST", "PUT", "PATCH")):
        headers["Content-Type"] = endpoint.content_type or "application/json"
        return _json(body_values)
    return None


def _related(params: list[Parameter], values: dict[str, Any], headers: dict[str, str]) -> bytes:
    """A `multipart/related` body: every parameter but the file as the JSON metadata (at
    its dotted `maps_to`), then the file; its Content-Type set in `headers`."""
    metadata: dict[str, Any] = {}
    upload: uploads.Upload | None = None
    for p in params:
        if p.file:
            upload = uploads.upload(p, values[p.name], cap=sys.maxsize)
        else:
            _place(metadata, p.wire_name, values[p.name])
    if upload is None:  # the file is required: validation refused the call already
        raise BadRequest("The file to upload is missing.")
    body, headers["Content-Type"] = uploads.related(_json(metadata), upload)
    return body
