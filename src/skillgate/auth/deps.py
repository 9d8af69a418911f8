"""The authentication dependency. Each route states what it accepts.

    ApiKeyAuth         Bearer API key only (the /v1 routes FastAPI serves; the agent
                       door calls `KeyVerifier.principal_from_key` itself)

    KeyTokenOrSession  Bearer API key, Bearer access token or dashboard session (/api-keys)
    TokenOrSession     Bearer access token or dashboard session (/auth/device/authorize)

A session cookie on a state-changing JSON request must come with the session's
CSRF token in `X-CSRF-Token`.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request

from skillgate.auth.sessions import COOKIE_NAME, SessionStore
from skillgate.db.session import DB
from skillgate.errors import CsrfFailed, Unauthorized
from skillgate.http.state import get_state
from skillgate.kit.principal import Principal, Via, bearer_token
from skillgate.users.repository import UserRepository

_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def authenticate(request: Request, db: DB | None, accept: frozenset[Via]) -> Principal:
    state = get_state(request)
    token = bearer_token(request.headers.get("authorization"))
    if token is not None:
        if token.startswith("sk_"):
            if "api_key" not in accept:
                raise Unauthorized("An API key cannot be used here; sign in instead.")
            return Principal.of_key(await state.verifier.verify(token))
        if "access_token" in accept and db is not None:
            claims = state.signer.verify(token)
            user = await UserRepository(db).get(claims.user_id) if claims else None
            if user is None:
                raise Unauthorized("The access token is invalid or expired; sign in again.")
            return Principal(user.id, user.email, user.display_name, user.plan, "access_token")
        raise Unauthorized()
    cookie = request.cookies.get(COOKIE_NAME)
    if cookie and "session" in accept and db is not None:
        settings = state.settings
        info = await SessionStore(
            db, settings.session_idle_ttl, settings.session_absolute_ttl
        ).resolve(cookie)
        if info is not None:
            if request.method in _UNSAFE:
                sent = request.headers.get("x-csrf-token", "")
                if not hmac.compare_digest(sent.encode(), info.csrf_token.encode()):
                    raise CsrfFailed("Send the session's CSRF token in the X-CSRF-Token header.")
            u = info.user
            return Principal(
                u.id, u.email, u.display_name, u.plan, "session", session_id=info.session_id
            )
    raise Unauthorized()


def _requires(*accept: Via) -> Callable[..., Awaitable[Principal]]:
    allowed = frozenset(accept)
    if "access_token" in allowed or "session" in allowed:

        async def with_db(request: Request, db: DB) -> Principal:
            return await authenticate(request, db, allowed)

        return with_db

    async def key_only(request: Request) -> Principal:
        return await authenticate(request, None, allowed)

    return key_only


ApiKeyAuth = Annotated[Principal, Depends(_requires("api_key"))]
KeyTokenOrSession = Annotated[Principal, Depends(_requires("api_key", "access_token", "session"))]
TokenOrSession = Annotated[Principal, Depends(_requires("access_token", "session"))]
