"""The queries of dashboard sessions (`web_sessions`): the service decides what to write."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.auth.models import WebSession
from skillgate.users.models import User


class WebSessionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, row: WebSession) -> None:
        self.session.add(row)
        await self.session.flush()

    async def find_with_user(self, session_id: str) -> tuple[WebSession, User] | None:
        result = await self.session.execute(
            select(WebSession, User)
            .join(User, User.id == WebSession.user_id)
            .where(WebSession.id == session_id)
        )
        found = result.first()
        return None if found is None else (found[0], found[1])

    async def remove(self, row: WebSession) -> None:
        await self.session.delete(row)
        await self.session.flush()

    async def save(self) -> None:
        """Write a loaded row's changes (last_seen_at)."""
        await self.session.flush()

    async def delete(self, session_id: str) -> None:
        await self.session.execute(delete(WebSession).where(WebSession.id == session_id))
