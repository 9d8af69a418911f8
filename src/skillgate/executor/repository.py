"""The queries of confirmation tokens, idempotency keys and approvals (executor.models)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.session import insert_new
from skillgate.executor.models import Approval, Confirmation, IdempotentCall


class ConfirmationRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert(self, row: Confirmation) -> None:
        self.session.add(row)
        await self.session.flush()

    async def redeem(self, token_hash: str, user_id: str, digest: str, now: datetime) -> bool:
        """Mark a live, unused token for this request used; False when none matched
        (the one statement makes a token single-use across instances)."""
        done = await self.session.execute(
            update(Confirmation)
            .where(
                Confirmation.token_hash == token_hash,
                Confirmation.user_id == user_id,
                Confirmation.digest == digest,
                Confirmation.used_at.is_(None),
                Confirmation.expires_at > now,
            )
            .values(used_at=now)
        )
        return done.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def find(self, token_hash: str, user_id: str) -> Confirmation | None:
        return await self.session.scalar(
            select(Confirmation).where(
                Confirmation.token_hash == token_hash, Confirmation.user_id == user_id
            )
        )

    async def purge_expired_before(self, cutoff: datetime) -> None:
        await self.session.execute(delete(Confirmation).where(Confirmation.expires_at < cutoff))


class IdempotencyRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def claim(self, row: IdempotentCall) -> bool:
        """Store a pending key; False when the user already has this key."""
        return await insert_new(self.session, row)

    async def find(self, user_id: str, key_hash: str) -> IdempotentCall | None:
        return await self.session.scalar(
            select(IdempotentCall)
            .where(IdempotentCall.user_id == user_id, IdempotentCall.key_hash == key_hash)
            .execution_options(populate_existing=True)
        )

    async def finish(
        self, user_id: str, key_hash: str, upstream_status: int, envelope: bytes
    ) -> None:
        await self.session.execute(
            update(IdempotentCall)
            .where(IdempotentCall.user_id == user_id, IdempotentCall.key_hash == key_hash)
            .values(state="done", upstream_status=upstream_status, envelope=envelope)
        )

    async def release(self, user_id: str, key_hash: str) -> None:
        await self.session.execute(
            delete(IdempotentCall).where(
                IdempotentCall.user_id == user_id,
                IdempotentCall.key_hash == key_hash,
                IdempotentCall.state == "pending",
            )
        )

    async def drop_expired(
        self, user_id: str, key_hash: str, now: datetime, abandoned: datetime
    ) -> None:
        """Forget the key when it expired, or when its first call has been pending since
        before `abandoned` (its process died mid-call)."""
        await self.session.execute(
            delete(IdempotentCall).where(
                IdempotentCall.user_id == user_id,
                IdempotentCall.key_hash == key_hash,
                or_(
                    IdempotentCall.expires_at <= now,
                    and_(IdempotentCall.state == "pending", IdempotentCall.created_at < abandoned),
                ),
            )
        )

    async def purge_expired_before(self, cutoff: datetime) -> None:
        await self.session.execute(delete(IdempotentCall).where(IdempotentCall.expires_at < cutoff))


class ApprovalRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def insert(self, row: Approval) -> None:
        self.session.add(row)
        await self.session.flush()

    async def get(self, approval_id: str, user_id: str) -> Approval | None:
        return await self.session.scalar(
            select(Approval).where(Approval.id == approval_id, Approval.user_id == user_id)
        )

    async def undelivered(self, key_id: str, digest: str) -> Approval | None:
        """The newest approval of this request whose outcome the agent has not had."""
        return await self.session.scalar(
            select(Approval)
            .where(
                Approval.key_id == key_id,
                Approval.digest == digest,
                Approval.delivered_at.is_(None),
            )
            .order_by(Approval.created_at.desc())
            .limit(1)
        )

    async def pending_for(self, user_id: str, now: datetime) -> list[Approval]:
        rows = await self.session.scalars(
            select(Approval)
            .where(
                Approval.user_id == user_id,
                Approval.state == "pending",
                Approval.expires_at > now,
            )
            .order_by(Approval.created_at.desc())
            .limit(100)
        )
        return list(rows)

    async def move(
        self, approval_id: str, user_id: str, state: str, now: datetime, **values: object
    ) -> bool:
        """pending -> `state`, when it is still pending and live: one conditional UPDATE,
        so two instances (or two clicks) cannot both decide it."""
        done = await self.session.execute(
            update(Approval)
            .where(
                Approval.id == approval_id,
                Approval.user_id == user_id,
                Approval.state == "pending",
                Approval.expires_at > now,
            )
            .values(state=state, **values)
        )
        return done.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def expire(self, user_id: str | None, now: datetime) -> list[Approval]:
        """The user's (None: every user's) pending approvals past their time, each moved
        to `expired` by a conditional UPDATE: only those this call moved (another
        instance may race)."""
        mine = () if user_id is None else (Approval.user_id == user_id,)
        overdue = await self.session.scalars(
            select(Approval)
            .where(*mine, Approval.state == "pending", Approval.expires_at <= now)
            .limit(500)
        )
        moved = []
        for row in list(overdue):
            done = await self.session.execute(
                update(Approval)
                .where(Approval.id == row.id, Approval.state == "pending")
                .values(state="expired", decided_at=row.expires_at)
            )
            if done.rowcount == 1:  # type: ignore[attr-defined]
                moved.append(row)
        return moved

    async def finish(self, approval_id: str, **values: object) -> None:
        await self.session.execute(
            update(Approval).where(Approval.id == approval_id).values(**values)
        )

    async def deliver(self, approval_id: str, now: datetime) -> bool:
        done = await self.session.execute(
            update(Approval)
            .where(Approval.id == approval_id, Approval.delivered_at.is_(None))
            .values(delivered_at=now)
        )
        return done.rowcount == 1  # type: ignore[attr-defined,no-any-return]
