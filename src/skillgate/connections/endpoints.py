"""Connection routes.

POST   /v1/connect                      API key   start a connect request (svc connect)
GET    /v1/connect/{id}                 API key   its status
GET    /v1/connections                  API key   the caller's connections (no credentials)
PUT    /v1/connections/{integration}    key, token or session   store a verified pasted token
DELETE /v1/connections/{integration}    key, token or session   disconnect
GET    /connect/{integration}           session   browser: off to the provider (or the token form)
GET    /connect/{integration}/callback  session   browser: back from the provider
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from skillgate.api_keys.scopes import can_see, require_access
from skillgate.auth.deps import ApiKeyAuth, KeyTokenOrSession, authenticate
from skillgate.connections.connect import REQUEST_TTL, ConnectFlow, request_status
from skillgate.connections.models import Connection
from skillgate.db.session import DB, on_commit
from skillgate.errors import BadRequest, NotFound, Unauthorized
from skillgate.http.body import JSONRoute
from skillgate.http.state import AppState, State
from skillgate.kit import text
from skillgate.kit.text import Text

router = APIRouter(tags=["connections"], route_class=JSONRoute)


class ConnectBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    integration: Text = Field(max_length=100)


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Text = Field(max_length=10_000)


def connection_doc(c: Connection) -> dict[str, Any]:
    return {
        "integration": c.integration,
        "status": c.status,
        "auth_type": c.auth_type,
        "account": c.account,
        "scopes": c.scopes,
        "token_expires_at": c.token_expires_at,
        "created_at": c.created_at,
        "updated_at": c.updated_at,
    }


def _flow(db: DB, state: AppState) -> ConnectFlow:
    return ConnectFlow(db, state.settings, state.catalog, state.vault, state.outbound)


def _changed(db: DB, state: AppState, user_id: str, slug: str) -> None:
    on_commit(db, lambda: state.connection_changed(user_id, slug))


@router.post("/v1/connect", status_code=201)
async def start_connect(
    body: ConnectBody, principal: ApiKeyAuth, db: DB, state: State
) -> dict[str, Any]:
    require_access(principal, body.integration, "full")
    flow = _flow(db, state)
    req = await flow.create_request(principal.user_id, body.integration)
    return {
        "id": req.id,
        "integration": req.integration,
        "connect_url": flow.connect_url(req),
        "expires_in": int(REQUEST_TTL.total_seconds()),
    }


@router.get("/v1/connect/{request_id}")
async def connect_status(
    request_id: Text, principal: ApiKeyAuth, db: DB, state: State
) -> dict[str, Any]:
    req = await _flow(db, state).get_request(principal.user_id, request_id)
    if not can_see(principal, req.integration):  # as if it did not exist
        raise NotFound("Connect request not found.")
    doc: dict[str, Any] = {
        "id": req.id,
        "integration": req.integration,
        "status": request_status(req),
    }
    if req.status == "failed" and req.error:
        doc["error"] = req.error
    return doc


@router.get("/v1/connections")
async def list_connections(principal: ApiKeyAuth, db: DB, state: State) -> dict[str, Any]:
    rows = await _flow(db, state).connections.list(principal.user_id)
    return {"connections": [connection_doc(c) for c in rows if can_see(principal, c.integration)]}


@router.put("/v1/connections/{integration}")
async def put_token(
    integration: Text, body: TokenBody, principal: KeyTokenOrSession, db: DB, state: State
) -> dict[str, Any]:
    require_access(principal, integration, "full")
    connection = await _flow(db, state).connect_token(principal.user_id, integration, body.token)
    _changed(db, state, principal.user_id, integration)
    return connection_doc(connection)


@router.delete("/v1/connections/{integration}", status_code=204, response_class=Response)
async def disconnect(
    integration: Text, principal: KeyTokenOrSession, db: DB, state: State
) -> Response:
    require_access(principal, integration, "full")
    await _flow(db, state).connections.disconnect(principal.user_id, integration)
    _changed(db, state, principal.user_id, integration)
    return Response(status_code=204)


async def _browser_user(request: Request, db: DB, state: AppState) -> str | None:
    try:
        principal = await authenticate(request, db, frozenset({"session"}))
    except Unauthorized:
        return None
    return principal.user_id


def _to_login(state: AppState, request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    login = f"{state.settings.resolved_app_url}/login?" + urlencode({"next": target})
    return RedirectResponse(login, status_code=303)


@router.get("/connect/{integration}")
async def browser_connect(integration: str, request: Request, db: DB, state: State) -> Response:
    user_id = await _browser_user(request, db, state)
    if user_id is None:
        return _to_login(state, request)
    flow = _flow(db, state)
    request_id = text.check("request", request.query_params.get("request") or "") or None
    provider = await flow.begin_oauth(user_id, integration, request_id)
    if provider is None:  # a token integration: the dashboard's form
        suffix = f"?request={quote(request_id)}" if request_id else ""
        return RedirectResponse(flow.dashboard_url(integration) + suffix, status_code=303)
    return RedirectResponse(provider, status_code=303)


@router.get("/connect/{integration}/callback")
async def browser_callback(integration: str, request: Request, db: DB, state: State) -> Response:
    user_id = await _browser_user(request, db, state)
    if user_id is None:
        return _to_login(state, request)
    flow = _flow(db, state)
    params = {k: text.check(k[:40], v) for k, v in request.query_params.items()}
    try:
        await flow.complete_oauth(user_id, integration, params)
    except BadRequest as exc:
        # Keep the request's `failed` status (committed), and tell the user on the dashboard.
        target = flow.dashboard_url(integration) + "?" + urlencode({"error": exc.message})
        return RedirectResponse(target, status_code=303)
    _changed(db, state, user_id, integration)
    return RedirectResponse(flow.dashboard_url(integration) + "?connected=1", status_code=303)
