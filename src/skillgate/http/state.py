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
    from skillgate.connections.cache import CredentialCache
    from skillgate.connections.refresh import Refresher
    from skillgate.connections.status import StatusCache
    from skillgate.discovery.rendered import RenderedCatalog
    from skillgate.executions.writer import ExecutionWriter
    from skillgate.kit.vault import Vault
    from skillgate.metrics import Metrics
    from skillgate.users.limiter import PlanLimiter
    from skillgate.users.plans import PlanLimits


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
    vault: Vault
    credentials: CredentialCache
    refresher: Refresher
    limiter: PlanLimiter
    executions: ExecutionWriter
    limits: dict[str, PlanLimits]
    metrics: Metrics

    redis: Any = None
    extras: dict[str, Any] = field(default_factory=dict)
    # Each integration's upstream base URL, read from the environment once (see
    # Settings.upstream_base_url): every execution asks.
    base_urls: dict[str, str] = field(default_factory=dict)

    def base_url(self, slug: str, catalog_base_url: str) -> str:
        found = self.base_urls.get(slug)
        if found is None:
            found = self.base_urls[slug] = self.settings.upstream_base_url(slug, catalog_base_url)
        return found

    def limits_for(self, plan: str) -> PlanLimits:

        return self.limits.get(plan, self.limits["free"])


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.sg
    return state


async def _state_dependency(request: Request) -> AppState:
    # async on purpose: FastAPI runs a plain `def` dependency in a worker thread,
    # which cost more than the rest of a discovery request together.
    return get_state(request)


State = Annotated[AppState, Depends(_state_dependency)]
