"""Who is signed in, as dependencies a route's signature shows.

SignedIn      the signed-in viewer; otherwise NeedsSignIn (the route class redirects
              to /login?next=<this page>)
CheckedForm   the submitted form of a signed-in viewer, its CSRF token checked (403)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData
from starlette.requests import Request

from skillgate.auth.sessions import COOKIE_NAME, WebSessions
from skillgate.dashboard import csrf
from skillgate.dashboard.shell import Shell
from skillgate.db.session import DB


class NeedsSignIn(Exception):
    """Raised by the signed-in dependency; becomes a redirect to /login?next=..."""

    def __init__(self, next_path: str | None) -> None:
        super().__init__("sign-in required")
        self.next_path = next_path


@dataclass(frozen=True, slots=True)
class Viewer:
    """The signed-in user, copied out of the ORM so a rollback never expires it."""

    user_id: str
    email: str
    display_name: str
    plan: str
    csrf_token: str


async def current_viewer(
    request: Request, db: AsyncSession, sessions: WebSessions
) -> Viewer | None:
    token = request.cookies.get(COOKIE_NAME)
    if not token:
        return None
    info = await sessions.resolve(db, token)
    if info is None:
        return None
    user = info.user
    return Viewer(user.id, user.email, user.display_name, user.plan, info.csrf_token)


async def _signed_in(request: Request, db: DB, shell: Shell) -> Viewer:
    viewer = await current_viewer(request, db, shell.sessions)
    if viewer is None:
        here = None
        if request.method == "GET":
            here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        raise NeedsSignIn(here)
    return viewer


SignedIn = Annotated[Viewer, Depends(_signed_in)]


async def _checked_form(request: Request, viewer: SignedIn) -> FormData:
    form = await request.form()
    csrf.check_session(request, form, viewer.csrf_token)
    return form


CheckedForm = Annotated[FormData, Depends(_checked_form)]
