"""GET /v1/executions: the caller's own execution log, newest first, keyset-paginated."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.catalog.models import SLUG_MAX
from skillgate.db.session import unit_of_work
from skillgate.doors.agent.query import Query, described
from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.doors.agent.schemas import dump, schema_of
from skillgate.executions.schemas import ExecutionPage
from skillgate.executions.service import ExecutionLog

OUTCOMES = ("success", "error")
QUERY = (
    described("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 50}),
    described("cursor", {"type": "string", "maxLength": 200}),
    described("integration", {"type": "string", "maxLength": SLUG_MAX}),
    described("outcome", {"type": "string", "enum": list(OUTCOMES)}),
)


def routes(log: ExecutionLog, sessions: async_sessionmaker[AsyncSession]) -> tuple[Route, ...]:
    async def list_executions(call: Call) -> Reply:
        query = Query(call.query)
        limit = query.integer("limit", 50, 1, 100)
        cursor = query.text("cursor", 200)
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
