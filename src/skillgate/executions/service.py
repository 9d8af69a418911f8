"""The execution log service: pages of a user's own log, for the API and the dashboard.

One instance per server (built in skillgate.gateway). A page first flushes this
instance's buffered rows (the writer batches them), so a caller reads its own
writes; the cursor is opaque (executions.repository) and a bad one is a 400
worded for the caller (an API client or a person on the Activity page).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from datetime import UTC, datetime, timedelta

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

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
# The export (JSON lines): rows read per query, the default and the longest range.
EXPORT_BATCH = 500
EXPORT_DAYS = 30
EXPORT_DAYS_MAX = 366
JSONL = "application/x-ndjson"
WHEN_MAX = 40  # the longest `since`/`until` read


def parse_when(name: str, value: str | None) -> datetime | None:
    """`value` (an ISO 8601 date or date-time; UTC when it names no offset) as an aware
    datetime; BadRequest naming `name` else."""
    if value is None or value == "":
        return None
    try:
        when = datetime.fromisoformat(value[:WHEN_MAX])
    except ValueError:
        raise BadRequest(
            f"{name}: an ISO 8601 date or date-time (2026-11-01 or 2026-11-01T12:00:00Z)."
        ) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def export_range(since: str | None, until: str | None, now: datetime) -> tuple[datetime, datetime]:
    """[since, until): by default the last EXPORT_DAYS days; at most EXPORT_DAYS_MAX."""
    end = parse_when("until", until) or now
    start = parse_when("since", since) or end - timedelta(days=EXPORT_DAYS)
    if start >= end:
        raise BadRequest("since: must be before until.")
    if end - start > timedelta(days=EXPORT_DAYS_MAX):
        raise BadRequest(f"since: the range is at most {EXPORT_DAYS_MAX} days.")
    return start, end


class ExecutionLog:
    def __init__(
        self, writer: ExecutionWriter, sessionmaker: async_sessionmaker[AsyncSession]
    ) -> None:
        self.writer = writer
        self.sessionmaker = sessionmaker  # the export's short sessions

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

    async def export(
        self,
        user_id: str,
        *,
        since: datetime,
        until: datetime,
        within: Collection[str] | None = None,
    ) -> AsyncIterator[bytes]:
        """The user's rows in [since, until) as JSON lines (one ExecutionOut per line),
        oldest first, EXPORT_BATCH rows per query, each query in its own short session
        (no transaction stays open while the client reads)."""
        await self.writer.flush()
        after: tuple[datetime, str] | None = None
        while True:
            async with self.sessionmaker() as db:
                rows = await ExecutionRepository(db).between(
                    user_id, since=since, until=until, limit=EXPORT_BATCH, after=after,
                    within=within,
                )  # fmt: skip
            if not rows:
                return
            yield b"".join(
                orjson.dumps(ExecutionOut.of(e).model_dump(mode="json")) + b"\n" for e in rows
            )
            if len(rows) < EXPORT_BATCH:
                return
            after = (rows[-1].created_at, rows[-1].id)

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
