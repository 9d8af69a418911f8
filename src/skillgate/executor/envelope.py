"""The execution envelope of DESIGN: `{"status","data"}` or `{"status","error"}`.

Also recognises failures reported inside a 2xx body (Slack's `"ok": false`,
GraphQL `errors`) and upstream rate limiting, whose wait goes in `retry_after`.
"""

from __future__ import annotations

import time
from typing import Any

from skillgate.kit.outbound import UpstreamResponse
from skillgate.kit.upstream import body_failed


def retry_after(response: UpstreamResponse) -> int | None:
    """Seconds to wait when the upstream rate-limited us; None otherwise."""
    h = response.headers
    limited = response.status == 429 or (
        response.status == 403 and h.get("x-ratelimit-remaining") == "0"
    )
    if not limited:
        return None
    value = h.get("retry-after")
    if value and value.strip().isdigit():
        return max(1, int(value.strip()))
    reset = h.get("x-ratelimit-reset")
    if reset and reset.strip().isdigit():
        return max(1, int(reset.strip()) - int(time.time()))
    return 60


def _error_body(response: UpstreamResponse) -> Any:
    """The upstream's error body; an object carrying `message` when it is not JSON."""
    if response.body is None:
        return {"message": f"The upstream service answered {response.status} with no body."}
    if isinstance(response.body, str):  # not JSON: keep the raw text as the message
        return {"message": response.body}
    return response.body


def parts(
    response: UpstreamResponse, body_errors: str | None, reconnect_url: str | None = None
) -> tuple[dict[str, Any], bool]:
    """The envelope as a dict (to shape before it is written) and whether it is an error.
    An upstream 401 refused the stored credentials: the envelope then carries
    `action_url`, where to reconnect."""
    failed = response.status >= 400 or body_failed(body_errors, response.body)
    data: dict[str, Any] = {"status": response.status}
    if failed:
        data["error"] = _error_body(response)
        if response.status == 401 and reconnect_url:
            data["action_url"] = reconnect_url
        wait = retry_after(response)
        if wait is not None:
            data["retry_after"] = wait
    else:
        data["data"] = response.body
    return data, failed
