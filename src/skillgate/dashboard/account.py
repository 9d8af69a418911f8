"""Sign up, sign in, sign out.

    GET  /         -> /keys when signed in, else /login
    GET  /signup   form;  POST /signup  create the account and sign in
    GET  /login    form;  POST /login   sign in (`next` honoured for paths on this site)
    GET  /logout   a confirm button;  POST /logout  end the session server-side

A sign-in creates a new session (a new id and CSRF token) and ends the one the
browser had: the session id is never carried across a sign-in.
"""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import Request
from starlette.responses import Response

from skillgate.auth import throttle
from skillgate.auth.sessions import COOKIE_NAME
from skillgate.dashboard import csrf, web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.viewer import CheckedForm, current_viewer, session_store
from skillgate.db.session import DB
from skillgate.errors import BadRequest, Conflict, RateLimited
from skillgate.http.client import client_ip
from skillgate.http.state import State, get_state
from skillgate.users.passwords import MIN_LENGTH
from skillgate.users.service import UserService

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

SIGN_IN_FAILED = "Email or password is incorrect."
DUPLICATE_EMAIL = "An account with this email already exists. Sign in instead."


def _form_page(
    request: Request,
    template: str,
    values: dict[str, str],
    *,
    error: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    token, new_nonce = csrf.pre_session_token(request)
    context = {
        "csrf_token": token,
        "values": values,
        "error": error,
        "min_length": MIN_LENGTH,
        "nav": template.removesuffix(".html"),
        "limits": get_state(request).limits_for("free"),
    }
    response = web.render(request, template, context, status=status, headers=headers)
    csrf.remember_nonce(request, response, new_nonce)
    return response


async def _start_session(request: Request, db: AsyncSession, user_id: str, target: str) -> Response:
    settings = get_state(request).settings
    token, _ = await session_store(request, db).create(
        user_id, replaces=request.cookies.get(COOKIE_NAME)
    )
    response = web.redirect(target)
    web.set_cookie(request, response, COOKIE_NAME, token, max_age=settings.session_absolute_ttl)
    return response


def _target(next_path: str | None, default: str = "/keys") -> str:
    return web.safe_next(next_path) or default


@router.get("/")
async def home(request: Request, db: DB) -> Response:
    viewer = await current_viewer(request, db)
    return web.redirect("/keys" if viewer else "/login")


@router.get("/login")
async def login_form(request: Request, db: DB) -> Response:
    next_path = web.safe_next(request.query_params.get("next"))
    if await current_viewer(request, db) is not None:
        return web.redirect(next_path or "/keys")
    return _form_page(request, "login.html", {"email": "", "next": next_path or ""})


@router.post("/login")
async def login_submit(request: Request, db: DB, state: State) -> Response:
    form = await request.form()
    csrf.check_pre_session(request, form)
    email = web.field(form, "email").strip()
    next_path = web.safe_next(web.field(form, "next")) or ""
    values = {"email": email, "next": next_path}
    try:
        await throttle.sign_in_attempt(state.limiter.counter, email, client_ip(request))
    except RateLimited as exc:
        return _form_page(
            request, "login.html", values, error=exc.message, status=429, headers=exc.headers
        )
    user = await UserService(db).authenticate(email, web.field(form, "password", secret=True))
    if user is None:
        return _form_page(request, "login.html", values, error=SIGN_IN_FAILED, status=400)
    return await _start_session(request, db, user.id, _target(next_path))


@router.get("/signup")
async def signup_form(request: Request, db: DB) -> Response:
    next_path = web.safe_next(request.query_params.get("next")) or ""
    if await current_viewer(request, db) is not None:
        return web.redirect(next_path or "/keys")
    return _form_page(request, "signup.html", {"email": "", "display_name": "", "next": next_path})


@router.post("/signup")
async def signup_submit(request: Request, db: DB, state: State) -> Response:
    form = await request.form()
    csrf.check_pre_session(request, form)
    email = web.field(form, "email").strip()
    values = {
        "email": email,
        "display_name": web.field(form, "display_name").strip(),
        "next": web.safe_next(web.field(form, "next")) or "",
    }
    password = web.field(form, "password", secret=True)
    if password != web.field(form, "password_confirm", secret=True):
        return _form_page(
            request, "signup.html", values, error="The two passwords differ.", status=400
        )
    try:
        await throttle.sign_up_attempt(state.limiter.counter, client_ip(request))
        user = await UserService(db).create(
            email, password, display_name=values["display_name"] or None
        )
    except (BadRequest, Conflict, RateLimited) as exc:
        await db.rollback()
        message = DUPLICATE_EMAIL if isinstance(exc, Conflict) else web.sentence(exc.message)
        return _form_page(
            request, "signup.html", values, error=message, status=exc.status, headers=exc.headers
        )
    return await _start_session(
        request, db, user.id, _target(values["next"], "/keys?notice=welcome")
    )


@router.get("/logout")
async def logout_page(request: Request, db: DB) -> Response:
    viewer = await current_viewer(request, db)
    if viewer is None:
        return web.redirect("/login")
    return web.render(request, "logout.html", {"viewer": viewer})


@router.post("/logout")
async def logout(request: Request, db: DB, form: CheckedForm) -> Response:
    # `form` is unused: asking for CheckedForm is what checks the CSRF token.
    await session_store(request, db).end(request.cookies.get(COOKIE_NAME, ""))
    response = web.redirect("/login", notice="signed_out")
    web.delete_cookie(request, response, COOKIE_NAME)
    return response
