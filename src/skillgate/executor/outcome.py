"""What one execution answers: the envelope bytes, the upstream status, headers."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Outcome:
    body: bytes
    upstream_status: int  # 0 when no upstream was called (a dry run)
    headers: dict[str, str]
    failed: bool = False  # the envelope reports an error (`{status, error}`)
    log_error: str | None = None  # what the execution log records as the error
