"""What an agent asks about connections: start a connect request and follow it
(`svc connect`), and list the caller's connections. Storing or removing a
connection also takes a session or an access token: the account door serves it."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.connections.schemas import (
    ConnectBody,
    ConnectionList,
    ConnectRequestOut,
    ConnectStarted,
)
from skillgate.connections.scoped import ScopedConnections
from skillgate.db.session import unit_of_work
from skillgate.doors.agent.router import Call, Reply, Route
from skillgate.doors.agent.schemas import dump, parse, schema_of


def routes(
    connections: ScopedConnections, sessions: async_sessionmaker[AsyncSession]
) -> tuple[Route, ...]:
    async def start(call: Call) -> Reply:
        body = parse(await call.body(), ConnectBody)
        async with unit_of_work(sessions) as db:
            started = await connections.open_request(
                db, call.principal, body.integration, body.variables
            )
        return 201, dump(started), None

    async def status(call: Call) -> Reply:
        request_id = call.path["request_id"]  # checked by the door (kit.text)
        async with unit_of_work(sessions) as db:
            found = await connections.get_request(db, call.principal, request_id)
        return 200, dump(found, exclude_none=True), None

    async def listing(call: Call) -> Reply:
        async with unit_of_work(sessions) as db:
            return 200, dump(await connections.list_connections(db, call.principal)), None

    return (
        Route(
            "POST", "/v1/connect", start, "Start a connect request (svc connect)", "connections",
            status=201, request_body=schema_of(ConnectBody, "validation"),
            operation_id="start_connect",
            response=schema_of(ConnectStarted),
        ),
        # /v1/{integration}/{endpoint} (POST) shares the shape: other methods are 405 here.
        Route(
            "GET", "/v1/connect/{request_id}", status, "A connect request's status",
            "connections", response=schema_of(ConnectRequestOut),
            operation_id="get_connect_request",
        ),
        Route(
            "GET", "/v1/connections", listing, "The caller's connections (no credentials)",
            "connections", response=schema_of(ConnectionList), operation_id="list_connections",
        ),
    )  # fmt: skip
