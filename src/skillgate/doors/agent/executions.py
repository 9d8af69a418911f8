"""GET /v1/executions: the caller's own execution log, newest first, keyset-paginated."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.catalog.models import SLUG_MAX
from skillgate.db.session import unit_of_work
from skillgate.doors.agent.query import Query, described
from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.doors.agent.schemas import dump, schema_of
from skillgate.executions.schemas import ExecutionPage
from skillgate.executions.service import API_CURSOR_MAX, API_PAGE, API_PAGE_MAX, ExecutionLog

OUTCOMES = ("success", "error")
QUERY = (
    described(
        "limit", {"type": "integer", "minimum": 1, "maximum": API_PAGE_MAX, "default": API_PAGE}
    ),
    described("cursor", {"type": "string", "maxLength": API_CURSOR_MAX}),
    described("integration", {"type": "string", "maxLength": SLUG_MAX}),
    described("outcome", {"type": "string", "enum": list(OUTCOMES)}),
)


def routes(log: ExecutionLog, sessions: async_sessionmaker[AsyncSession]) -> tuple[Route, ...]:
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
            "GET", "/v1/executions", list_executions, "The caller's execution log",
            "executions", query=QUERY, response=schema_of(ExecutionPage),
            operation_id="list_executions",
        ),
    )  # fmt: skip
