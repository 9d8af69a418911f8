"""Held calls on the dashboard (docs/dashboard.md, "Approvals"):

    GET  /approvals                  the signed-in person's pending approvals
    GET  /approvals/{id}             one: the exact request that will be sent (as the dry
                                     run renders it, credential redacted), Approve / Deny
    POST /approvals/{id}/approve     send it, once; the page shows the outcome
    POST /approvals/{id}/deny        refuse it; the agent is told on its next poll
    POST /approvals/webhook          set the notification webhook (`webhook_url`, https);
                                     the page shows its new signing secret, once, and
                                     later the last delivery's state
    POST /approvals/webhook/remove   stop the notifications

Another user's approval is 404; every form carries the CSRF token.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from skillgate.dashboard import web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.executor.approvals import Approvals
from skillgate.http.provide import provided
from skillgate.kit.principal import Principal
from skillgate.users.webhook import Webhooks, shown

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

Held = Annotated[Approvals, provided(Approvals)]
Hooks = Annotated[Webhooks, provided(Webhooks)]


def _person(viewer: Viewer) -> Principal:
    """The signed-in person, as the approval records who decided."""
    return Principal(viewer.user_id, viewer.email, viewer.display_name, viewer.plan, "session")


def _page(request: Request, viewer: Viewer, approval: dict[str, Any]) -> Response:
    shown = approval["request"]
    body = shown.get("body")
    context = {
        "viewer": viewer,
        "nav": "approvals",
        "approval": approval,
        "headers": sorted(shown.get("headers", {}).items()),
        "body": body if isinstance(body, str) or body is None else json.dumps(body, indent=2),
        "result": json.dumps(approval["result"], indent=2) if "result" in approval else None,
    }
    return web.render(request, "approval.html", context)


async def _listing(
    request: Request, viewer: Viewer, held: Approvals, hooks: Webhooks, secret: str | None = None
) -> Response:
    context = {
        "viewer": viewer,
        "nav": "approvals",
        "rows": await held.pending_for(viewer.user_id),
        "webhook_url": await hooks.url_of(viewer.user_id),
        "last_delivery": shown(await hooks.last_delivery(viewer.user_id)),
        "secret": secret,  # only right after a save: it is never shown again
    }
    headers = {"Cache-Control": "no-store"} if secret else None
    return web.render(request, "approvals.html", context, headers=headers)


@router.get("/approvals")
async def approvals_page(request: Request, viewer: SignedIn, held: Held, hooks: Hooks) -> Response:
    return await _listing(request, viewer, held, hooks)


@router.post("/approvals/webhook")
async def save_webhook(
    request: Request, viewer: SignedIn, form: CheckedForm, held: Held, hooks: Hooks
) -> Response:
    secret = await hooks.save(viewer.user_id, web.field(form, "webhook_url"))
    return await _listing(request, viewer, held, hooks, secret)


@router.post("/approvals/webhook/remove")
async def remove_webhook(viewer: SignedIn, form: CheckedForm, hooks: Hooks) -> Response:
    await hooks.remove(viewer.user_id)
    return web.redirect("/approvals")


@router.get("/approvals/{approval_id}")
async def approval_page(
    request: Request, approval_id: str, viewer: SignedIn, held: Held
) -> Response:
    return _page(request, viewer, await held.view(viewer.user_id, approval_id))


@router.post("/approvals/{approval_id}/approve")
async def approve(
    request: Request, approval_id: str, viewer: SignedIn, form: CheckedForm, held: Held
) -> Response:
    return _page(request, viewer, await held.decide(_person(viewer), approval_id, True))


@router.post("/approvals/{approval_id}/deny")
async def deny(
    request: Request, approval_id: str, viewer: SignedIn, form: CheckedForm, held: Held
) -> Response:
    return _page(request, viewer, await held.decide(_person(viewer), approval_id, False))
