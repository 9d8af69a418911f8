"""Sign up, sign in, sign out.

    GET  /         -> /keys when signed in, else /login
    GET  /signup   form;  POST /signup  create the account and sign in
    GET  /login    form;  POST /login   sign in (`next` honoured for paths on this site)
    GET  /logout   a confirm button;  POST /logout  end the session server-side

A sign-in creates a new session (a new id and CSRF token) and ends the one the
browser had: the session id is never carried across a sign-in. Checking,
throttling and starting sessions is `auth.signin.SignIn`, shared with POST /auth/login.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import Request
from starlette.responses import Response

from skillgate.auth.sessions import COOKIE_NAME
from skillgate.auth.signin import SignIn
from skillgate.dashboard import csrf, web
from skillgate.dashboard.route import DashboardRoute
from skillgate.dashboard.shell import DashboardShell, Shell
from skillgate.dashboard.viewer import CheckedForm, Viewer, current_viewer
from skillgate.db.session import DB
from skillgate.errors import BadRequest, Conflict, RateLimited, Unauthorized
from skillgate.http.client_ip import client_ip
from skillgate.http.provide import provided
from skillgate.users.passwords import MIN_LENGTH

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

SignIns = Annotated[SignIn, provided(SignIn)]
DUPLICATE_EMAIL = "An account with this email already exists. Sign in instead."


def _form_page(
    request: Request,
    shell: DashboardShell,
    template: str,
    values: dict[str, str],
    *,
    error: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    token, new_nonce = csrf.pre_session_token(shell, request)
    context = {
        "csrf_token": token,
        "values": values,
        "error": error,
        "min_length": MIN_LENGTH,
        "nav": template.removesuffix(".html"),
        "limits": shell.free_limits,
    }
    response = web.render(request, template, context, status=status, headers=headers)
    csrf.remember_nonce(shell, request, response, new_nonce)
    return response


async def _start_session(
    request: Request, db: AsyncSession, shell: Shell, sign_in: SignIn, user_id: str, target: str
) -> Response:
    token = await sign_in.start_session(db, user_id, replaces=request.cookies.get(COOKIE_NAME))
    response = web.redirect(target)
    shell.set_cookie(request, response, COOKIE_NAME, token, max_age=sign_in.session_ttl)
    return response


def _target(next_path: str | None, default: str = "/keys") -> str:
    return web.safe_next(next_path) or default


async def _viewer(request: Request, db: AsyncSession, shell: DashboardShell) -> Viewer | None:
    return await current_viewer(request, db, shell.sessions)


@router.get("/")
async def home(request: Request, db: DB, shell: Shell) -> Response:
    viewer = await _viewer(request, db, shell)
    return web.redirect("/keys" if viewer else "/login")


@router.get("/login")
async def login_form(request: Request, db: DB, shell: Shell) -> Response:
    next_path = web.safe_next(request.query_params.get("next"))
    if await _viewer(request, db, shell) is not None:
        return web.redirect(next_path or "/keys")
    return _form_page(request, shell, "login.html", {"email": "", "next": next_path or ""})


@router.post("/login")
async def login_submit(request: Request, db: DB, shell: Shell, sign_in: SignIns) -> Response:
    form = await request.form()
    csrf.check_pre_session(shell, request, form)
    email = web.field(form, "email").strip()
    next_path = web.safe_next(web.field(form, "next")) or ""
    values = {"email": email, "next": next_path}
    try:
        user = await sign_in.check(
            db, email, web.field(form, "password", secret=True), client_ip(request)
        )
    except (RateLimited, Unauthorized) as exc:
        status = exc.status if isinstance(exc, RateLimited) else 400  # a form error, not 401
        return _form_page(
            request,
            shell,
            "login.html",
            values,
            error=exc.message,
            status=status,
            headers=exc.headers if isinstance(exc, RateLimited) else None,
        )
    return await _start_session(request, db, shell, sign_in, user.id, _target(next_path))


@router.get("/signup")
async def signup_form(request: Request, db: DB, shell: Shell) -> Response:
    next_path = web.safe_next(request.query_params.get("next")) or ""
    if await _viewer(request, db, shell) is not None:
        return web.redirect(next_path or "/keys")
    values = {"email": "", "display_name": "", "next": next_path}
    return _form_page(request, shell, "signup.html", values)


@router.post("/signup")
async def signup_submit(request: Request, db: DB, shell: Shell, sign_in: SignIns) -> Response:
    form = await request.form()
    csrf.check_pre_session(shell, request, form)
    email = web.field(form, "email").strip()
    values = {
        "email": email,
        "display_name": web.field(form, "display_name").strip(),
        "next": web.safe_next(web.field(form, "next")) or "",
    }
    password = web.field(form, "password", secret=True)
    if password != web.field(form, "password_confirm", secret=True):
        return _form_page(
            request, shell, "signup.html", values, error="The two passwords differ.", status=400
        )
    try:
        user = await sign_in.sign_up(
            db, email, password, values["display_name"] or None, client_ip(request)
        )
    except (BadRequest, Conflict, RateLimited) as exc:
        await db.rollback()
        message = DUPLICATE_EMAIL if isinstance(exc, Conflict) else web.sentence(exc.message)
        return _form_page(
            request,
            shell,
            "signup.html",
            values,
            error=message,
            status=exc.status,
            headers=exc.headers,
        )
    target = _target(values["next"], "/keys?notice=welcome")
    return await _start_session(request, db, shell, sign_in, user.id, target)


@router.get("/logout")
async def logout_page(request: Request, db: DB, shell: Shell) -> Response:
    viewer = await _viewer(request, db, shell)
    if viewer is None:
        return web.redirect("/login")
    return web.render(request, "logout.html", {"viewer": viewer})


@router.post("/logout")
async def logout(
    request: Request, db: DB, form: CheckedForm, shell: Shell, sign_in: SignIns
) -> Response:
    # `form` is unused: asking for CheckedForm is what checks the CSRF token.
    await sign_in.sign_out(db, request.cookies.get(COOKIE_NAME, ""))
    response = web.redirect("/login", notice="signed_out")
    shell.delete_cookie(request, response, COOKIE_NAME)
    return response
