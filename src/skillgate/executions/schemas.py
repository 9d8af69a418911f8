"""The execution log's JSON (GET /v1/executions): what ran, never parameters or tokens."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from skillgate.executions.models import Execution


class ExecutionOut(BaseModel):
    id: str
    integration: str
    endpoint: str
    status: int | None  # the upstream's HTTP status; None when no answer came
    error: str | None
    duration_ms: int
    key_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, e: Execution) -> ExecutionOut:
        return cls(
            id=e.id,
            integration=e.integration,
            endpoint=e.endpoint,
            status=e.upstream_status,
            error=e.error,
            duration_ms=e.duration_ms,
            key_id=e.key_id,
            created_at=e.created_at,
        )


class ExecutionPage(BaseModel):
    executions: list[ExecutionOut]
    next_cursor: str | None
