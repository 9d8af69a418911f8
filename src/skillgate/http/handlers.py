"""Exception handlers: every error leaves as the contract body `{"error","message"}`."""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match

from skillgate.errors import (
    BadRequest,
    MethodNotAllowed,
    NotFound,
    SkillGateError,
    UnsupportedMediaType,
)
from skillgate.http.errors import as_error, door_of, render_json_error
from skillgate.http.middleware import request_id

log = structlog.get_logger("skillgate.http")


def error_response(error: SkillGateError, request: Request | None = None) -> Response:
    """`http.errors.render_json_error` as a Starlette response (for the request's door)."""
    door = "http" if request is None else door_of(request.scope)
    status, headers, body = render_json_error(error, door)
    response = Response(content=body, status_code=status)
    response.raw_headers = headers
    return response


def describe_validation(errors: list[Any]) -> str:
    """One sentence naming each bad field: `name: Field required; scopes: ...`."""
    parts: list[str] = []
    for err in errors[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "header")]
        field = ".".join(loc)
        kind = err.get("type", "")
        if kind == "json_invalid":
            return "The request body is not valid JSON."
        if kind == "missing" and not field:
            return "A JSON request body is required."
        if kind == "model_attributes_type" or (kind == "dict_type" and not field):
            return "The request body must be a JSON object."
        msg = err.get("msg", "invalid value")
        if kind == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{field}: {msg}" if field else msg)
    return "; ".join(parts) + "."


_METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> str:
    """Every method the app's routes take on this path (Starlette's 405 names only the
    first route whose path matched): `GET, POST` for /api-keys. Asks each route whether
    it would take the request with each method (405s are rare; this is not a hot path)."""
    routes = request.app.router.routes
    found = []
    for method in _METHOD_ORDER:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in routes):
            found.append(method)
    return ", ".join(found)


async def _skillgate(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SkillGateError)
    return error_response(exc, request)


async def _validation(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return error_response(BadRequest(describe_validation(list(exc.errors()))))


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    error: SkillGateError
    if isinstance(exc.__cause__, SkillGateError):  # FastAPI wraps what the body reader raised
        error = exc.__cause__
    elif exc.status_code == 404:
        error = NotFound(f"No such path: {request.method} {request.url.path}.")
    elif exc.status_code == 405:
        allow = allowed_methods(request) or (exc.headers or {}).get("Allow", "")
        error = MethodNotAllowed(
            f"{request.method} is not allowed on {request.url.path}"
            + (f"; use {allow}." if allow else "."),
            headers={"Allow": allow} if allow else None,
        )
    elif exc.status_code == 415:
        error = UnsupportedMediaType()
    elif exc.status_code == 400:
        error = BadRequest(
            "The request body could not be read; send JSON with Content-Type: application/json."
        )
    else:
        error = SkillGateError(str(exc.detail))
        error.status = exc.status_code
        error.code = "error"
    return error_response(error, request)


async def _unexpected(request: Request, exc: Exception) -> Response:
    return error_response(as_error(exc, request_id(request.scope)), request)


def install(app: FastAPI) -> None:
    app.add_exception_handler(SkillGateError, _skillgate)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)
