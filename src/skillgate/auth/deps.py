"""The authentication dependency of the account door. Each route states what it accepts.

    KeyTokenOrSession  Bearer API key, Bearer access token or dashboard session (/api-keys)
    TokenOrSession     Bearer access token or dashboard session (/auth/device/authorize,
                       a key's or an app's policy, /oauth-grants, /notification-webhook)
    SessionOrNone      the dashboard session's user, or None (browser routes that send
                       a visitor without one to the sign-in page)

A session cookie on a state-changing JSON request must come with the session's
CSRF token in `X-CSRF-Token`, and not from another site (`Sec-Fetch-Site`). The
credentials are checked by the app's one `Authenticator` (the key verifier, the
token signer, the session store), which routes receive like any other service.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.verifier import KeyVerifier
from skillgate.auth.sessions import COOKIE_NAME, WebSessions
from skillgate.auth.tokens import TokenSigner
from skillgate.db.session import DB
from skillgate.errors import CredentialRefused, CsrfFailed, Unauthorized
from skillgate.http.openapi import BEARER_DESCRIPTION, SESSION_DESCRIPTION
from skillgate.http.provide import provided
from skillgate.kit.origins import check_fetch_site
from skillgate.kit.principal import Principal, Via, bearer_token
from skillgate.users.repository import UserRepository

_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class Authenticator:
    def __init__(self, verifier: KeyVerifier, signer: TokenSigner, sessions: WebSessions) -> None:
        self.verifier = verifier
        self.signer = signer
        self.sessions = sessions

    async def authenticate(
        self, request: Request, db: AsyncSession, accept: frozenset[Via]
    ) -> Principal:
        token = bearer_token(request.headers.get("authorization"))
        if token is not None:
            if token.startswith("sk_"):
                if "api_key" not in accept:
                    raise CredentialRefused("An API key cannot be used here; sign in instead.")
                return await self.verifier.verify(token)
            if "access_token" in accept:
                return await self._access_token(db, token)
            raise CredentialRefused()
        cookie = request.cookies.get(COOKIE_NAME)
        if cookie and "session" in accept:
            principal = await self._session(request, db, cookie)
            if principal is not None:
                return principal
        raise Unauthorized()

    async def _access_token(self, db: AsyncSession, token: str) -> Principal:
        claims = self.signer.verify(token)
        user = await UserRepository(db).get(claims.user_id) if claims else None
        if user is None:
            raise CredentialRefused("The access token is invalid or expired; sign in again.")
        return Principal(user.id, user.email, user.display_name, user.plan, "access_token")

    async def _session(self, request: Request, db: AsyncSession, cookie: str) -> Principal | None:
        info = await self.sessions.resolve(db, cookie)
        if info is None:
            return None
        if request.method in _UNSAFE:
            check_fetch_site(request.headers.get("sec-fetch-site"))
            sent = request.headers.get("x-csrf-token", "")
            if not hmac.compare_digest(sent.encode(), info.csrf_token.encode()):
                raise CsrfFailed("Send the session's CSRF token in the X-CSRF-Token header.")
        u = info.user
        return Principal(
            u.id, u.email, u.display_name, u.plan, "session", session_id=info.session_id
        )


Auth = Annotated[Authenticator, provided(Authenticator)]


# What /openapi.json shows: a route depending on these declares the scheme (the
# credential itself is read by `Authenticator`; these never refuse anything).
BEARER = HTTPBearer(scheme_name="bearer", description=BEARER_DESCRIPTION, auto_error=False)
SESSION = APIKeyCookie(
    name=COOKIE_NAME, scheme_name="session", description=SESSION_DESCRIPTION, auto_error=False
)
Bearer = Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]
SessionCookie = Annotated[str | None, Security(SESSION)]


def _requires(*accept: Via) -> Callable[..., Awaitable[Principal]]:
    """The dependency of a route accepting `accept` (each route here takes a session,
    so a session cookie and a database session are always declared)."""
    allowed = frozenset(accept)

    async def bearer_or_session(
        request: Request, db: DB, auth: Auth, _b: Bearer, _s: SessionCookie
    ) -> Principal:
        return await auth.authenticate(request, db, allowed)

    return bearer_or_session


async def _session_or_none(
    request: Request, db: DB, auth: Auth, _s: SessionCookie
) -> Principal | None:
    try:
        return await auth.authenticate(request, db, frozenset({"session"}))
    except Unauthorized:
        return None


KeyTokenOrSession = Annotated[Principal, Depends(_requires("api_key", "access_token", "session"))]
TokenOrSession = Annotated[Principal, Depends(_requires("access_token", "session"))]
SessionOrNone = Annotated[Principal | None, Depends(_session_or_none)]
