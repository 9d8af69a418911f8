"""Build the one upstream request: URL from the path template, query, headers, body.

The host is fixed by the catalog (or its `SKILLGATE_<SLUG>_BASE_URL` override).
Path parameters become percent-encoded single segments; values that could
change the path's shape (`/`, `\\`, `.`, `..`, control characters) are refused,
and the final URL is checked to stay under the integration's base URL.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from skillgate.catalog.models import Endpoint, Parameter
from skillgate.errors import BadRequest

USER_AGENT = "skillgate/0.1"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


@dataclass
class UpstreamRequest:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None = None
    query: list[tuple[str, str]] = field(default_factory=list)

    def __repr__(self) -> str:  # headers carry credentials
        return f"UpstreamRequest({self.method} {self.url})"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def _segment(param: Parameter, value: Any) -> str:
    text = _text(value)
    if _CONTROL.search(text) or "\\" in text:
        raise BadRequest(f"{param.name}: control characters and backslashes are not allowed.")
    parts = text.split("/") if param.multi_segment else [text]
    if not param.multi_segment and "/" in text:
        raise BadRequest(f"{param.name}: must be a single path segment (no '/').")
    for part in parts:
        if part in ("", ".", ".."):
            raise BadRequest(f"{param.name}: {text!r} is not a valid path segment.")
    return "/".join(quote(part, safe="") for part in parts)


def _place(target: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    node = target
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = {}
            node[key] = child
        node = child
    node[keys[-1]] = value


def build(
    endpoint: Endpoint,
    base_url: str,
    values: dict[str, Any],
    default_headers: dict[str, str],
    auth_header: tuple[str, str] | None,
) -> UpstreamRequest:
    by_wire = {p.wire_name: p for p in endpoint.parameters if p.location == "path"}
    path_values = {
        p.wire_name: values[p.name]
        for p in endpoint.parameters
        if p.location == "path" and p.name in values
    }

    def fill(match: re.Match[str]) -> str:
        wire = match.group(1)
        return _segment(by_wire[wire], path_values[wire])

    path = _PLACEHOLDER.sub(fill, endpoint.path)
    url = base_url + path
    base = urlsplit(base_url)
    final = urlsplit(url)
    if (final.scheme, final.netloc) != (base.scheme, base.netloc) or not final.path.startswith(
        base.path
    ):
        raise BadRequest("The request would leave the integration's host.")  # defence in depth

    query: list[tuple[str, str]] = []
    headers = {"User-Agent": USER_AGENT, **default_headers}
    headers.update(endpoint.headers)
    body_values: dict[str, Any] = {}
    for p in endpoint.parameters:
        if p.name not in values or p.location == "path":
            continue
        value = values[p.name]
        if p.location == "query":
            items = value if isinstance(value, list) else [value]
            query.extend((p.wire_name, _text(v)) for v in items)
        elif p.location == "header":
            text = _text(value)
            if _CONTROL.search(text):
                raise BadRequest(f"{p.name}: control characters are not allowed in a header.")
            headers[p.wire_name] = text
        else:
            _place(body_values, p.wire_name, value)

    body: bytes | None = None
    encoding = endpoint.body_encoding
    if encoding == "graphql":
        body = json.dumps({"query": endpoint.graphql, "variables": body_values}).encode()
        headers["Content-Type"] = "application/json"
    elif encoding == "form":
        body = urlencode({k: _text(v) for k, v in body_values.items()}).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif encoding == "json" and (body_values or endpoint.method in ("POST", "PUT", "PATCH")):
        body = json.dumps(body_values, ensure_ascii=False).encode()
        headers["Content-Type"] = "application/json"
    if auth_header is not None:
        headers[auth_header[0]] = auth_header[1]
    if query:
        url += "?" + urlencode(query, quote_via=quote)
    return UpstreamRequest(endpoint.method, url, headers, body, query)
