"""Integrations: every catalog entry with the viewer's status; connect, reconnect, disconnect.

    GET  /integrations                      all of them, with status
    GET  /integrations/{slug}               status and the ways to connect; shows the
                                            outcome of a connect (?connected=1, ?error=)
                                            and a terminal's request (?request=<id>)
    POST /integrations/{slug}/token         connect (or replace) with a pasted token, API
                                            key, or HTTP Basic username and password, and
                                            the integration's variables (`var_<name>`)
    POST /integrations/{slug}/disconnect    remove the stored credentials

OAuth goes through the existing browser routes: the Connect button is a link to
GET /connect/{slug}, which comes back here with ?connected=1 or ?error=.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from skillgate.catalog.models import Integration
from skillgate.connections.models import Connection
from skillgate.connections.service import Connections, request_status
from skillgate.dashboard import web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.db.session import DB
from skillgate.errors import BadRequest, NotFound, UpstreamError
from skillgate.http.provide import provided
from skillgate.kit import text

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

STATUS_LABELS = {
    "connected": "Connected",
    "reconnect_required": "Reconnect needed",
    "not_connected": "Not connected",
}
MAX_ERROR_SHOWN = 200

Conns = Annotated[Connections, provided(Connections)]


@dataclass(frozen=True)
class IntegrationView:
    integration: Integration
    connection: Connection | None
    oauth_ready: bool

    @property
    def status(self) -> str:
        if self.connection is None:
            return "not_connected"
        return "connected" if self.connection.status == "connected" else "reconnect_required"

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def connectable(self) -> bool:
        return self.oauth_ready or self.integration.auth.pasted is not None


async def _views(
    db: AsyncSession, connections: Connections, viewer: Viewer
) -> list[IntegrationView]:
    mine = {c.integration: c for c in await connections.list_connections(db, viewer.user_id)}
    integrations = sorted(connections.catalog.integrations.values(), key=lambda i: i.name.lower())
    return [IntegrationView(i, mine.get(i.slug), connections.oauth_ready(i)) for i in integrations]


@router.get("/integrations")
async def integrations_page(
    request: Request, viewer: SignedIn, db: DB, connections: Conns
) -> Response:
    views = await _views(db, connections, viewer)
    return web.render(
        request, "integrations.html", {"viewer": viewer, "nav": "integrations", "views": views}
    )


async def _detail(
    request: Request,
    db: AsyncSession,
    connections: Connections,
    viewer: Viewer,
    slug: str,
    *,
    request_id: str,
    error: str | None = None,
    status: int = 200,
) -> Response:
    integration = connections.integration(slug)
    connection = await connections.get_connection(db, viewer.user_id, slug)
    view = IntegrationView(integration, connection, connections.oauth_ready(integration))
    terminal: dict[str, str] | None = None
    given: dict[str, str] = dict(connection.variables or {}) if connection else {}
    if request_id:
        try:
            req = await connections.get_request(db, viewer.user_id, request_id[:64])
        except NotFound:
            error = error or "This connect link is not valid for your account; start again."
        else:
            if req.integration == slug:
                terminal = {"id": req.id, "status": request_status(req)}
                given = dict(req.variables or {})
    query = request.query_params
    outcome_error = query.get("error")
    if outcome_error and error is None:
        error = "Connecting failed: " + outcome_error[:MAX_ERROR_SHOWN]
    context: dict[str, Any] = {
        "viewer": viewer,
        "nav": "integrations",
        "view": view,
        "terminal": terminal,
        "error": error,
        "just_connected": query.get("connected") == "1" and view.status == "connected",
        "oauth_href": f"/connect/{slug}" + (f"?request={terminal['id']}" if terminal else ""),
        "given": given,  # connection variables to show in the forms' fields
    }
    return web.render(request, "integration.html", context, status=status)


@router.get("/integrations/{slug}")
async def integration_page(
    request: Request, slug: str, viewer: SignedIn, db: DB, connections: Conns
) -> Response:
    request_id = text.check("request", request.query_params.get("request", ""))
    return await _detail(request, db, connections, viewer, slug, request_id=request_id)


def variables_of(form: FormData, integration: Integration) -> dict[str, str]:
    """The connection variables a form (or query string) gives, as `var_<name>` fields."""
    return {v.name: web.field(form, f"var_{v.name}") for v in integration.variables}


@router.post("/integrations/{slug}/token")
async def connect_with_token(
    request: Request, slug: str, viewer: SignedIn, form: CheckedForm, db: DB, connections: Conns
) -> Response:
    connections.integration(slug)  # 404 for an unknown slug, before anything else
    request_id = web.field(form, "request")[:64]
    try:
        await connections.connect_token(
            db,
            viewer.user_id,
            slug,
            web.field(form, "token"),
            username=web.field(form, "username") or None,
            key=web.field(form, "key") or None,
            variables=variables_of(form, connections.integration(slug)),
        )
    except (BadRequest, UpstreamError) as exc:
        await db.rollback()
        return await _detail(
            request,
            db,
            connections,
            viewer,
            slug,
            request_id=request_id,
            error=web.sentence(exc.message),
            status=exc.status,
        )
    query = {"connected": "1"} | ({"request": request_id} if request_id else {})
    return web.redirect(f"/integrations/{slug}", **query)


@router.post("/integrations/{slug}/disconnect")
async def disconnect(
    slug: str, viewer: SignedIn, form: CheckedForm, db: DB, connections: Conns
) -> Response:
    integration = connections.integration(slug)
    try:
        await connections.disconnect(db, viewer.user_id, slug)
    except NotFound:
        raise NotFound(f"{integration.name} is not connected.") from None
    return web.redirect(f"/integrations/{slug}", notice="disconnected")
