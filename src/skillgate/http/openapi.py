"""What /openapi.json says beyond what each route declares.

- errors: every 4xx and 5xx answer is the contract body `{"error","message"[,"action_url"]}`
  (FastAPI's default 422 is never sent: a bad input is a 400, see `http.handlers`);
- security: the two schemes (`bearer`: an API key or an access token; `session`: the
  dashboard's cookie). Each route declares which it takes (`auth.deps`, the agent
  door's `Route`), or `PUBLIC` (`security: []`) when it takes none;
- `servers`: the server that serves the document (a relative URL: the public address
  is the operator's, docs/configuration.md).
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "description": "Every error the gateway produces (docs/api.md, Errors). Some carry "
    "more fields, e.g. the device flow's `status` and `interval`.",
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "examples": ["bad_request"]},
        "message": {"type": "string"},
        "action_url": {"type": "string"},
    },
}
_ERROR_REF = {"$ref": "#/components/schemas/Error"}
BEARER_DESCRIPTION = (
    "`Authorization: Bearer <credential>`: an API key (`sk_...`) on /v1 and /api-keys, or "
    "an access token from POST /auth/login where the route takes one (docs/api.md)."
)
SESSION_DESCRIPTION = (
    "The dashboard's session cookie; a write also needs the session's CSRF token in `X-CSRF-Token`."
)
BEARER_SCHEME: dict[str, Any] = {
    "type": "http",
    "scheme": "bearer",
    "description": BEARER_DESCRIPTION,
}
PUBLIC: dict[str, Any] = {"security": []}  # openapi_extra of a route that needs no credential
SERVERS = [{"url": "/", "description": "The server that serves this document."}]
_FASTAPI_ONLY = ("HTTPValidationError", "ValidationError")


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ERROR_REF}}}


def describe(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with `servers`, the bearer scheme, and the errors (`describe_errors`)."""
    schema["servers"] = SERVERS
    schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes["bearer"] = BEARER_SCHEME
    return describe_errors(schema)


def describe_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with the Error component and 4XX/5XX responses on every operation."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in _FASTAPI_ONLY:
        components.pop(name, None)
    components["Error"] = ERROR_SCHEMA
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = _error("The request cannot be served as sent; `message` says why.")
            responses["5XX"] = _error("A server or upstream failure; `message` says what to do.")
    return schema


STRING: dict[str, Any] = {"type": "string"}
NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}


def obj(**properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON object schema whose listed properties are all required (more are allowed)."""
    return {"type": "object", "required": list(properties), "properties": properties}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}
