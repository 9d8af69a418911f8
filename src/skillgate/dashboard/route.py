"""The dashboard's route class: whatever goes wrong, the browser gets an HTML page.

The JSON API's handlers render `{"error","message"}`; a person in a browser gets
the same message on a page, with the same status code, and never a stack trace.
A page that needs a signed-in user and has none redirects to the sign-in page.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from skillgate.auth.sessions import COOKIE_NAME
from skillgate.dashboard import web
from skillgate.dashboard.shell import DashboardShell
from skillgate.dashboard.viewer import NeedsSignIn, Viewer, current_viewer
from skillgate.errors import BadRequest, ServiceUnavailable, SkillGateError
from skillgate.http.errors import as_error
from skillgate.http.handlers import describe_validation
from skillgate.http.middleware import request_id
from skillgate.http.provide import services_of

TITLES = {
    400: "That did not work",
    401: "Please sign in",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed",
    409: "Already exists",
    413: "Too large",
    429: "Too many attempts",
    502: "The service did not answer",
    503: "Temporarily unavailable",
    504: "The service did not answer in time",
}


def _shell(request: Request) -> DashboardShell:
    # The route class wraps the handler, outside dependency injection: it reads the
    # app's one shell from the same registry `provided(...)` answers from.
    shell: DashboardShell = services_of(request)[DashboardShell]
    return shell


async def _viewer(request: Request) -> Viewer | None:
    """Who is signed in, for the error page's header (its own read-only transaction)."""
    try:
        shell = _shell(request)
        async with shell.sessionmaker() as db:
            return await current_viewer(request, db, shell.sessions)
    except Exception:  # the database may be why we are here
        return None


async def error_page(request: Request, error: SkillGateError, *, viewer: bool = True) -> Response:
    """The HTML variant of `http.handlers.error_response`: the same status, message and
    headers, on a page; `viewer=False` when the database is why we are here (no lookup
    of who is signed in)."""
    who = await _viewer(request) if viewer else None
    status = error.status
    title = TITLES.get(status, "Something went wrong")
    return web.render(
        request,
        "error.html",
        {"title": title, "message": error.message, "status": status, "viewer": who},
        status=status,
        headers=error.headers,
    )


def _as_error(request: Request, exc: Exception) -> tuple[SkillGateError, bool]:
    """What the browser is told about `exc`: the error the JSON door would render
    (`http.errors.as_error`; a framework HTTPException keeps its own status and text),
    and whether the database may be asked who is signed in (not when it is why we are
    here)."""
    if isinstance(exc, RequestValidationError):
        return BadRequest(describe_validation(list(exc.errors()))), True
    if isinstance(exc, HTTPException):
        error = SkillGateError(str(exc.detail))
        error.status = exc.status_code
        return error, True
    error = as_error(exc, request_id(request.scope))
    outage = error is not exc and isinstance(error, ServiceUnavailable)
    return error, not outage


def _to_sign_in(request: Request, exc: NeedsSignIn) -> Response:
    query = {"next": exc.next_path} if exc.next_path and exc.next_path != "/" else {}
    response = web.redirect("/login", **query)
    if request.cookies.get(COOKIE_NAME):
        _shell(request).delete_cookie(request, response, COOKIE_NAME)  # expired or ended elsewhere
    return response


class DashboardRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def html_errors(request: Request) -> Response:
            try:
                return await handler(request)
            except NeedsSignIn as exc:
                return _to_sign_in(request, exc)
            except Exception as exc:
                error, ask_viewer = _as_error(request, exc)
                return await error_page(request, error, viewer=ask_viewer)

        return html_errors
