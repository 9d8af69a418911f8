"""The execution log's queries: one user's rows, newest first, keyset-paginated by
(created_at, id) with an opaque cursor (the API and the dashboard's Activity page)."""

from __future__ import annotations

import base64
from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.executions.models import Execution
from skillgate.kit.text import has_control


def encode_cursor(e: Execution) -> str:
    return base64.urlsafe_b64encode(f"{e.created_at.isoformat()}|{e.id}".encode()).decode()


def decode_cursor(value: str) -> tuple[datetime, str] | None:
    """The (created_at, id) a cursor stands for; None when it is not one of ours."""
    try:
        at, ident = base64.urlsafe_b64decode(value.encode()).decode().split("|", 1)
        if has_control(ident):
            return None
        return datetime.fromisoformat(at), ident
    except (ValueError, UnicodeDecodeError):
        return None


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
        within: Collection[str] | None = None,
    ) -> tuple[Sequence[Execution], str | None]:
        """Up to `limit` of the user's executions, newest first, after `before`; and the
        cursor of the next page, None on the last. `within`: only these integrations (an
        API key's scopes), None for all."""
        stmt = select(Execution).where(Execution.user_id == user_id)
        if within is not None:
            stmt = stmt.where(Execution.integration.in_(sorted(within)))
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
        stmt = stmt.order_by(Execution.created_at.desc(), Execution.id.desc()).limit(limit + 1)
        rows = (await self.session.execute(stmt)).scalars().all()
        if len(rows) > limit:
            return rows[:limit], encode_cursor(rows[limit - 1])
        return rows, None
