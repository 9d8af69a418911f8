"""Held calls (docs/execution.md, "Approvals"):

    GET  /v1/approvals/{id}[?wait=N]   the caller key's own approval; with `wait`
                                       (seconds, at most MAX_WAIT) answered when it is
                                       decided or the wait is over
    POST /v1/approvals/{id}/approve    a person's key with the `approve` scope (not the
    POST /v1/approvals/{id}/deny       key that made the call) decides; `svc approve`

Another user's approval, or another key's for GET, is 404.
"""

from __future__ import annotations

import orjson

from skillgate.doors.agent.query import Query, described
from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.executor.approvals import MAX_WAIT, NO_WAIT
from skillgate.executor.service import Executor

QUERY = (
    described(
        "wait", {"type": "integer", "minimum": NO_WAIT, "maximum": MAX_WAIT, "default": NO_WAIT}
    ),
)


def routes(executor: Executor) -> tuple[Route, ...]:
    approvals = executor.approvals

    async def get_approval(call: Call) -> Reply:
        wait = Query(call.query).integer("wait", NO_WAIT, NO_WAIT, MAX_WAIT)
        shown = await approvals.status(call.principal, call.path["approval_id"], wait)
        return 200, orjson.dumps(shown), None

    async def approve(call: Call) -> Reply:
        shown = await approvals.decide(call.principal, call.path["approval_id"], True)
        return 200, orjson.dumps(shown), None

    async def deny(call: Call) -> Reply:
        shown = await approvals.decide(call.principal, call.path["approval_id"], False)
        return 200, orjson.dumps(shown), None

    path = "/v1/approvals/{approval_id}"
    return (
        Route("GET", path, get_approval, "A held call's approval", "approvals", query=QUERY,
              operation_id="get_approval"),
        Route("POST", path + "/approve", approve, "Approve a held call (an `approve` key)",
              "approvals", operation_id="approve_call"),
        Route("POST", path + "/deny", deny, "Deny a held call (an `approve` key)",
              "approvals", operation_id="deny_call"),
    )  # fmt: skip
