"""The agent door's route table, from the services it serves."""

from __future__ import annotations

from skillgate.discovery.service import Discovery
from skillgate.doors.agent import discovery, execute, profile
from skillgate.doors.agent.router import Router
from skillgate.executor.service import Executor
from skillgate.users.plans import Plans


def agent_router(*, discovery_service: Discovery, plans: Plans, executor: Executor) -> Router:
    return Router(
        [
            *discovery.routes(discovery_service),
            *profile.routes(plans),
            *execute.routes(executor),
        ]
    )
