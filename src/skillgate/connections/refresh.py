"""Token refresh: proactive (expiry within 5 minutes) or after an upstream 401.

Single-flight per connection across coroutines, workers and instances: a
process lock, then Redis (when configured), a PostgreSQL row lock, or a file
lock on SQLite. Under the lock the credentials are re-read: if another
process already refreshed, its token is used. A rotated refresh token is
stored in the same transaction, a short one of the refresher's own
(`unit_of_work`: not the request's), and this instance's cached credentials are
dropped once it commits (`on_commit`). `invalid_grant` marks the connection for
reconnection (401 `token_expired`); a provider 5xx or network error changes
nothing (502).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.catalog.models import Integration
from skillgate.connections import oauth
from skillgate.connections.credentials import Credentials
from skillgate.connections.repository import ConnectionRepository
from skillgate.connections.stored import ActiveConnection, open_credentials, seal_credentials
from skillgate.db.base import utcnow
from skillgate.db.session import on_commit, unit_of_work
from skillgate.errors import TokenExpired, UpstreamUnavailable
from skillgate.kit.locks import KeyedLock, file_lock, redis_lock
from skillgate.kit.outbound import Outbound
from skillgate.kit.public import PublicUrls
from skillgate.kit.vault import Vault
from skillgate.settings import Settings

log = structlog.get_logger(__name__)


class Refresher:
    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        vault: Vault,
        outbound: Outbound,
        redis: Any,  # a Redis client, or None
        on_change: Callable[[str, str], None],
        public: PublicUrls,
    ) -> None:
        self.settings = settings
        self.public = public  # reconnect links, for the request being served
        self.sessionmaker = sessionmaker
        self.vault = vault
        self.outbound = outbound
        self.redis = redis
        self.on_change = on_change  # (user_id, integration) -> drop cached credentials
        self._local = KeyedLock()
        self.refreshes = 0  # token requests made by this process

    @contextlib.asynccontextmanager
    async def _cross_process(self, connection_id: str) -> AsyncIterator[None]:
        if self.redis is not None:
            async with redis_lock(self.redis, f"sg:lock:refresh:{connection_id}"):
                yield
        elif self.settings.is_sqlite:
            async with file_lock(self.settings.data_dir / ".skillgate-locks", connection_id):
                yield
        else:
            yield  # PostgreSQL: the row lock below

    async def refresh(
        self, integration: Integration, active: ActiveConnection, failed_token: str | None
    ) -> Credentials:
        """Fresh credentials for `active` (maybe refreshed by someone else meanwhile)."""
        app = oauth.oauth_app(self.settings, integration)
        async with self._local.hold(active.id), self._cross_process(active.id):
            async with unit_of_work(self.sessionmaker) as session:
                row = await ConnectionRepository(session).get_for_update(active.id)
                if row is None:
                    raise TokenExpired(
                        f"The {integration.name} connection was removed; connect it again.",
                        action_url=self.public.integration_page(integration.slug),
                    )
                current = open_credentials(self.vault, row)
                if current.access_token != failed_token and not current.expires_soon():
                    return current  # refreshed by another request meanwhile
                if app is None or not current.refresh_token:
                    raise TokenExpired(
                        f"The {integration.name} token expired and cannot be refreshed "
                        "here; reconnect it.",
                        action_url=self.public.integration_page(integration.slug),
                    )
                try:
                    self.refreshes += 1
                    fresh: Credentials | None = await oauth.refresh(
                        self.outbound, app, current.refresh_token
                    )
                except oauth.OAuthError as exc:
                    if not exc.rejected:
                        raise UpstreamUnavailable(
                            f"{integration.name} could not refresh the token right now; "
                            "retry shortly."
                        ) from None
                    # Refused (invalid_grant): remember it; commit, then answer.
                    fresh = None
                    row.status = "reconnect_required"
                    row.updated_at = utcnow()
                    log.info("refresh refused", integration=integration.slug, connection=row.id)
                if fresh is not None:
                    seal_credentials(self.vault, row, fresh)
                await session.flush()
                user_id, slug = row.user_id, row.integration
                on_commit(session, lambda: self.on_change(user_id, slug))
            if fresh is None:
                raise TokenExpired(
                    f"{integration.name} refused to refresh the token; reconnect it.",
                    action_url=self.public.integration_page(integration.slug),
                )
            return fresh
