"""How a pasted credential is sent, from a document's security schemes or `--auth`.

An auth spec is one of (`skillgate catalog import --auth`, or read from an OpenAPI
document's `components.securitySchemes` / Swagger's `securityDefinitions`):

    bearer          Authorization: Bearer {token}     (http bearer, oauth2)
    basic           Authorization: Basic ...          (http basic: username + password)
    header:NAME     NAME: {token}                     (apiKey in: header)
    query:NAME      ?NAME={token}                     (apiKey in: query)
    cookie:NAME     Cookie: NAME={token}              (apiKey in: cookie)
    query:K+query:T two parts pasted together, the first a key (Trello's
                    `?key=...&token=...`); each part `query:` or `header:`

From a document, the first usable scheme in declaration order that is not OAuth
2.0 wins (Jira's `basicAuth` beside its OAuth: an OAuth token is not pasted),
else `bearer` for an OAuth 2.0 scheme; except that
two `apiKey` schemes make one two-part credential when a security requirement
lists both together (OpenAPI's "and"), or when they are the document's only
schemes (Trello's document lists `api_key` and `api_token` as alternatives, yet
every call needs both). A Google Discovery document declares OAuth 2.0 only;
its pasted token is a bearer token, and `--auth` gives any other spec.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from skillgate.catalog.importers.source import DocumentError

_PART = re.compile(r"^(header|query|cookie):([A-Za-z0-9_.-]{1,64})$")


def _apikey_spec(scheme: Mapping[str, Any]) -> str | None:
    where, name = scheme.get("in"), scheme.get("name")
    if where in ("header", "query", "cookie") and name and _PART.match(f"{where}:{name}"):
        return f"{where}:{name}"
    return None


def _scheme_spec(scheme: Mapping[str, Any]) -> str | None:
    kind = scheme.get("type")
    http = str(scheme.get("scheme", "")).lower()
    if kind == "oauth2" or (kind == "http" and http == "bearer"):
        return "bearer"
    if (kind == "http" and http == "basic") or kind == "basic":  # `basic`: Swagger 2.0
        return "basic"
    if kind == "apiKey":
        return _apikey_spec(scheme)
    return None


def _requirements(doc: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every security requirement object of the document and its operations."""
    found = list(doc.get("security") or [])
    for item in (doc.get("paths") or {}).values():
        for op in item.values() if isinstance(item, dict) else ():
            if isinstance(op, dict):
                found.extend(op.get("security") or [])
    return [r for r in found if isinstance(r, dict)]


def _two_part(doc: Mapping[str, Any], schemes: Mapping[str, Any]) -> str | None:
    keys = [n for n, s in schemes.items() if isinstance(s, dict) and s.get("type") == "apiKey"]
    specs = {n: _apikey_spec(schemes[n]) for n in keys}
    together = [
        [n for n in keys if n in req]
        for req in _requirements(doc)
        if sum(n in req for n in keys) == 2
    ]
    pair = together[0] if together else (keys if len(keys) == len(schemes) == 2 else None)
    if not pair or not all(specs[n] for n in pair):
        return None
    first, second = (specs[n] or "" for n in pair)
    if first.startswith("cookie:") or second.startswith("cookie:"):
        return None
    return f"{first}+{second}"


def document_spec(doc: Mapping[str, Any]) -> str | None:
    """The auth spec an OpenAPI (or Swagger 2.0) document's security schemes give."""
    schemes = (doc.get("components") or {}).get("securitySchemes") or doc.get("securityDefinitions")
    if not isinstance(schemes, dict):
        return None
    two = _two_part(doc, schemes)
    if two:
        return two
    specs = [
        (s.get("type") == "oauth2", _scheme_spec(s))
        for s in schemes.values()
        if isinstance(s, dict)
    ]
    pasted = [spec for oauth, spec in specs if spec and not oauth]
    if pasted:
        return pasted[0]
    return "bearer" if any(spec for _, spec in specs) else None


def _token(spec: str, help_text: str) -> dict[str, Any]:
    kind, _, name = spec.partition(":")
    if spec == "bearer":
        return {"label": "API token", "help": help_text, "format": "Bearer {token}"}
    if not _PART.match(spec):
        raise DocumentError(
            f"--auth {spec!r}: expected bearer, basic, header:NAME, query:NAME, cookie:NAME "
            "or two parts joined by + (query:key+query:token)"
        )
    if kind == "header":
        return {"label": "API key", "help": help_text, "header": name, "format": "{token}"}
    return {"label": "API key", "help": help_text, kind: name, "format": "{token}"}


def auth_entry(spec: str, name: str) -> dict[str, Any]:
    """The catalog `auth` entry ({"token": ...} or {"basic": ...}) for an auth spec."""
    if spec == "basic":
        help_text = f"Paste the username (or account id) and password (or secret) for {name}."
        return {"basic": {"help": help_text}}
    first, plus, second = spec.partition("+")
    if not plus:
        return {"token": _token(spec, f"Paste an API token for {name}.")}
    help_text = f"Paste the API key and the token for {name}."
    token = _token(second, help_text)
    token["label"] = "Token"
    kind, _, part = first.partition(":")
    if kind not in ("query", "header") or not _PART.match(first):
        raise DocumentError(f"--auth {spec!r}: the key part must be query:NAME or header:NAME")
    token["key"] = {"label": "API key", kind: part}
    return {"token": token}
