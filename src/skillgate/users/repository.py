from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.base import utcnow
from skillgate.users.models import User, Webhook


class UserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, user_id: str) -> User | None:
        return await self.session.get(User, user_id)

    async def by_email(self, email: str) -> User | None:
        result = await self.session.execute(select(User).where(User.email == email))
        return result.scalar_one_or_none()

    async def add(self, user: User) -> User:
        self.session.add(user)
        await self.session.flush()
        return user

    async def list(self) -> Sequence[User]:
        result = await self.session.execute(select(User).order_by(User.created_at))
        return result.scalars().all()

    async def lock(self, user_id: str) -> None:
        """Serialise writers on this user: a row lock on PostgreSQL, the write lock on SQLite.

        An UPDATE (rather than SELECT ... FOR UPDATE) works on both backends and,
        as the first statement of the transaction, never upgrades a read lock.
        """
        await self.session.execute(
            update(User).where(User.id == user_id).values(updated_at=utcnow())
        )


class WebhookRepository:
    """A user's notification webhook (one row per user)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, user_id: str) -> Webhook | None:
        return await self.session.get(Webhook, user_id)

    async def replace(self, row: Webhook) -> None:
        await self.remove(row.user_id)
        self.session.add(row)
        await self.session.flush()

    async def remove(self, user_id: str) -> bool:
        result = await self.session.execute(delete(Webhook).where(Webhook.user_id == user_id))
        return bool(getattr(result, "rowcount", 0))
