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
  greedily, broadest first; otherwise all declared ones); a pasted credential
  as `--auth` says, else as the document's security schemes say (an auth spec
  of `importers.security`: `bearer`, `basic`, `header:NAME`, `query:NAME`,
  `cookie:NAME`, `query:key+query:token`);
- variables: each `{name}` of a `--base-url` template
  (`https://{domain}.atlassian.net`) is a connection variable the user gives
  when connecting (`catalog.hosts`): a DNS label in the host, a path segment
  elsewhere; its help and example from the document's server variable of that
  name when it has one;
- verify: `--verify-path`, else the importer's choice (`compile.choose_verify`);
  none: an error asking for `--verify-path`;
- common errors: 401 and 429 from the status table.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from skillgate.catalog.hosts import VARIABLE_RE
from skillgate.catalog.importers.errors import common_errors
from skillgate.catalog.importers.security import auth_entry
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
        entry = auth_entry(spec, name)
        if "token" in entry and imported.token_label and imported.token_help and not auth:
            entry["token"].update(label=imported.token_label, help=imported.token_help)
        result.update(entry)
    if not result:
        raise DocumentError("the document declares no usable auth: pass --auth")
    return result


_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"  # one DNS label
_SEGMENT = "[A-Za-z0-9._~-]{1,100}"


def _variables(url: str, documented: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """A connection variable for each `{name}` of the base URL (catalog.hosts)."""
    host = url.split("://", 1)[-1].split("/", 1)[0]
    out: list[dict[str, Any]] = []
    for name in dict.fromkeys(VARIABLE_RE.findall(url)):
        doc = documented.get(name, {})
        where = "host" if "{" + name + "}" in host else "path"
        var: dict[str, Any] = {
            "name": name,
            "label": name.replace("_", " ").capitalize(),
            "help": doc.get("description") or f"The {name} part of the API's {where}: {url}.",
            "pattern": _LABEL if where == "host" else _SEGMENT,
        }
        if doc.get("default"):
            var["example"] = doc["default"]
        out.append(var)
    return out


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
    variables = _variables(out["base_url"], imported.server_variables)
    if variables:
        out["variables"] = variables
    if imported.docs_url:
        out["docs_url"] = imported.docs_url
    out["auth"] = _auth(imported, title, auth)
    out["verify"] = {"method": "GET", "path": verify}
    out["common_errors"] = common_errors()
    out["endpoints"] = imported.endpoints
    return out
