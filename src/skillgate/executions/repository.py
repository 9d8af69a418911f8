from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.executions.models import Execution


class ExecutionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def page(
        self,
        user_id: str,
        *,
        limit: int,
        before: tuple[datetime, str] | None = None,
        integration: str | None = None,
        outcome: str | None = None,
    ) -> Sequence[Execution]:
        """The user's executions, newest first, keyset-paginated by (created_at, id)."""
        stmt = select(Execution).where(Execution.user_id == user_id)
        if before is not None:
            at, ident = before
            stmt = stmt.where(
                or_(
                    Execution.created_at < at,
                    and_(Execution.created_at == at, Execution.id < ident),
                )
            )
        if integration:
            stmt = stmt.where(Execution.integration == integration)
        if outcome == "success":
            stmt = stmt.where(
                Execution.error.is_(None),
                Execution.upstream_status >= 200,
                Execution.upstream_status < 400,
            )
        elif outcome == "error":
            stmt = stmt.where(or_(Execution.error.is_not(None), Execution.upstream_status >= 400))
        stmt = stmt.order_by(Execution.created_at.desc(), Execution.id.desc()).limit(limit)
        result = await self.session.execute(stmt)
        return result.scalars().all()
