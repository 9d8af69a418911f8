"""The composition root: every service of a running server, built once, wired explicitly.

`build_gateway(settings, catalog)` constructs each service with only the
collaborators it uses; `create_app` (skillgate.app) hands them to the doors.
Nothing below this module imports it: a service's collaborators show in its
constructor, not in a lookup.

    start()   inside the app's lifespan (things that need the running loop)
    close()   at shutdown, in reverse order
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from skillgate.api_keys import keyformat
from skillgate.api_keys.service import ApiKeys
from skillgate.api_keys.usage import UsageRecorder
from skillgate.api_keys.verifier import KeyVerifier
from skillgate.auth.deps import Authenticator
from skillgate.auth.sessions import WebSessions
from skillgate.auth.signin import SignIn
from skillgate.auth.tokens import TokenSigner
from skillgate.catalog.loader import Catalog
from skillgate.connections.cache import CredentialCache
from skillgate.connections.refresh import Refresher
from skillgate.connections.service import Connections
from skillgate.connections.status import StatusCache
from skillgate.dashboard.shell import DashboardShell
from skillgate.db.engine import create_engine, create_sessionmaker, sqlite_file
from skillgate.device.service import DeviceFlow
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.discovery.service import Discovery
from skillgate.executions.service import ExecutionLog
from skillgate.executions.sinks import SessionSink, SqliteSink
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor.service import Executor, UpstreamPolicy
from skillgate.http.state import AppState
from skillgate.kit.outbound import Outbound
from skillgate.kit.ratecount import Counter, new_counter
from skillgate.kit.redis import new_redis
from skillgate.kit.vault import Vault
from skillgate.metrics import Metrics
from skillgate.settings import Settings
from skillgate.users.limiter import PlanLimiter
from skillgate.users.plans import Plans, build_limits


@dataclass
class Gateway:
    settings: Settings
    catalog: Catalog
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    redis: Any
    usage: UsageRecorder
    metrics: Metrics
    outbound: Outbound
    verifier: KeyVerifier
    plans: Plans
    discovery: Discovery
    executor: Executor
    connections: Connections
    log: ExecutionLog
    state: AppState  # transitional: what the features not yet given their services read
    services: dict[type, Any] = field(default_factory=dict)  # what FastAPI routes receive

    def provide(self, *services: Any) -> None:
        for service in services:
            self.services[type(service)] = service

    async def start(self) -> None:
        await self.outbound.start()
        self.state.executions.start()
        self.usage.start()

    async def close(self) -> None:
        await self.usage.close()
        await self.state.executions.close()
        await self.outbound.close()
        if self.redis is not None:
            await self.redis.aclose()
        await self.engine.dispose()


def build_gateway(settings: Settings, catalog: Catalog) -> Gateway:
    assert settings.secret_key is not None
    engine = create_engine(settings.resolved_database_url)
    db_file = sqlite_file(settings.resolved_database_url)
    sessionmaker = create_sessionmaker(engine)
    usage = UsageRecorder(sessionmaker)
    vault = Vault(settings.encryption_keys or "")
    redis_client = new_redis(settings.redis_url, settings.redis_timeout)
    metrics = Metrics()
    outbound = Outbound()
    verifier = KeyVerifier(sessionmaker, settings.secret_key, usage, settings.key_cache_ttl)
    signer = TokenSigner(settings.secret_key, settings.access_token_ttl)
    rendered = RenderedCatalog(catalog)
    limiter = PlanLimiter(new_counter(redis_client))
    executions = ExecutionWriter(
        SqliteSink(db_file) if db_file is not None else SessionSink(sessionmaker),
        spool_dir=settings.data_dir / "spool",
    )
    plans = Plans(settings)
    connections = _connections(settings, catalog, sessionmaker, vault, outbound)
    statuses, credentials = connections.statuses, connections.credentials
    refresher = Refresher(
        settings, sessionmaker, vault, outbound, redis_client, on_change=connections.changed
    )
    state = AppState(
        settings=settings,
        engine=engine,
        sessionmaker=sessionmaker,
        catalog=catalog,
        verifier=verifier,
        usage=usage,
        signer=signer,
        pepper=keyformat.derive_pepper(settings.secret_key),
        rendered=rendered,
        statuses=statuses,
        vault=vault,
        credentials=credentials,
        refresher=refresher,
        limiter=limiter,
        executions=executions,
        limits=build_limits(settings),
        metrics=metrics,
        redis=redis_client,
    )
    executor = Executor(
        catalog=catalog,
        rendered=rendered,
        plans=plans,
        limiter=limiter,
        credentials=credentials,
        refresher=refresher,
        outbound=outbound,
        log=executions,
        metrics=metrics,
        policy=UpstreamPolicy(
            app_url=settings.resolved_app_url,
            connect_timeout=settings.upstream_connect_timeout,
            total_timeout=settings.upstream_total_timeout,
            max_bytes=settings.upstream_max_bytes,
            base_url=settings.upstream_base_url,
        ),
    )
    gateway = Gateway(
        settings=settings,
        catalog=catalog,
        engine=engine,
        sessionmaker=sessionmaker,
        redis=redis_client,
        usage=usage,
        metrics=metrics,
        outbound=outbound,
        state=state,
        verifier=verifier,
        plans=plans,
        discovery=Discovery(rendered, statuses),
        executor=executor,
        connections=connections,
        log=ExecutionLog(executions),
    )
    # Connections, API keys, the execution log (what the routes of those features receive).
    keys = ApiKeys(pepper=state.pepper, slugs=catalog.slugs, verifier=state.verifier)
    gateway.provide(sessionmaker, catalog, plans, connections, keys, gateway.log)
    _provide_accounts(gateway, counter=limiter.counter, signer=signer, vault=vault, keys=keys)
    return gateway


def _connections(
    settings: Settings,
    catalog: Catalog,
    sessionmaker: async_sessionmaker[AsyncSession],
    vault: Vault,
    outbound: Outbound,
) -> Connections:
    """The connections service, with this instance's caches of who is connected and of
    decrypted credentials (it drops their entries when a connection changes)."""
    ttl = settings.key_cache_ttl
    return Connections(
        settings=settings,
        catalog=catalog,
        vault=vault,
        outbound=outbound,
        statuses=StatusCache(sessionmaker, ttl),
        credentials=CredentialCache(sessionmaker, vault, ttl),
    )


def _provide_accounts(
    gateway: Gateway, *, counter: Counter, signer: TokenSigner, vault: Vault, keys: ApiKeys
) -> None:
    """Sign-in, sessions, the device flow, the dashboard's shell."""
    settings = gateway.settings
    assert settings.secret_key is not None
    sessions = WebSessions(settings.session_idle_ttl, settings.session_absolute_ttl)
    gateway.provide(
        gateway.verifier,
        signer,
        sessions,
        Authenticator(gateway.verifier, signer, sessions),
        SignIn(counter, sessions, signer),
        DeviceFlow(
            app_url=settings.resolved_app_url,
            counter=counter,
            redis=gateway.redis,
            vault=vault,
            keys=keys,
        ),
        DashboardShell(
            app_url=settings.resolved_app_url,
            csrf_secret=settings.secret_key,
            sessions=sessions,
            sessionmaker=gateway.sessionmaker,
            free_limits=gateway.plans.limits_for("free"),
        ),
    )
