"""Dashboard sessions: created at sign-in (a new id each time), ended server-side."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.auth.models import WebSession
from skillgate.db.base import utcnow
from skillgate.users.models import User

COOKIE_NAME = "sg_session"
_TOUCH_EVERY = timedelta(minutes=1)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    csrf_token: str
    user: User


class SessionStore:
    def __init__(self, session: AsyncSession, idle_ttl: int, absolute_ttl: int) -> None:
        self.db = session
        self.idle = timedelta(seconds=idle_ttl)
        self.absolute = timedelta(seconds=absolute_ttl)

    async def create(self, user_id: str, replaces: str | None = None) -> tuple[str, str]:
        """A new session (token, csrf); `replaces` is the old cookie's token, ended first."""
        if replaces:
            await self.end(replaces)
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = utcnow()
        self.db.add(
            WebSession(
                id=_hash(token),
                user_id=user_id,
                csrf_token=csrf,
                created_at=now,
                last_seen_at=now,
                expires_at=now + self.absolute,
            )
        )
        await self.db.flush()
        return token, csrf

    async def resolve(self, token: str) -> SessionInfo | None:
        if not token or len(token) > 128:
            return None
        row = await self.db.execute(
            select(WebSession, User)
            .join(User, User.id == WebSession.user_id)
            .where(WebSession.id == _hash(token))
        )
        found = row.first()
        if found is None:
            return None
        ws, user = found[0], found[1]
        now = utcnow()
        if ws.expires_at <= now or ws.last_seen_at + self.idle <= now:
            await self.db.delete(ws)
            await self.db.flush()
            return None
        if now - ws.last_seen_at >= _TOUCH_EVERY:
            ws.last_seen_at = now
            await self.db.flush()
        return SessionInfo(session_id=ws.id, csrf_token=ws.csrf_token, user=user)

    async def end(self, token: str) -> None:
        await self.db.execute(delete(WebSession).where(WebSession.id == _hash(token)))

    async def end_all(self, user_id: str) -> None:
        await self.db.execute(delete(WebSession).where(WebSession.user_id == user_id))
