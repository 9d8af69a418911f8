from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.models import ApiKey
from skillgate.users.models import User


class ApiKeyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, key: ApiKey) -> ApiKey:
        self.session.add(key)
        await self.session.flush()
        return key

    async def count_active(self, user_id: str, now: datetime) -> int:
        result = await self.session.execute(
            select(func.count())
            .select_from(ApiKey)
            .where(
                ApiKey.user_id == user_id,
                ApiKey.revoked_at.is_(None),
                or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
            )
        )
        return int(result.scalar_one())

    async def list_for_user(self, user_id: str) -> Sequence[ApiKey]:
        result = await self.session.execute(
            select(ApiKey)
            .where(ApiKey.user_id == user_id)
            .order_by(ApiKey.created_at.desc(), ApiKey.id)
        )
        return result.scalars().all()

    async def get_for_user(self, key_id: str, user_id: str) -> ApiKey | None:
        result = await self.session.execute(
            select(ApiKey).where(ApiKey.id == key_id, ApiKey.user_id == user_id)
        )
        return result.scalar_one_or_none()

    async def find_with_user(self, key_hash: str) -> tuple[ApiKey, User] | None:
        result = await self.session.execute(
            select(ApiKey, User)
            .join(User, User.id == ApiKey.user_id)
            .where(ApiKey.key_hash == key_hash)
        )
        row = result.first()
        return (row[0], row[1]) if row else None

    async def key_with_user(self, key_id: str) -> tuple[ApiKey, User] | None:
        result = await self.session.execute(
            select(ApiKey, User).join(User, User.id == ApiKey.user_id).where(ApiKey.id == key_id)
        )
        row = result.first()
        return (row[0], row[1]) if row else None

    async def touch_many(self, used: dict[str, datetime], min_gap_seconds: int) -> None:
        for key_id, when in used.items():
            threshold = datetime.fromtimestamp(when.timestamp() - min_gap_seconds, tz=when.tzinfo)
            await self.session.execute(
                update(ApiKey)
                .where(
                    and_(
                        ApiKey.id == key_id,
                        or_(ApiKey.last_used_at.is_(None), ApiKey.last_used_at < threshold),
                    )
                )
                .values(last_used_at=when)
            )
