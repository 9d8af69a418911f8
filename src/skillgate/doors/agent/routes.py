"""The agent door's route table, from the services it serves."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.connections.scoped import ScopedConnections
from skillgate.discovery.service import Discovery
from skillgate.doors.agent import (
    approvals,
    connections,
    discovery,
    execute,
    executions,
    profile,
)
from skillgate.doors.agent.router import Router
from skillgate.executions.service import ExecutionLog
from skillgate.executor.service import Executor
from skillgate.users.plans import Plans


def agent_router(
    *,
    discovery_service: Discovery,
    plans: Plans,
    executor: Executor,
    connections_service: ScopedConnections,
    log: ExecutionLog,
    sessions: async_sessionmaker[AsyncSession],
) -> Router:
    return Router(
        [
            *discovery.routes(discovery_service),
            *profile.routes(plans),
            *connections.routes(connections_service, sessions),
            *executions.routes(log, sessions, executor.approvals),
            *approvals.routes(executor),
            *execute.routes(executor),  # last: its pattern is the widest
        ]
    )
