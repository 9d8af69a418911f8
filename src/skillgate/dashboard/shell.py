"""What every dashboard page shares, built once by the composition root.

Pages receive it like any other service (`shell: Shell`); the route class reads
it for the error page's header. Nothing here is per request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import Request
from starlette.responses import Response

from skillgate.auth.sessions import WebSessions
from skillgate.http.provide import provided
from skillgate.kit.public import PublicUrls
from skillgate.users.plans import PlanLimits


@dataclass(frozen=True)
class DashboardShell:
    public: PublicUrls  # the dashboard's public address: https there means Secure cookies
    csrf_secret: str  # signs the pre-session CSRF tokens (the app's secret key)
    sessions: WebSessions
    sessionmaker: async_sessionmaker[AsyncSession]  # the error page's own read
    free_limits: PlanLimits  # what the sign-in and sign-up forms show

    def secure_cookies(self, request: Request) -> bool:
        """`Secure` when this request came over https, or the dashboard's address is https."""
        return request.url.scheme == "https" or self.public.app.startswith("https://")

    def set_cookie(
        self, request: Request, response: Response, name: str, value: str, max_age: int | None
    ) -> None:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.secure_cookies(request),
        )

    def delete_cookie(self, request: Request, response: Response, name: str) -> None:
        response.delete_cookie(
            name, path="/", httponly=True, samesite="lax", secure=self.secure_cookies(request)
        )


Shell = Annotated[DashboardShell, provided(DashboardShell)]
