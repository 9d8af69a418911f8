from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.base import utcnow
from skillgate.users.models import User, Webhook, WebhookDelivery


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


class DeliveryRepository:
    """The outbox of webhook events (`webhook_deliveries`)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, row: WebhookDelivery) -> None:
        self.session.add(row)
        await self.session.flush()

    async def due(self, now: datetime, limit: int) -> list[tuple[str, int]]:
        """(id, attempts) of the pending deliveries whose next attempt is due."""
        found = await self.session.execute(
            select(WebhookDelivery.id, WebhookDelivery.attempts)
            .where(WebhookDelivery.state == "pending", WebhookDelivery.next_attempt_at <= now)
            .order_by(WebhookDelivery.next_attempt_at)
            .limit(limit)
        )
        return [(row[0], row[1]) for row in found.all()]

    async def claim(
        self, delivery_id: str, attempts: int, now: datetime, lease_until: datetime
    ) -> WebhookDelivery | None:
        """Take attempt `attempts + 1` of a due delivery: one conditional UPDATE, so of two
        instances (or two passes) one sends it; the lease makes it due again should this
        process stop before it records the outcome."""
        done = await self.session.execute(
            update(WebhookDelivery)
            .where(
                WebhookDelivery.id == delivery_id,
                WebhookDelivery.state == "pending",
                WebhookDelivery.attempts == attempts,
                WebhookDelivery.next_attempt_at <= now,
            )
            .values(attempts=attempts + 1, next_attempt_at=lease_until, last_attempt_at=now)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return await self.session.scalar(
            select(WebhookDelivery)
            .where(WebhookDelivery.id == delivery_id)
            .execution_options(populate_existing=True)
        )

    async def record(self, delivery_id: str, **values: Any) -> None:
        await self.session.execute(
            update(WebhookDelivery).where(WebhookDelivery.id == delivery_id).values(**values)
        )

    async def last_of(self, user_id: str) -> WebhookDelivery | None:
        return await self.session.scalar(
            select(WebhookDelivery)
            .where(WebhookDelivery.user_id == user_id)
            .order_by(WebhookDelivery.created_at.desc())
            .limit(1)
        )
