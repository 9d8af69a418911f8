"""The execution log's JSON (GET /v1/executions): what ran, never parameters or tokens."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from skillgate.executions.models import Execution


def outcome_of(status: int | None, error: str | None) -> str:
    """success | error | dry_run (nothing sent) | replayed (an Idempotency-Key repeat)."""
    if error == "dry_run":
        return "dry_run"
    if (error is None or error == "replayed") and status is not None and 200 <= status < 400:
        return "replayed" if error else "success"
    return "error"


class ExecutionOut(BaseModel):
    id: str
    integration: str
    endpoint: str
    status: int | None  # the upstream's HTTP status; None when no answer came
    error: str | None
    outcome: str
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
            outcome=outcome_of(e.upstream_status, e.error),
            duration_ms=e.duration_ms,
            key_id=e.key_id,
            created_at=e.created_at,
        )


class ExecutionPage(BaseModel):
    executions: list[ExecutionOut]
    next_cursor: str | None
