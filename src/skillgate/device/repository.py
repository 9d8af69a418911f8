"""The queries of device authorizations (`device_codes`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.session import insert_new
from skillgate.device.models import DeviceCode


class DeviceCodeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert(self, row: DeviceCode) -> bool:
        """Store a new code; False (and nothing stored) when a code digest collides."""
        return await insert_new(self.session, row)

    async def count_pending(self, now: datetime) -> int:
        pending = await self.session.scalar(
            select(func.count())
            .select_from(DeviceCode)
            .where(DeviceCode.status == "pending", DeviceCode.expires_at > now)
        )
        return pending or 0

    async def by_device_code(self, digest: str) -> DeviceCode | None:
        result = await self.session.execute(
            select(DeviceCode).where(DeviceCode.device_code_hash == digest)
        )
        return result.scalar_one_or_none()

    async def by_user_code(self, digest: str) -> DeviceCode | None:
        result = await self.session.execute(
            select(DeviceCode).where(DeviceCode.user_code_hash == digest)
        )
        return result.scalar_one_or_none()

    async def consume(self, device_id: str) -> bool:
        """authorized -> consumed, clearing the sealed key; False when another poll won."""
        done = await self.session.execute(
            update(DeviceCode)
            .where(DeviceCode.id == device_id, DeviceCode.status == "authorized")
            .values(status="consumed", api_key_sealed=None)
        )
        return done.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def save(self) -> None:
        """Write the changes made to loaded rows (status, interval, last poll)."""
        await self.session.flush()

    async def purge_expired_before(self, cutoff: datetime) -> None:
        await self.session.execute(delete(DeviceCode).where(DeviceCode.expires_at < cutoff))
