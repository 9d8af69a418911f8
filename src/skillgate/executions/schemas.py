"""The execution log's JSON (GET /v1/executions): what ran, never parameters or tokens."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from skillgate.executions.models import Execution


def outcome_of(status: int | None, error: str | None) -> str:
    """success | error | dry_run (nothing sent) | replayed (a stored answer again: an
    Idempotency-Key repeat, an approved call's answer delivered). A held call sent when a
    person approved it (`approved`) is judged by its status, as a plain call."""
    if error == "dry_run":
        return "dry_run"
    stored = error in ("replayed", "approved")
    if (error is None or stored) and status is not None and 200 <= status < 400:
        return "replayed" if error == "replayed" else "success"
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
