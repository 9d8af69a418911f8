"""API keys: list, create (the full key shown once), revoke after a confirmation.

    GET  /keys                     the list, the plan's key limit, the create form
    POST /keys                     create; the response page shows the full key, once
    GET  /keys/{key_id}/revoke     "Revoke this key?"
    POST /keys/{key_id}/revoke     revoke, back to the list
    POST /keys/{key_id}/confirm    change which calls need confirmation (docs/execution.md)

The full key is only in the body of the POST's response: never stored, never in
a URL, never shown again (the page is `Cache-Control: no-store`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from skillgate.api_keys.models import ApiKey
from skillgate.api_keys.scopes import APPROVE
from skillgate.api_keys.service import ApiKeys
from skillgate.catalog.loader import Catalog
from skillgate.dashboard import web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.db.base import utcnow
from skillgate.db.session import DB
from skillgate.errors import BadRequest, NotFound, SkillGateError
from skillgate.http.provide import provided
from skillgate.mcpauth.service import Grants
from skillgate.users.plans import PlanLimits, Plans, max_active_keys

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

EXPIRY_CHOICES: tuple[tuple[str, str], ...] = (
    ("", "Never"),
    ("7", "In 7 days"),
    ("30", "In 30 days"),
    ("90", "In 90 days"),
    ("365", "In 1 year"),
)
ACCESS_CHOICES = (("", "No access"), ("read", "Read only"), ("full", "Full"))
CONFIRM_CHOICES = (
    ("destructive", "Destructive calls"),
    ("writes", "All writes"),
    ("never", "Never"),
)

Keys = Annotated[ApiKeys, provided(ApiKeys)]
Apps = Annotated[Grants, provided(Grants)]
Integrations = Annotated[Catalog, provided(Catalog)]
PlanTable = Annotated[Plans, provided(Plans)]


@dataclass(frozen=True)
class KeyRow:
    key: ApiKey
    status: str  # active | revoked | expired

    @property
    def scopes_label(self) -> str:
        scopes = list(self.key.scopes)
        return "All integrations" if scopes == ["*"] else ", ".join(scopes)


@dataclass(frozen=True)
class KeyQuota:
    plan: str
    limit: int | None
    active: int

    @property
    def reached(self) -> bool:
        return self.limit is not None and self.active >= self.limit


def _status(key: ApiKey, now: datetime) -> str:
    if key.revoked_at is not None:
        return "revoked"
    return "active" if key.is_active(now) else "expired"


def scopes_from_form(form: FormData, slugs: list[str]) -> list[str]:
    """`*` for "all integrations", `approve` for a key that only decides held calls
    (docs/execution.md, "Approvals"), else `slug` / `slug:read` per chosen integration."""
    access = web.field(form, "access")
    if access == "approve":
        return [APPROVE]
    if access != "some":
        return ["*"]
    chosen: list[str] = []
    for slug in slugs:
        level = web.field(form, f"scope_{slug}")
        if level == "full":
            chosen.append(slug)
        elif level == "read":
            chosen.append(f"{slug}:read")
    if not chosen:
        raise BadRequest("Scopes: choose at least one integration, or allow all of them.")
    return chosen


def expiry_from_form(form: FormData) -> datetime | None:
    value = web.field(form, "expires_in_days")
    if not value:
        return None
    if value not in {days for days, _ in EXPIRY_CHOICES}:
        raise BadRequest("Expiry: choose one of the offered periods.")
    return utcnow() + timedelta(days=int(value))


async def _page_context(
    db: AsyncSession,
    keys: ApiKeys,
    catalog: Catalog,
    limits: PlanLimits,
    viewer: Viewer,
    apps: Grants,
) -> dict[str, Any]:
    now = utcnow()
    rows = [KeyRow(k, _status(k, now)) for k in await keys.list_for(db, viewer.user_id)]
    quota = KeyQuota(
        viewer.plan, max_active_keys(viewer.plan), sum(r.status == "active" for r in rows)
    )
    integrations = sorted(catalog.integrations.values(), key=lambda i: i.name.lower())
    return {
        "viewer": viewer,
        "nav": "keys",
        "rows": rows,
        "apps": await apps.list_for(db, viewer.user_id),
        "quota": quota,
        "limits": limits,
        "integrations": integrations,
        "expiry_choices": EXPIRY_CHOICES,
        "access_choices": ACCESS_CHOICES,
        "confirm_choices": CONFIRM_CHOICES,
        "form": {
            "name": "",
            "access": "all",
            "expires_in_days": "",
            "scopes": {},
            "confirm": "destructive",
        },
    }


@router.get("/keys")
async def keys_page(
    request: Request,
    viewer: SignedIn,
    db: DB,
    keys: Keys,
    catalog: Integrations,
    plans: PlanTable,
    apps: Apps,
) -> Response:
    limits = plans.limits_for(viewer.plan)
    context = await _page_context(db, keys, catalog, limits, viewer, apps)
    return web.render(request, "keys.html", context)


@router.post("/keys")
async def create_key(
    request: Request,
    viewer: SignedIn,
    form: CheckedForm,
    db: DB,
    keys: Keys,
    catalog: Integrations,
    plans: PlanTable,
    apps: Apps,
) -> Response:
    slugs = catalog.slugs
    try:
        scopes = scopes_from_form(form, slugs)
        expires_at = expiry_from_form(form)
        key, full_key = await keys.create(
            db,
            viewer.user_id,
            web.field(form, "name"),
            scopes,
            expires_at,
            confirm=web.field(form, "confirm") or "destructive",
        )
    except SkillGateError as exc:
        if exc.status >= 500:
            raise
        await db.rollback()
        limits = plans.limits_for(viewer.plan)
        context = await _page_context(db, keys, catalog, limits, viewer, apps)
        context["error"] = web.sentence(exc.message)
        context["form"] = {
            "name": web.field(form, "name"),
            "access": web.field(form, "access") or "all",
            "expires_in_days": web.field(form, "expires_in_days"),
            "scopes": {s: web.field(form, f"scope_{s}") for s in slugs},
            "confirm": web.field(form, "confirm") or "destructive",
        }
        return web.render(request, "keys.html", context, status=exc.status)
    row = KeyRow(key, "active")
    return web.render(
        request,
        "key_created.html",
        {"viewer": viewer, "nav": "keys", "row": row, "full_key": full_key},
        status=201,
    )


async def _own_key(db: AsyncSession, keys: ApiKeys, viewer: Viewer, key_id: str) -> ApiKey:
    key = await keys.owned(db, viewer.user_id, key_id[:64])
    if key is None:
        raise NotFound("This API key does not exist, or is not yours.")
    return key


@router.get("/keys/{key_id}/revoke")
async def revoke_confirm(
    request: Request, key_id: str, viewer: SignedIn, db: DB, keys: Keys
) -> Response:
    key = await _own_key(db, keys, viewer, key_id)
    row = KeyRow(key, _status(key, utcnow()))
    return web.render(request, "key_revoke.html", {"viewer": viewer, "nav": "keys", "row": row})


@router.post("/keys/{key_id}/revoke")
async def revoke(key_id: str, viewer: SignedIn, form: CheckedForm, db: DB, keys: Keys) -> Response:
    key = await _own_key(db, keys, viewer, key_id)
    await keys.revoke(db, viewer.user_id, key.id)
    return web.redirect("/keys", notice="key_revoked")


@router.post("/keys/{key_id}/confirm")
async def set_confirm(
    key_id: str, viewer: SignedIn, form: CheckedForm, db: DB, keys: Keys
) -> Response:
    """Change which calls of this key need a confirmation token."""
    key = await _own_key(db, keys, viewer, key_id)
    await keys.set_confirm(db, viewer.user_id, key.id, web.field(form, "confirm"))
    return web.redirect("/keys", notice="key_confirm")
