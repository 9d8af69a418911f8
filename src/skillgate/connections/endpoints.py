"""Connection routes of the account door: thin, over the connections service.

(POST /v1/connect, GET /v1/connect/{id} and GET /v1/connections take an API key
only: the agent door serves them, doors/agent/connections.py.)

PUT    /v1/connections/{integration}    key, token or session   store a verified pasted token
DELETE /v1/connections/{integration}    key, token or session   disconnect
GET    /connect/{integration}           session   browser: off to the provider (or the token form)
GET    /connect/{integration}/callback  session   browser: back from the provider
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request, Response, Security
from fastapi.responses import RedirectResponse

from skillgate.auth.deps import SESSION, KeyTokenOrSession, SessionOrNone
from skillgate.connections.schemas import (
    ConnectionOut,
    TokenBody,
)
from skillgate.connections.scoped import ScopedConnections
from skillgate.connections.service import Connections
from skillgate.db.session import DB
from skillgate.errors import BadRequest
from skillgate.http.body import JSONRoute
from skillgate.http.provide import provided
from skillgate.kit import text
from skillgate.kit.text import Text

router = APIRouter(tags=["connections"], route_class=JSONRoute)

Conns = Annotated[Connections, provided(Connections)]
Scoped = Annotated[ScopedConnections, provided(ScopedConnections)]
# The browser routes answer a redirect (to the provider, the dashboard or the sign-in
# page), never JSON; /openapi.json says so.
_LOCATION = {"description": "Where the browser goes next.", "schema": {"type": "string"}}
BROWSER: dict[str, Any] = {
    "status_code": 303,
    "response_class": RedirectResponse,
    "tags": ["browser"],
    "responses": {
        303: {
            "description": "A browser page: a redirect to the provider, the dashboard, or "
            "the sign-in page when there is no session.",
            "headers": {"Location": _LOCATION},
        }
    },
}


@router.put("/v1/connections/{integration}", operation_id="set_connection_token")
async def put_token(
    integration: Text, body: TokenBody, principal: KeyTokenOrSession, db: DB, connections: Scoped
) -> ConnectionOut:
    return await connections.connect_token(db, principal, integration, body)


@router.delete(
    "/v1/connections/{integration}",
    status_code=204,
    response_class=Response,
    operation_id="delete_connection",
)
async def disconnect(
    integration: Text, principal: KeyTokenOrSession, db: DB, connections: Scoped
) -> Response:
    await connections.disconnect(db, principal, integration)
    return Response(status_code=204)


def _to_login(connections: Connections, request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    login = f"{connections.public.app}/login?" + urlencode({"next": target})
    return RedirectResponse(login, status_code=303)


@router.get(
    "/connect/{integration}",
    operation_id="connect_in_browser",
    dependencies=[Security(SESSION)],
    **BROWSER,
)
async def browser_connect(
    integration: str, request: Request, viewer: SessionOrNone, db: DB, connections: Conns
) -> Response:
    if viewer is None:
        return _to_login(connections, request)
    user_id = viewer.user_id
    request_id = text.check("request", request.query_params.get("request") or "") or None
    add = text.check("add", request.query_params.get("add") or "") or None  # a scope set
    given = {  # the dashboard's form: the connection's variables as `var_<name>`
        k[4:]: text.check(k[:40], v)
        for k, v in request.query_params.items()
        if k.startswith("var_") and v
    }
    try:
        provider = await connections.begin_oauth(
            db, user_id, integration, request_id, add, variables=given
        )
    except BadRequest as exc:
        if not given:
            raise
        # A value the form gave is refused: back to the form, saying which and why.
        back = connections.dashboard_url(integration) + "?" + urlencode({"error": exc.message})
        return RedirectResponse(back, status_code=303)
    if provider is None:  # a token integration: the dashboard's form
        suffix = f"?request={quote(request_id)}" if request_id else ""
        return RedirectResponse(connections.dashboard_url(integration) + suffix, status_code=303)
    return RedirectResponse(provider, status_code=303)


@router.get(
    "/connect/{integration}/callback",
    operation_id="connect_callback",
    dependencies=[Security(SESSION)],
    **BROWSER,
)
async def browser_callback(
    integration: str, request: Request, viewer: SessionOrNone, db: DB, connections: Conns
) -> Response:
    if viewer is None:
        return _to_login(connections, request)
    user_id = viewer.user_id
    params = {k: text.check(k[:40], v) for k, v in request.query_params.items()}
    back = connections.dashboard_url(integration)
    try:
        await connections.complete_oauth(db, user_id, integration, params)
    except BadRequest as exc:
        # Keep the request's `failed` status (committed), and tell the user on the dashboard.
        return RedirectResponse(back + "?" + urlencode({"error": exc.message}), status_code=303)
    return RedirectResponse(back + "?connected=1", status_code=303)
