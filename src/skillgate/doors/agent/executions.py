"""GET /v1/executions: the caller's own execution log, newest first, keyset-paginated."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.api_keys.scopes import visible_slugs
from skillgate.catalog.models import SLUG_MAX
from skillgate.db.base import utcnow
from skillgate.db.session import unit_of_work
from skillgate.doors.agent.query import Query, described
from skillgate.doors.agent.router import Call, Reply, Route, Stream
from skillgate.doors.agent.schemas import dump, schema_of
from skillgate.executions.schemas import ExecutionPage
from skillgate.executions.service import (
    API_CURSOR_MAX,
    API_PAGE,
    API_PAGE_MAX,
    JSONL,
    WHEN_MAX,
    ExecutionLog,
    export_range,
)
from skillgate.executor.approvals import Approvals

OUTCOMES = ("success", "error")
QUERY = (
    described(
        "limit", {"type": "integer", "minimum": 1, "maximum": API_PAGE_MAX, "default": API_PAGE}
    ),
    described("cursor", {"type": "string", "maxLength": API_CURSOR_MAX}),
    described("integration", {"type": "string", "maxLength": SLUG_MAX}),
    described("outcome", {"type": "string", "enum": list(OUTCOMES)}),
)


EXPORT_QUERY = (
    described("format", {"type": "string", "enum": ["jsonl"], "default": "jsonl"}),
    described("since", {"type": "string", "format": "date-time"}),
    described("until", {"type": "string", "format": "date-time"}),
)


def routes(
    log: ExecutionLog, sessions: async_sessionmaker[AsyncSession], approvals: Approvals
) -> tuple[Route, ...]:
    async def export_executions(call: Call) -> Reply:
        """The caller's rows in [since, until) as JSON lines, streamed (the rows its key
        may see); approvals past their time are logged as expired first."""
        query = Query(call.query)
        query.choice("format", ("jsonl",))
        since, until = query.text("since", WHEN_MAX), query.text("until", WHEN_MAX)
        export_range(since, until, utcnow())  # 400 naming the field before anything else
        await approvals.expire_overdue(call.principal.user_id)
        start, end = export_range(since, until, utcnow())  # "now" includes those rows
        chunks = log.export(
            call.principal.user_id, since=start, until=end,
            within=visible_slugs(call.principal),
        )  # fmt: skip
        disposition = f'attachment; filename="executions-{start:%Y%m%d}-{end:%Y%m%d}.jsonl"'
        return 200, Stream(chunks, JSONL), {"Content-Disposition": disposition}

    async def list_executions(call: Call) -> Reply:
        query = Query(call.query)
        limit = query.integer("limit", API_PAGE, 1, API_PAGE_MAX)
        cursor = query.text("cursor", API_CURSOR_MAX)
        integration = query.text("integration", SLUG_MAX)
        outcome = query.choice("outcome", OUTCOMES)
        async with unit_of_work(sessions) as db:
            page = await log.api_page(
                db,
                call.principal,
                limit=limit,
                cursor=cursor,
                integration=integration,
                outcome=outcome,
            )
        return 200, dump(page), None

    return (
        Route(
            "GET", "/v1/executions/export", export_executions,
            "The caller's execution log as JSON lines", "executions", query=EXPORT_QUERY,
            response={"type": "string", "description": "JSON lines, one execution each"},
            operation_id="export_executions",
        ),
        Route(
            "GET", "/v1/executions", list_executions, "The caller's execution log",
            "executions", query=QUERY, response=schema_of(ExecutionPage),
            operation_id="list_executions",
        ),
    )  # fmt: skip
