"""GET /v1/executions: the caller's own execution log, newest first, keyset-paginated."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from skillgate.auth.deps import ApiKeyAuth
from skillgate.db.session import DB
from skillgate.executions.schemas import ExecutionPage
from skillgate.executions.service import ExecutionLog
from skillgate.http.body import JSONRoute
from skillgate.http.provide import provided
from skillgate.kit.text import Text

router = APIRouter(prefix="/v1", tags=["executions"], route_class=JSONRoute)

Log = Annotated[ExecutionLog, provided(ExecutionLog)]


@router.get("/executions")
async def list_executions(
    principal: ApiKeyAuth,
    db: DB,
    log: Log,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    cursor: Annotated[Text | None, Query(max_length=200)] = None,
    integration: Annotated[Text | None, Query(max_length=40)] = None,
    outcome: Annotated[Literal["success", "error"] | None, Query()] = None,
) -> ExecutionPage:
    return await log.api_page(
        db, principal, limit=limit, cursor=cursor, integration=integration, outcome=outcome
    )
