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

    @classmethod
    def answered(
        cls,
        body: bytes,
        upstream_status: int,
        limit_headers: dict[str, str],
        failed: bool,
        log_error: str | None = None,
    ) -> Outcome:
        """The answer to an upstream's response (status 0: a gateway error stopped it):
        `X-Upstream-Status` beside the rate limit's headers; a failure reported in a 2xx
        body (Slack's `ok: false`) logged as `upstream_body_error`."""
        headers = (
            {"X-Upstream-Status": str(upstream_status), **limit_headers}
            if upstream_status
            else dict(limit_headers)
        )
        if log_error is None and failed and upstream_status < 400:
            log_error = "upstream_body_error"
        return cls(body, upstream_status, headers, failed, log_error)
