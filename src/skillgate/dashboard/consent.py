"""OAuth consent for MCP clients (the gateway's authorization server, `mcpauth`), and
the list of apps the user allowed.

    GET  /oauth/consent?...         who asks (client name, redirect host) and the choice:
                                    integrations, read or full, confirmation policy, a
                                    policy (none, changes wait for approval, no
                                    destructive calls; edited later on Connected apps)
    POST /oauth/consent             allow (a grant and a single-use code, back to the
                                    client with `code`, `state` and `iss`) or deny
    POST /keys/apps/{grant_id}/revoke   end an app's access (its tokens stop at once)

Nothing is granted by a GET: the grant is the signed-in user's CSRF-checked POST.
The page is never framed (`X-Frame-Options: DENY`, `frame-ancestors 'none'`); its
`form-action` names the client's redirect origin besides this site, since the
browser applies it to the redirect that follows the POST.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from skillgate.api_keys.policy import PRESETS
from skillgate.catalog.loader import Catalog
from skillgate.dashboard import web
from skillgate.dashboard.keys import ACCESS_CHOICES, CONFIRM_CHOICES, scopes_from_form
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, SignedIn, Viewer
from skillgate.db.session import DB
from skillgate.errors import BadRequest, SkillGateError
from skillgate.http.provide import provided
from skillgate.mcpauth.service import CONSENT_FIELDS, Consent, Grants

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)
GrantsDep = Annotated[Grants, provided(Grants)]
Integrations = Annotated[Catalog, provided(Catalog)]
_UNSAFE = frozenset(" ;,'\"\t\r\n\\")
# The policies the consent page offers (api_keys.policy.PRESETS), as the person reads them.
POLICY_CHOICES = (
    ("", "None: every call in the chosen scopes"),
    ("approve_writes", "Changes wait for my approval"),
    ("deny_destructive", "No destructive calls"),
)


def form_action(redirect_uri: str) -> str:
    """The CSP source of a redirect URI's origin (`https://claude.ai`, `cursor:`)."""
    parts = urlsplit(redirect_uri)
    source = f"{parts.scheme}://{parts.netloc}" if parts.netloc else f"{parts.scheme}:"
    return "" if any(c in _UNSAFE for c in source) else " " + source


def _headers(consent: Consent) -> dict[str, str]:
    policy = web.SECURITY_HEADERS["Content-Security-Policy"].replace(
        "form-action 'self'", "form-action 'self'" + form_action(consent.request.redirect_uri)
    )
    return {"Content-Security-Policy": policy}


def _page(
    request: Request,
    viewer: Viewer,
    consent: Consent,
    catalog: Catalog,
    *,
    form: FormData | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    integrations = sorted(catalog.integrations.values(), key=lambda i: i.name.lower())
    chosen = {
        "access": (web.field(form, "access") if form else "") or "some",
        "scopes": {i.slug: web.field(form, f"scope_{i.slug}") for i in integrations}
        if form
        else {},
        "confirm": (web.field(form, "confirm") if form else "") or "destructive",
        "policy_preset": web.field(form, "policy_preset") if form else "",
    }
    context = {
        "viewer": viewer,
        "nav": "keys",
        "consent": consent,
        "fields": [
            (name, value)
            for name, value in (
                ("client_id", consent.request.client_id),
                ("redirect_uri", consent.request.redirect_uri),
                ("explicit", "1" if consent.request.explicit else "0"),
                ("code_challenge", consent.request.code_challenge),
                ("state", consent.request.state),
                ("resource", consent.request.resource),
            )
            if value is not None
        ],
        "integrations": integrations,
        "access_choices": ACCESS_CHOICES,
        "confirm_choices": CONFIRM_CHOICES,
        "policy_choices": POLICY_CHOICES,
        "form": chosen,
        "error": error,
    }
    return web.render(request, "consent.html", context, status=status, headers=_headers(consent))


def _preset(form: FormData) -> dict[str, Any] | None:
    """The policy the person chose for the app (`policy_preset`), None for none."""
    choice = web.field(form, "policy_preset")
    if choice not in PRESETS:
        raise BadRequest("Policy: choose one of the offered policies.")
    return PRESETS[choice]


def _away(url: str) -> Response:
    response = RedirectResponse(url, status_code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/oauth/consent")
async def consent_page(
    request: Request, viewer: SignedIn, grants: GrantsDep, catalog: Integrations
) -> Response:
    consent = await grants.consent(request.query_params.get)
    return _page(request, viewer, consent, catalog)


@router.post("/oauth/consent")
async def consent_answer(
    request: Request,
    viewer: SignedIn,
    form: CheckedForm,
    db: DB,
    grants: GrantsDep,
    catalog: Integrations,
) -> Response:
    def fields(name: str) -> str | None:
        value = form.get(name)
        return value if isinstance(value, str) and name in CONSENT_FIELDS else None

    consent = await grants.consent(fields)
    if web.field(form, "decision") != "allow":
        return _away(grants.denied(consent))
    try:
        scopes = scopes_from_form(form, catalog.slugs)
        confirm = web.field(form, "confirm") or "destructive"
        target = await grants.approve(
            db, viewer.user_id, consent, scopes, confirm, policy=_preset(form)
        )
    except SkillGateError as exc:
        if exc.status >= 500:
            raise
        await db.rollback()
        message = web.sentence(exc.message)
        return _page(request, viewer, consent, catalog, form=form, error=message, status=exc.status)
    return _away(target)


@router.post("/keys/apps/{grant_id}/revoke")
async def revoke_app(
    grant_id: str, viewer: SignedIn, form: CheckedForm, db: DB, grants: GrantsDep
) -> Response:
    await grants.revoke(db, viewer.user_id, grant_id)
    return web.redirect("/keys", notice="app_revoked")
