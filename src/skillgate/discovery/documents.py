"""The JSON documents of discovery, built from the catalog models.

Field names follow the spec exactly; extra fields (description, in, default,
enum, from_connection, path, changes_data, destructive, pagination, scopes, body,
file) are additions the spec allows.
"""

from __future__ import annotations

from typing import Any

from skillgate.catalog.examples import build_example
from skillgate.catalog.models import FILE_BODIES, Endpoint, Integration, Parameter

# How a file parameter is passed (executor.uploads), and from svc (skillgate_cli.uploads).
FILE_HOWTO = 'A file: pass its text, or {"base64": ..., "filename": ..., "content_type": ...}.'
SVC_FILE = "With svc, --{name} @./path reads a local file."


def parameter_doc(p: Parameter) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": p.name,
        "type": p.type,
        "required": p.required,
        "description": f"{p.description} {FILE_HOWTO} {SVC_FILE.format(name=p.name)}"
        if p.file
        else p.description,
        "in": p.location,
    }
    if p.file:
        doc["file"] = True
    if p.items is not None:
        doc["items"] = p.items
    if p.enum is not None:
        doc["enum"] = list(p.enum)
    if p.default is not None:
        doc["default"] = p.default
    if p.also:
        # A union: a value of one of these types is sent as it is.
        doc["also"] = list(p.also)
    if p.nullable:
        doc["nullable"] = True  # null is sent: it clears the field
    if p.from_connection:
        # Optional: left out, the connection's value of this variable is sent (catalog.fills).
        doc["from_connection"] = p.from_connection
    return doc


def endpoint_doc(integration: Integration, e: Endpoint) -> dict[str, Any]:
    """The spec's endpoint documentation object, plus what an agent also needs."""
    doc: dict[str, Any] = {
        "name": e.name,
        "method": e.method,
        "category": e.category,
        "description": e.description,
        "parameters": [parameter_doc(p) for p in e.parameters],
        "example": build_example(integration.slug, e),
        "errors": [{"code": x.code, "cause": x.cause, "fix": x.fix} for x in e.errors],
        "integration": integration.slug,
        "path": e.path,
        "changes_data": e.mutates,
        # Deletes, irreversible sends, merges, transfers: a key with the default
        # confirmation policy is asked to confirm these (docs/execution.md).
        "destructive": bool(e.destructive),
    }
    if e.body_encoding == "form" or e.body_encoding in FILE_BODIES:
        # How the body is sent; objects and arrays are passed as JSON either way.
        doc["body"] = e.body_encoding
    if e.pagination is not None:
        doc["pagination"] = e.pagination.model_dump(exclude_none=True)
    if e.scopes:
        # Any one of them lets the connection's token call it (why a 403 can happen).
        doc["scopes"] = list(e.scopes)
        oauth = integration.auth.oauth2
        added = oauth.scope_set_for(e.scopes) if oauth else None
        if added is not None and oauth is not None:
            # Not asked for at connect: the first call asks the user to add this set.
            doc["scope_set"] = {"name": added, "description": oauth.scope_sets[added].description}
    return doc


def categories(endpoints: list[Endpoint]) -> list[dict[str, Any]]:
    """Endpoints grouped by category, categories in the order the catalog file gives them."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for e in endpoints:
        row: dict[str, Any] = {"name": e.name, "method": e.method, "description": e.description}
        if e.destructive:
            row["destructive"] = True
        grouped.setdefault(e.category, []).append(row)
    return [{"name": name, "endpoints": items} for name, items in grouped.items()]


def visible_endpoints(integration: Integration, read_only: bool) -> list[Endpoint]:
    """All endpoints, or for a `slug:read` key only those that do not change data."""
    return [e for e in integration.endpoints if not (read_only and e.mutates)]
