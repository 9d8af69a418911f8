"""Dashboard sessions: created at sign-in (a new id each time), ended server-side.

`WebSessions` is one instance per app (its TTLs are settings); each call takes
the request's database session, which owns the transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.auth.models import WebSession
from skillgate.auth.repository import WebSessionRepository
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


class WebSessions:
    def __init__(self, idle_ttl: int, absolute_ttl: int) -> None:
        self.idle = timedelta(seconds=idle_ttl)
        self.absolute = timedelta(seconds=absolute_ttl)
        self.absolute_ttl = absolute_ttl  # seconds: the cookie's max-age

    async def create(
        self, db: AsyncSession, user_id: str, replaces: str | None = None
    ) -> tuple[str, str]:
        """A new session (token, csrf); `replaces` is the old cookie's token, ended first."""
        repo = WebSessionRepository(db)
        if replaces:
            await repo.delete(_hash(replaces))
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = utcnow()
        await repo.add(
            WebSession(
                id=_hash(token),
                user_id=user_id,
                csrf_token=csrf,
                created_at=now,
                last_seen_at=now,
                expires_at=now + self.absolute,
            )
        )
        return token, csrf

    async def resolve(self, db: AsyncSession, token: str) -> SessionInfo | None:
        if not token or len(token) > 128:
            return None
        repo = WebSessionRepository(db)
        found = await repo.find_with_user(_hash(token))
        if found is None:
            return None
        ws, user = found
        now = utcnow()
        if ws.expires_at <= now or ws.last_seen_at + self.idle <= now:
            await repo.remove(ws)
            return None
        if now - ws.last_seen_at >= _TOUCH_EVERY:
            ws.last_seen_at = now
            await repo.save()
        return SessionInfo(session_id=ws.id, csrf_token=ws.csrf_token, user=user)

    async def end(self, db: AsyncSession, token: str) -> None:
        await WebSessionRepository(db).delete(_hash(token))
