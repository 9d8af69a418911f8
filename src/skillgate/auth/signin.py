"""Signing in and up: the one implementation behind POST /auth/login and the dashboard forms.

Every attempt is throttled first (`auth.throttle`: 429 before any password is
checked); a wrong email or password answers the same message whether or not the
account exists. A sign-in yields an access token (the JSON API) or a new
dashboard session (the browser), which replaces the one the browser had.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.auth import throttle
from skillgate.auth.sessions import WebSessions
from skillgate.auth.tokens import TokenSigner
from skillgate.errors import Unauthorized
from skillgate.kit.ratecount import Counter
from skillgate.users.models import User
from skillgate.users.service import UserService

SIGN_IN_FAILED = "Email or password is incorrect."


@dataclass(frozen=True)
class AccessToken:
    token: str
    expires_in: int


class SignIn:
    def __init__(self, counter: Counter, sessions: WebSessions, signer: TokenSigner) -> None:
        self._counter = counter
        self._sessions = sessions
        self._signer = signer

    @property
    def session_ttl(self) -> int:
        """Seconds a dashboard session lasts at most (the cookie's max-age)."""
        return self._sessions.absolute_ttl

    async def check(self, db: AsyncSession, email: str, password: str, ip: str) -> User:
        """The account; RateLimited past the limits, Unauthorized when they do not match."""
        await throttle.sign_in_attempt(self._counter, email, ip)
        user = await UserService(db).authenticate(email, password)
        if user is None:
            raise Unauthorized(SIGN_IN_FAILED)
        return user

    async def access_token(
        self, db: AsyncSession, email: str, password: str, ip: str
    ) -> AccessToken:
        user = await self.check(db, email, password, ip)
        return AccessToken(self._signer.issue(user.id), self._signer.ttl)

    async def start_session(self, db: AsyncSession, user_id: str, replaces: str | None) -> str:
        """A new dashboard session for the user (the cookie's token); `replaces` ends first."""
        token, _ = await self._sessions.create(db, user_id, replaces=replaces)
        return token

    async def sign_up(
        self, db: AsyncSession, email: str, password: str, display_name: str | None, ip: str
    ) -> User:
        """A new account; RateLimited per address, BadRequest or Conflict from the checks."""
        await throttle.sign_up_attempt(self._counter, ip)
        return await UserService(db).create(email, password, display_name=display_name)

    async def sign_out(self, db: AsyncSession, token: str) -> None:
        await self._sessions.end(db, token)
