"""POST /v1/:integration/:endpoint: the hot path, a lean handler (Request only)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from skillgate.auth.deps import require_api_key
from skillgate.executor.service import Executor
from skillgate.http.state import get_state

router = APIRouter(prefix="/v1", tags=["execution"])


@router.post("/{integration}/{endpoint}")
async def execute(request: Request) -> Response:
    principal = await require_api_key(request)
    params = request.path_params
    outcome = await Executor(get_state(request)).run(
        principal, params["integration"], params["endpoint"], await request.body()
    )
    return Response(outcome.body, media_type="application/json", headers=outcome.headers)
