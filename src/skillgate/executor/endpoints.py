"""POST /v1/:integration/:endpoint (raw ASGI, see http.fastpath). Bearer API key only."""

from __future__ import annotations

from starlette.types import Receive

from skillgate.executor.service import Executor
from skillgate.http.fastpath import FastRoute, Reply, read_body
from skillgate.http.state import AppState
from skillgate.kit.principal import Principal


async def execute(
    state: AppState, principal: Principal, params: tuple[str, ...], receive: Receive
) -> Reply:
    body = await read_body(receive)
    outcome = await Executor(state).run(principal, params[0], params[1], body)
    return 200, outcome.body, outcome.headers


ROUTES = (
    FastRoute(
        "POST",
        "/v1/{integration}/{endpoint}",
        execute,
        "Execute an endpoint of a connected integration: 200 {status, data} or {status, error}",
        "execution",
        # /v1/connections/{integration} and /v1/connect/{request_id} share the shape.
        owns=False,
        request_body={
            "type": "object",
            "properties": {
                "params": {"type": "object"},
                # the text typed for string parameters (docs/execution.md)
                "as_typed": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "additionalProperties": False,
        },
    ),
)
