"""What a running app holds, typed: one object on `app.state.sg`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from skillgate.settings import Settings

if TYPE_CHECKING:
    from skillgate.api_keys.usage import UsageRecorder
    from skillgate.api_keys.verifier import KeyVerifier
    from skillgate.auth.tokens import TokenSigner
    from skillgate.catalog.loader import Catalog
    from skillgate.connections.status import StatusCache
    from skillgate.discovery.rendered import RenderedCatalog


@dataclass
class AppState:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    catalog: Catalog
    verifier: KeyVerifier
    usage: UsageRecorder
    signer: TokenSigner
    pepper: bytes
    rendered: RenderedCatalog
    statuses: StatusCache
    extras: dict[str, Any] = field(default_factory=dict)


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.sg
    return state


async def _state_dependency(request: Request) -> AppState:
    # async on purpose: FastAPI runs a plain `def` dependency in a worker thread,
    # which cost more than the rest of a discovery request together.
    return get_state(request)


State = Annotated[AppState, Depends(_state_dependency)]
