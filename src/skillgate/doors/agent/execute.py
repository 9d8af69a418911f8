"""POST /v1/:integration/:endpoint {"params": {...}, "as_typed"?: {...}}: one agent call."""

from __future__ import annotations

from typing import Any

from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.errors import BadRequest
from skillgate.executor import options
from skillgate.executor.service import Executor
from skillgate.http.body import json_object

_USAGE = '{"params": {...}}'
_FIELDS = frozenset({"params", "as_typed", *options.NAMES})
REQUEST_BODY = {
    "type": "object",
    "properties": {
        "params": {
            "type": "object",
            "additionalProperties": True,  # the endpoint's own parameters (GET /v1/skills/...)
            "description": "The endpoint's parameters by name (its documentation lists them).",
        },
        # the text typed for string parameters (docs/execution.md)
        "as_typed": {"type": "object", "additionalProperties": {"type": "string"}},
        **options.SCHEMA,
    },
    "additionalProperties": False,
}


_OBJECT: dict[str, Any] = {"type": "object", "additionalProperties": True}
# The answer's shapes (docs/execution.md): {status, data} or {status, error}, with
# `pagination`, `truncated`/`bytes`/`omitted`, `retry_after` as options add them; a dry
# run's {dry_run, request, destructive, confirmation_required}.
ANSWER: dict[str, Any] = {
    "type": "object",
    "additionalProperties": True,
    "properties": {
        "status": {"type": "integer", "description": "The upstream HTTP status."},
        "data": {
            "description": "The upstream body: JSON as JSON (an object, an array, ...), "
            "anything else as a string.",
            "additionalProperties": True,
        },
        "error": {**_OBJECT, "description": "The upstream error body (at least `message`)."},
        "retry_after": {"type": "integer"},
        "pagination": _OBJECT,
        "truncated": {"type": "boolean"},
        "bytes": {"type": "integer"},
        "omitted": {"type": "integer"},
        "dry_run": {"type": "boolean"},
        "request": {**_OBJECT, "description": "A dry run: the request it would send."},
        "destructive": {"type": "boolean"},
        "confirmation_required": {"type": "boolean"},
    },
}
IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A repeat with the same key is answered from storage (docs/execution.md).",
    "schema": options.KEY_SCHEMA,
}


def routes(executor: Executor) -> tuple[Route, ...]:
    cap = executor.policy.max_bytes

    async def execute(call: Call) -> Reply:
        data = json_object(await call.body(), _USAGE)
        if not _FIELDS.issuperset(data):
            unknown = sorted(set(data) - _FIELDS)[0]
            raise BadRequest(f"Unknown field {unknown!r}: send {_USAGE}.")
        path = call.path
        outcome = await executor.run(
            call.principal,
            path["integration"],
            path["endpoint"],
            data.get("params"),
            data.get("as_typed"),
            options.parse(data, call.header(b"idempotency-key"), cap),
        )
        return 200, outcome.body, outcome.headers

    return (
        Route(
            "POST",
            "/v1/{integration}/{endpoint}",
            execute,
            "Execute an endpoint of a connected integration: 200 {status, data} or {status, error}",
            "execution",
            # /v1/connections/{integration} and /v1/connect/{request_id} share the shape.
            owns=False,
            request_body=REQUEST_BODY,
            response=ANSWER,
            query=(IDEMPOTENCY_KEY,),
            operation_id="execute_endpoint",
        ),
    )
