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


# The log's `error` values that are decisions on a call (docs/execution.md, "Audit").
DECISIONS = {
    "policy_denied": "denied",  # a rule of the key's policy refused it
    "approval_pending": "held",  # waiting for a person
    "approved": "approved",  # a person approved it: this row is the send
    "approval_rejected": "rejected",  # a person denied it
    "approval_expired": "expired",  # no one answered in time
    "approval_denied": "refused",  # the agent sent a rejected or expired call again
}


def decision_of(error: str | None) -> str:
    """allowed (no rule or approval stopped it: `outcome` says how it went), or the
    decision its `error` records."""
    return DECISIONS.get(error or "", "allowed")


class ExecutionOut(BaseModel):
    id: str
    integration: str
    endpoint: str
    status: int | None  # the upstream's HTTP status; None when no answer came
    error: str | None
    outcome: str
    duration_ms: int
    key_id: str | None
    decision: str  # allowed | denied | held | approved | rejected | expired | refused
    approval_id: str | None  # the held call's approval, on its decisions' rows
    decided_by: str | None  # "session:<email>" | "api_key:<prefix>" | "timeout"
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
            decision=decision_of(e.error),
            approval_id=e.approval_id,
            decided_by=e.decided_by,
            created_at=e.created_at,
        )


class ExecutionPage(BaseModel):
    executions: list[ExecutionOut]
    next_cursor: str | None
