"""Device approval: a terminal (`svc login`) shows a code; the signed-in user enters it here.

    GET  /device[?user_code=XXXX-XXXX]   the code form (the query only fills it in)
    POST /device                         look the code up; a confirm screen naming the client
    POST /device/approve                 approve, optionally creating an API key the
                                         terminal receives once; at the plan's key
                                         limit, optionally replacing (revoking) one
                                         of the user's active keys for it

Nothing is approved by a GET or by the first POST: approval is its own POST from
the confirm screen, which warns not to approve a code the user did not start.
Wrong codes are throttled per user and per IP by the device flow (`device.service`).
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import Request
from starlette.responses import Response

from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.dashboard import web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.db.base import utcnow
from skillgate.db.session import DB
from skillgate.device.models import DeviceCode
from skillgate.device.service import DeviceFlow, KeyNotReplaceable
from skillgate.errors import BadRequest, PlanLimitReached, RateLimited
from skillgate.http.client_ip import client_ip
from skillgate.http.provide import provided
from skillgate.users.plans import max_active_keys

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

_NOT_CODE = re.compile(r"[^A-Za-z0-9]")
MAX_CODE_INPUT = 32
Flow = Annotated[DeviceFlow, provided(DeviceFlow)]


def display_code(raw: str) -> str:
    """What the user typed, tidied for the form: `bcdf ghjk` -> `BCDF-GHJK`."""
    compact = _NOT_CODE.sub("", raw[:MAX_CODE_INPUT]).upper()
    return f"{compact[:4]}-{compact[4:]}" if len(compact) == 8 else compact


def _entry(
    request: Request,
    viewer: Viewer,
    code: str,
    *,
    error: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    context = {"viewer": viewer, "nav": "device", "code": display_code(code), "error": error}
    return web.render(request, "device.html", context, status=status, headers=headers)


async def _confirm(
    request: Request,
    db: AsyncSession,
    viewer: Viewer,
    device: DeviceCode,
    *,
    error: str | None = None,
    status: int = 200,
) -> Response:
    limit = max_active_keys(viewer.plan)
    now = utcnow()
    active = await ApiKeyRepository(db).count_active(viewer.user_id, now)
    can_create_key = limit is None or active < limit
    replaceable = []
    if not can_create_key:  # offer to replace one of them instead
        keys = await ApiKeyRepository(db).list_for_user(viewer.user_id)
        replaceable = [k for k in keys if k.is_active(now)]
    context = {
        "viewer": viewer,
        "nav": "device",
        "device": device,
        "client_name": device.client_name or "An unnamed client",
        "key_name": f"Device: {device.client_name or 'svc'}"[:200],
        "key_limit": limit,
        "keys_active": active,
        "can_create_key": can_create_key,
        "replaceable": replaceable,
        "error": error,
    }
    return web.render(request, "device_confirm.html", context, status=status)


@router.get("/device")
async def device_page(request: Request, viewer: SignedIn) -> Response:
    return _entry(request, viewer, request.query_params.get("user_code", ""))


@router.post("/device")
async def device_lookup(
    request: Request, viewer: SignedIn, form: CheckedForm, db: DB, flow: Flow
) -> Response:
    code = web.field(form, "user_code")[:MAX_CODE_INPUT]
    try:
        device = await flow.lookup(db, viewer.user_id, code, client_ip(request))
    except (BadRequest, RateLimited) as exc:
        return _entry(
            request, viewer, code, error=exc.message, status=exc.status, headers=exc.headers
        )
    return await _confirm(request, db, viewer, device)


@router.post("/device/approve")
async def device_approve(
    request: Request, viewer: SignedIn, form: CheckedForm, db: DB, flow: Flow
) -> Response:
    code = web.field(form, "user_code")[:MAX_CODE_INPUT]
    replace_id = web.field(form, "replace_key")
    create_key = web.field(form, "create_key") == "1" or bool(replace_id)
    key_name = web.field(form, "key_name").strip()[:200] or None
    ip = client_ip(request)
    replaced: ApiKey | None = None
    try:
        # a replaced key is revoked first, then the new one created: one transaction
        replaced = await flow.authorize(
            db,
            viewer.user_id,
            code,
            ip,
            create_key=create_key,
            key_name=key_name,
            replace_key=replace_id or None,
        )
    except (PlanLimitReached, KeyNotReplaceable) as exc:
        await db.rollback()
        try:  # back to the confirm screen, if the code is still good (checked after the key)
            device = await flow.lookup(db, viewer.user_id, code, ip)
        except (BadRequest, RateLimited) as bad_code:
            return _entry(
                request,
                viewer,
                code,
                error=bad_code.message,
                status=bad_code.status,
                headers=bad_code.headers,
            )
        return await _confirm(
            request, db, viewer, device, error=web.sentence(exc.message), status=exc.status
        )
    except (BadRequest, RateLimited) as exc:
        await db.rollback()
        return _entry(
            request, viewer, code, error=exc.message, status=exc.status, headers=exc.headers
        )
    context = {
        "viewer": viewer,
        "nav": "device",
        "with_key": create_key,
        "replaced": replaced,
        "denied": False,
    }
    return web.render(request, "device_done.html", context)


@router.post("/device/deny")
async def device_deny(
    request: Request, viewer: SignedIn, form: CheckedForm, db: DB, flow: Flow
) -> Response:
    code = web.field(form, "user_code")[:MAX_CODE_INPUT]
    try:
        await flow.deny(db, viewer.user_id, code, client_ip(request))
    except (BadRequest, RateLimited) as exc:
        await db.rollback()
        return _entry(
            request, viewer, code, error=exc.message, status=exc.status, headers=exc.headers
        )
    context = {"viewer": viewer, "nav": "device", "with_key": False, "denied": True}

    return web.render(request, "device_done.html", context)
