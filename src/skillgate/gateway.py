"""The composition root: every service of a running server, built once, wired explicitly.

`build_gateway(settings, catalog)` constructs each service with only the
collaborators it uses; `create_app` (skillgate.app) hands them to the doors.
Nothing below this module imports it: a service's collaborators show in its
constructor, not in a lookup.

    start()   inside the app's lifespan (things that need the running loop)
    close()   at shutdown, in reverse order

`create_app` also leaves the gateway on `app.state.gateway` for operator tooling,
tests and benchmarks; no route reads it (routes receive their service, see
http/provide.py).
"""

from __future__ import annotations

import asyncio
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
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.connections.cache import CredentialCache
from skillgate.connections.refresh import Refresher
from skillgate.connections.scoped import ScopedConnections
from skillgate.connections.service import Connections
from skillgate.connections.status import StatusCache
from skillgate.dashboard.shell import DashboardShell
from skillgate.db.engine import create_engine, create_sessionmaker, sqlite_file
from skillgate.device.service import DeviceFlow
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.service import Discovery
from skillgate.executions.service import ExecutionLog
from skillgate.executions.sinks import SessionSink, SqliteSink
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor.approvals import Approvals
from skillgate.executor.confirmations import Confirmations
from skillgate.executor.idempotency import Idempotency
from skillgate.executor.optioned import OptionRunner
from skillgate.executor.service import Executor
from skillgate.executor.upstream import Upstream, UpstreamPolicy
from skillgate.kit import memory
from skillgate.kit.outbound import Outbound
from skillgate.kit.public import PublicUrls
from skillgate.kit.ratecount import Counter, new_counter
from skillgate.kit.redis import new_redis
from skillgate.kit.vault import Vault
from skillgate.mcpauth.clients import Clients
from skillgate.mcpauth.provider import GatewayProvider
from skillgate.mcpauth.service import Grants
from skillgate.mcpauth.tokens import Digester
from skillgate.mcpauth.verifier import TokenVerifier
from skillgate.metrics import Metrics
from skillgate.settings import Settings
from skillgate.users.limiter import PlanLimiter
from skillgate.users.plans import Plans
from skillgate.users.webhook import Webhooks


@dataclass
class Gateway:
    """What a running server holds. The doors get the services they serve from here,
    in `create_app`; FastAPI routes get theirs from `services`, by type."""

    settings: Settings
    catalog: Catalog
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    redis: Any
    metrics: Metrics
    outbound: Outbound
    vault: Vault
    public: PublicUrls
    usage: UsageRecorder
    verifier: KeyVerifier
    signer: TokenSigner
    limiter: PlanLimiter
    plans: Plans
    rendered: RenderedCatalog
    executions: ExecutionWriter
    connections: Connections
    scoped_connections: ScopedConnections  # the API's: a Principal, its key's scopes
    refresher: Refresher
    discovery: Discovery
    executor: Executor
    log: ExecutionLog
    oauth: GatewayProvider  # the authorization server of /mcp (mcpauth)
    oauth_tokens: TokenVerifier  # its access tokens, for the MCP door
    webhooks: Webhooks  # the users' opt-in notifications (held calls)
    services: dict[type, Any] = field(default_factory=dict)  # what FastAPI routes receive

    def provide(self, *services: Any) -> None:
        for service in services:
            self.services[type(service)] = service

    async def start(self) -> None:
        await self.outbound.start()
        self.executions.start()
        self.usage.start()
        self.webhooks.start()

    async def reload_catalog(self) -> Catalog:
        """Load the catalog files again and serve them (SIGHUP, `skillgate catalog
        reload`). Parsing and rendering run off the event loop; the switch happens in
        one step. A bad file raises CatalogError and the running catalog stays."""
        fresh = await asyncio.to_thread(load_catalog, self.settings.catalog_paths())
        rendered = await asyncio.to_thread(RenderedCatalog.prepare, fresh)
        index = await asyncio.to_thread(SearchIndex, fresh)
        self.catalog.replace_with(fresh)
        self.rendered.swap(rendered)
        self.discovery.index = index
        del rendered, index
        memory.give_back()  # what the old catalog held (kit/memory.py)
        return self.catalog

    async def close(self) -> None:
        await self.webhooks.close()  # before the outbound session closes
        await self.usage.close()
        await self.executions.close()
        await self.outbound.close()
        if self.redis is not None:
            await self.redis.aclose()
        await self.engine.dispose()


@dataclass
class _Base:
    """The mechanisms every service is built from."""

    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    redis: Any
    vault: Vault
    outbound: Outbound
    metrics: Metrics
    public: PublicUrls  # the address every link names


def _base(settings: Settings) -> _Base:
    engine = create_engine(settings.resolved_database_url)
    return _Base(
        settings=settings,
        engine=engine,
        sessionmaker=create_sessionmaker(engine),
        redis=new_redis(settings.redis_url, settings.redis_timeout),
        vault=Vault(settings.encryption_keys or ""),
        outbound=Outbound(),
        metrics=Metrics(),
        public=PublicUrls(
            base_url=settings.base_url, app_url=settings.app_url, served_on=settings.served_on
        ),
    )


def _execution_log(base: _Base) -> ExecutionWriter:
    db_file = sqlite_file(base.settings.resolved_database_url)
    return ExecutionWriter(
        SqliteSink(db_file) if db_file is not None else SessionSink(base.sessionmaker),
        spool_dir=base.settings.data_dir / "spool",
        metrics=base.metrics,
    )


def _upstream(
    base: _Base, *, plans: Plans, limiter: PlanLimiter, connections: Connections
) -> Upstream:
    """The executor's one way to an upstream: rate limit, credentials, request, send."""
    settings = base.settings
    return Upstream(
        plans=plans,
        limiter=limiter,
        credentials=connections.credentials,
        refresher=Refresher(
            settings,
            base.sessionmaker,
            base.vault,
            base.outbound,
            base.redis,
            on_change=connections.changed,
            public=base.public,
        ),
        outbound=base.outbound,
        policy=UpstreamPolicy(
            public=base.public,
            connect_timeout=settings.upstream_connect_timeout,
            total_timeout=settings.upstream_total_timeout,
            max_bytes=settings.upstream_max_bytes,
            answer_bytes=settings.max_answer_bytes,
            upload_bytes=settings.max_upload_bytes,
            hosts=settings.upstream_hosts(),
        ),
    )


def _executor(
    base: _Base,
    catalog: Catalog,
    *,
    rendered: RenderedCatalog,
    upstream: Upstream,
    log: ExecutionWriter,
    webhooks: Webhooks,
) -> Executor:
    """The executor: the lookup and the log around the upstream step, and the option
    runner for what is decided before a call (confirmation, idempotency, dry run)."""
    maker = base.sessionmaker
    options = OptionRunner(
        upstream=upstream,
        confirmations=Confirmations(maker),
        idempotency=Idempotency(maker, wait=base.settings.upstream_total_timeout + 5),
        log=log,
    )
    return Executor(
        catalog=catalog,
        rendered=rendered,
        upstream=upstream,
        options=options,
        log=log,
        metrics=base.metrics,
        approvals=Approvals(base.sessionmaker, upstream, catalog, log, webhooks=webhooks),
    )


def build_gateway(settings: Settings, catalog: Catalog) -> Gateway:
    assert settings.secret_key is not None
    base = _base(settings)
    maker = base.sessionmaker
    usage = UsageRecorder(maker)
    verifier = KeyVerifier(maker, settings.secret_key, usage, settings.key_cache_ttl)
    limiter = PlanLimiter(new_counter(base.redis))
    plans = Plans(settings)
    rendered = RenderedCatalog(catalog)
    executions = _execution_log(base)
    connections = _connections(base, catalog)
    upstream = _upstream(base, plans=plans, limiter=limiter, connections=connections)
    webhooks = Webhooks(
        maker, base.vault, base.outbound, allow_loopback=settings.webhook_allow_loopback
    )
    executor = _executor(
        base, catalog, rendered=rendered, upstream=upstream, log=executions, webhooks=webhooks
    )
    # each pass of the delivery loop first expires overdue approvals (their events)
    webhooks.sweeps.append(executor.approvals.expire_all)
    oauth, oauth_tokens = _authorization_server(base, catalog)
    gateway = Gateway(
        settings=settings,
        engine=base.engine,
        sessionmaker=maker,
        redis=base.redis,
        metrics=base.metrics,
        outbound=base.outbound,
        vault=base.vault,
        public=base.public,
        catalog=catalog,
        usage=usage,
        verifier=verifier,
        signer=TokenSigner(settings.secret_key, settings.access_token_ttl),
        limiter=limiter,
        plans=plans,
        rendered=rendered,
        executions=executions,
        connections=connections,
        scoped_connections=ScopedConnections(connections),
        refresher=upstream.refresher,
        discovery=Discovery(rendered, connections.statuses, SearchIndex(catalog)),
        executor=executor,
        log=ExecutionLog(executions, base.sessionmaker),
        oauth=oauth,
        oauth_tokens=oauth_tokens,
        webhooks=webhooks,
    )
    _provide_doors(gateway, oauth)
    return gateway


def _provide_doors(gateway: Gateway, oauth: GatewayProvider) -> None:
    """What the account door's routes receive, by type."""
    settings, catalog = gateway.settings, gateway.catalog
    assert settings.secret_key is not None
    keys = ApiKeys(
        pepper=keyformat.derive_pepper(settings.secret_key),
        slugs=catalog.integrations.keys(),  # a live view: a reload changes it
        verifier=gateway.verifier,
        catalog=catalog,  # what a policy may name (the same live catalog)
    )
    gateway.provide(
        gateway.sessionmaker,
        catalog,
        gateway.plans,
        gateway.connections,
        gateway.scoped_connections,
        keys,
        gateway.log,
        oauth.grants,
        gateway.executor.approvals,
        gateway.webhooks,
    )
    _provide_accounts(gateway, counter=gateway.limiter.counter, keys=keys)


def _authorization_server(base: _Base, catalog: Catalog) -> tuple[GatewayProvider, TokenVerifier]:
    """The OAuth authorization server of /mcp: clients, grants, the SDK's provider, and
    the verifier of its access tokens (which drops a revoked grant's cached entries)."""
    settings = base.settings
    assert settings.secret_key is not None
    forget: list[TokenVerifier] = []

    def forget_grant(grant_id: str) -> None:
        for verifier in forget:
            verifier.forget_grant(grant_id)

    grants = Grants(
        Clients(
            base.sessionmaker,
            base.vault,
            base.outbound,
            allow_loopback=settings.oauth_cimd_allow_loopback,
        ),
        base.public,
        Digester(settings.secret_key),
        catalog,
        access_ttl=settings.oauth_access_ttl,
        refresh_ttl=settings.oauth_refresh_ttl,
        forget=forget_grant,
    )
    verifier = TokenVerifier(base.sessionmaker, grants, settings.key_cache_ttl)
    forget.append(verifier)
    return GatewayProvider(base.sessionmaker, grants), verifier


def _connections(base: _Base, catalog: Catalog) -> Connections:
    """The connections service, with this instance's caches of who is connected and of
    decrypted credentials (it drops their entries when a connection changes)."""
    ttl = base.settings.key_cache_ttl
    return Connections(
        settings=base.settings,
        catalog=catalog,
        vault=base.vault,
        outbound=base.outbound,
        statuses=StatusCache(base.sessionmaker, ttl),
        credentials=CredentialCache(base.sessionmaker, base.vault, ttl),
        public=base.public,
    )


def _provide_accounts(gateway: Gateway, *, counter: Counter, keys: ApiKeys) -> None:
    """Sign-in, sessions, the device flow, the dashboard's shell."""
    settings = gateway.settings
    assert settings.secret_key is not None
    sessions = WebSessions(settings.session_idle_ttl, settings.session_absolute_ttl)
    signer = gateway.signer
    gateway.provide(
        gateway.verifier,
        signer,
        sessions,
        Authenticator(gateway.verifier, signer, sessions),
        SignIn(counter, sessions, signer),
        DeviceFlow(
            public=gateway.public,
            counter=counter,
            redis=gateway.redis,
            vault=gateway.vault,
            keys=keys,
        ),
        DashboardShell(
            public=gateway.public,
            csrf_secret=settings.secret_key,
            sessions=sessions,
            sessionmaker=gateway.sessionmaker,
            free_limits=gateway.plans.limits_for("free"),
        ),
    )
