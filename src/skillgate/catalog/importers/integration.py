"""An imported document -> one catalog integration (the dict a catalog file holds).

Rules:
- name: `--name`, else the document's title without a trailing " API";
  description: the document's first paragraph, plain and capped;
- base URL: `--base-url`, else the document's (OpenAPI `servers`, Google
  `rootUrl`); none: an error asking for `--base-url`. A document whose server
  is a path (`/v1.56`, Swagger's `basePath` without `host`) has it appended to
  a `--base-url` that has no path of its own;
- auth: OAuth 2.0 when the document declares an authorization-code flow (its
  URLs; its scopes: for Google, the fewest scopes that cover every method,
  greedily, broadest first; otherwise all declared ones); a pasted token as
  `--auth` says (`bearer` -> `Authorization: Bearer {token}`, `header:NAME` ->
  `NAME: {token}`), else as the document's security scheme says. `query:NAME`
  is refused: the executor sends credentials in a header only;
- verify: `--verify-path`, else the importer's choice (`compile.choose_verify`);
  none: an error asking for `--verify-path`;
- common errors: 401 and 429 from the status table.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from skillgate.catalog.importers.errors import common_errors
from skillgate.catalog.importers.source import DocumentError, Imported
from skillgate.catalog.importers.text import ENDPOINT_CAP, cap, paragraphs


def choose_scopes(imported: Imported) -> list[str]:
    """The fewest scopes covering every endpoint (greedy set cover), else all declared."""
    needs = [set(s) for s in imported.endpoint_scopes.values() if s]
    if not needs:
        return list(imported.scopes)
    order = list(imported.scopes) + sorted({s for n in needs for s in n} - set(imported.scopes))
    chosen: list[str] = []
    while needs:
        best = max(order, key=lambda s: sum(s in n for n in needs))  # first of the most covering
        chosen.append(best)
        needs = [n for n in needs if best not in n]
    return chosen


def token_auth(spec: str, name: str) -> dict[str, Any]:
    """The catalog `token` auth for `bearer`, `header:NAME` or `query:NAME`."""
    kind, _, header = spec.partition(":")
    help_text = f"Paste an API token for {name}."
    if kind == "bearer" and not header:
        return {"label": "API token", "help": help_text, "format": "Bearer {token}"}
    if kind == "header" and header:
        return {"label": "API key", "help": help_text, "header": header, "format": "{token}"}
    if kind == "query" and header:
        return {"label": "API key", "help": help_text, "query": header, "format": "{token}"}
    raise DocumentError(f"--auth {spec!r}: expected bearer, header:NAME or query:NAME")


def _auth(imported: Imported, name: str, auth: str | None) -> dict[str, Any]:
    result: dict[str, Any] = {}
    if imported.authorize_url and imported.token_url:
        oauth: dict[str, Any] = {
            "authorize_url": imported.authorize_url,
            "token_url": imported.token_url,
            "scopes": choose_scopes(imported),
        }
        if imported.authorize_params:
            oauth["authorize_params"] = dict(imported.authorize_params)
        result["oauth2"] = oauth
    spec = auth or imported.auth_hint
    if spec:
        token = token_auth(spec, name)
        if imported.token_label and imported.token_help and not auth:
            token.update(label=imported.token_label, help=imported.token_help)
        result["token"] = token
    if not result:
        raise DocumentError("the document declares no usable auth: pass --auth")
    return result


def integration_dict(
    imported: Imported,
    *,
    slug: str,
    name: str | None = None,
    base_url: str | None = None,
    auth: str | None = None,
    verify_path: str | None = None,
) -> dict[str, Any]:
    """A catalog integration holding every imported endpoint."""
    title = name or imported.title.removesuffix(" API").strip() or slug
    paras = paragraphs(imported.description)
    description = cap(paras[0], ENDPOINT_CAP) if paras else ""
    if len(description) < 10:
        description = f"The {title} API."
    url = base_url or imported.base_url
    if base_url and imported.base_path and urlsplit(base_url).path in ("", "/"):
        url = base_url.rstrip("/") + imported.base_path
    if not url:
        raise DocumentError("the document names no absolute server URL: pass --base-url")
    verify = verify_path or imported.verify_path
    if not verify:
        raise DocumentError(
            "no GET without required parameters to verify a token with: pass --verify-path"
        )
    out: dict[str, Any] = {
        "slug": slug,
        "name": title,
        "description": description,
        "base_url": url.rstrip("/"),
    }
    if imported.docs_url:
        out["docs_url"] = imported.docs_url
    out["auth"] = _auth(imported, title, auth)
    out["verify"] = {"method": "GET", "path": verify}
    out["common_errors"] = common_errors()
    out["endpoints"] = imported.endpoints
    return out
