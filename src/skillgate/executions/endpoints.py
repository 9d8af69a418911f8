"""GET /v1/executions: the caller's own execution log, newest first, keyset-paginated."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from skillgate.api_keys.scopes import require_access, visible_slugs
from skillgate.auth.deps import ApiKeyAuth
from skillgate.db.session import DB
from skillgate.errors import BadRequest
from skillgate.executions.models import Execution
from skillgate.executions.repository import ExecutionRepository, decode_cursor
from skillgate.http.body import JSONRoute
from skillgate.http.state import State
from skillgate.kit.text import Text

router = APIRouter(prefix="/v1", tags=["executions"], route_class=JSONRoute)


def execution_doc(e: Execution) -> dict[str, Any]:
    return {
        "id": e.id,
        "integration": e.integration,
        "endpoint": e.endpoint,
        "status": e.upstream_status,
        "error": e.error,
        "duration_ms": e.duration_ms,
        "key_id": e.key_id,
        "created_at": e.created_at,
    }


@router.get("/executions")
async def list_executions(
    principal: ApiKeyAuth,
    db: DB,
    state: State,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    cursor: Annotated[Text | None, Query(max_length=200)] = None,
    integration: Annotated[Text | None, Query(max_length=40)] = None,
    outcome: Annotated[Literal["success", "error"] | None, Query()] = None,
) -> dict[str, Any]:
    if integration:
        require_access(principal, integration, "read")
    # Read your own writes: rows this instance still holds go in first.
    await state.executions.flush()
    before = decode_cursor(cursor) if cursor else None
    if cursor and before is None:
        raise BadRequest("cursor: not a cursor returned by this endpoint.")
    rows, next_cursor = await ExecutionRepository(db).page(
        principal.user_id,
        limit=limit,
        before=before,
        integration=integration,
        outcome=outcome,
        within=visible_slugs(principal),
    )
    return {"executions": [execution_doc(e) for e in rows], "next_cursor": next_cursor}
