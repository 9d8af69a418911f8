"""The execution log service: pages of a user's own log, for the API and the dashboard.

One instance per server (built in skillgate.gateway). A page first flushes this
instance's buffered rows (the writer batches them), so a caller reads its own
writes; the cursor is opaque (executions.repository) and a bad one is a 400
worded for the caller (an API client or a person on the Activity page).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys.scopes import require_access, visible_slugs
from skillgate.errors import BadRequest
from skillgate.executions.models import Execution
from skillgate.executions.repository import DayCount, ExecutionRepository, decode_cursor
from skillgate.executions.schemas import ExecutionOut, ExecutionPage
from skillgate.executions.writer import ExecutionWriter
from skillgate.kit.principal import Principal

API_BAD_CURSOR = "cursor: not a cursor returned by this endpoint."
# GET /v1/executions' page: its size by default and at most, the longest cursor.
API_PAGE = 50
API_PAGE_MAX = 100
API_CURSOR_MAX = 200


class ExecutionLog:
    def __init__(self, writer: ExecutionWriter) -> None:
        self.writer = writer

    async def api_page(
        self,
        db: AsyncSession,
        principal: Principal,
        *,
        limit: int = API_PAGE,
        cursor: str | None = None,
        integration: str | None = None,
        outcome: str | None = None,
    ) -> ExecutionPage:
        """GET /v1/executions: the caller's rows its API key may see (`read` on a named
        integration), newest first."""
        if integration:
            require_access(principal, integration, "read")
        rows, next_cursor = await self.page(
            db,
            principal.user_id,
            limit=limit,
            cursor=cursor,
            bad_cursor=API_BAD_CURSOR,
            integration=integration,
            outcome=outcome,
            within=visible_slugs(principal),
        )
        return ExecutionPage(executions=[ExecutionOut.of(e) for e in rows], next_cursor=next_cursor)

    async def page(
        self,
        db: AsyncSession,
        user_id: str,
        *,
        limit: int,
        cursor: str | None,
        bad_cursor: str,
        integration: str | None = None,
        outcome: str | None = None,
        within: Collection[str] | None = None,
    ) -> tuple[Sequence[Execution], str | None]:
        """Up to `limit` rows after `cursor` and the next page's cursor (None on the last);
        a cursor this log did not hand out is BadRequest(`bad_cursor`)."""
        # Read your own writes: rows this instance still holds go in first.
        await self.writer.flush()
        before = decode_cursor(cursor) if cursor else None
        if cursor and before is None:
            raise BadRequest(bad_cursor)
        return await ExecutionRepository(db).page(
            user_id,
            limit=limit,
            before=before,
            integration=integration,
            outcome=outcome,
            within=within,
        )

    async def daily_counts(
        self,
        db: AsyncSession,
        user_id: str,
        *,
        since: datetime,
        integration: str | None = None,
        outcome: str | None = None,
    ) -> list[DayCount]:
        """Calls per UTC day, integration and outcome from `since` on (the Activity chart)."""
        return await ExecutionRepository(db).daily_counts(
            user_id, since=since, integration=integration, outcome=outcome
        )
