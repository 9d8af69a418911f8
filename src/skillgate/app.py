"""`create_app(settings)`: the composition root's services behind the two doors.

The catalog is loaded here, synchronously: a bad catalog file stops the
start-up with its message instead of serving a partial catalog. What is built
is in `skillgate.gateway`; which door serves what is in `skillgate.doors`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import signal
from collections.abc import AsyncIterator, Iterator
from typing import Any

import orjson
import structlog
from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from skillgate import logging as sg_logging
from skillgate.api_keys.endpoints import router as api_keys_router
from skillgate.auth.endpoints import router as auth_router
from skillgate.catalog import workers
from skillgate.catalog.loader import Catalog, CatalogError, load_catalog, take_over
from skillgate.connections.endpoints import router as connections_router
from skillgate.dashboard import install as install_dashboard
from skillgate.device.endpoints import router as device_router
from skillgate.doors.agent.door import MATCH_KEY, AgentDoor
from skillgate.doors.agent.router import Router
from skillgate.doors.agent.routes import agent_router
from skillgate.doors.mcp import PATH as MCP_PATH
from skillgate.doors.mcp import McpDoor, Tools
from skillgate.doors.mcp.door import OAuthSignIn
from skillgate.doors.mcp.sessions import SessionIds
from skillgate.gateway import Gateway, build_gateway
from skillgate.http import handlers
from skillgate.http.middleware import RequestContextMiddleware
from skillgate.http.openapi import describe
from skillgate.http.public import PublicOriginMiddleware
from skillgate.kit import tracing
from skillgate.mcpauth import endpoints as oauth_endpoints
from skillgate.mcpauth.grants_api import router as grants_router
from skillgate.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from skillgate.settings import Settings, finalize, get_settings
from skillgate.users.webhook_api import router as webhook_router

VERSION = "0.1.0"
GC_GEN0_THRESHOLD = 20_000
log = structlog.get_logger(__name__)


class GatewayApp(FastAPI):
    """The account door (FastAPI), with the agent door and the MCP door in front: a
    request the agent router matches goes to the agent door, `/mcp` to the MCP door,
    each inside its own request middleware."""

    agent_router: Router | None = None
    agent_door: ASGIApp | None = None
    mcp_door: ASGIApp | None = None
    front: ASGIApp | None = None  # trusted proxies' headers and the links' address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.front is not None:
            await self.front(scope, receive, send)
        else:
            await self.dispatch(scope, receive, send)

    async def dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.mcp_door is not None and scope.get("path") == MCP_PATH:
            await self.mcp_door(scope, receive, send)
            return
        if self.agent_router is not None and self.agent_door is not None:
            match = self.agent_router.match(scope)
            if match is not None:
                scope[MATCH_KEY] = match
                await self.agent_door(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            schema = super().openapi()  # built once and kept in self.openapi_schema
            if self.agent_router is not None:
                schema.setdefault("paths", {}).update(self.agent_router.openapi_paths())
            describe(schema)
        assert self.openapi_schema is not None
        return self.openapi_schema


def operation_id(route: APIRoute) -> str:
    """An account-door route's operationId: its handler's name (`list_keys`), unless the
    route names one."""
    return route.name


class _Health:
    """`/healthz`: ok, this process's pid and the digest of the catalog it serves;
    under `skillgate serve`, the same in its status file (catalog.workers)."""

    def __init__(self, gateway: Gateway) -> None:
        self.catalog = gateway.catalog
        self.data_dir = gateway.settings.data_dir
        self.reporting = False
        self.body = b""
        self.lock = asyncio.Lock()  # one reload at a time
        self.refresh()

    def refresh(self, error: str | None = None) -> None:
        catalog = self.catalog
        pid = os.getpid()
        self.body = orjson.dumps({"status": "ok", "catalog": catalog.digest, "pid": pid})
        if self.reporting:
            workers.report(
                self.data_dir,
                catalog.digest,
                len(catalog.integrations),
                catalog.endpoint_count,
                error,
            )

    def start(self) -> None:
        self.reporting = workers.under_serve(self.data_dir)
        self.refresh()

    def stop(self) -> None:
        if self.reporting:
            workers.withdraw(self.data_dir)


async def _reload(gateway: Gateway, health: _Health) -> None:
    """SIGHUP: serve the catalog files as they are now, or keep the running catalog
    and log why not; either way, say which catalog this process serves."""
    async with health.lock:
        try:
            catalog = await gateway.reload_catalog()
        except CatalogError as exc:
            log.error(
                "catalog reload refused; still serving the previous catalog", problem=str(exc)
            )
            health.refresh(error=str(exc))
            return
        health.refresh()
    log.warning(
        "catalog reloaded",
        integrations=len(catalog.integrations),
        endpoints=catalog.endpoint_count,
        digest=catalog.digest,
    )


@contextlib.contextmanager
def _on_sighup(gateway: Gateway, health: _Health) -> Iterator[None]:
    """Reload the catalog on SIGHUP (where this loop can take signals: the main thread
    of each worker process; `skillgate catalog reload` signals every worker, never
    uvicorn's supervisor, which would restart them)."""
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    def schedule() -> None:
        task = loop.create_task(_reload(gateway, health))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    try:
        loop.add_signal_handler(signal.SIGHUP, schedule)
    except (NotImplementedError, RuntimeError, ValueError, AttributeError):
        yield  # not the main thread, or no SIGHUP here: `skillgate catalog reload` says so
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGHUP)


@contextlib.asynccontextmanager
async def _serving(gateway: Gateway, mcp: McpDoor, health: _Health) -> AsyncIterator[None]:
    await gateway.start()
    # Everything built so far (catalog models, rendered responses, SQLAlchemy
    # metadata) lives as long as the process: keep the collector from walking
    # it on every full collection, which stalled requests for tens of ms.
    gc.collect()
    gc.freeze()
    gc.enable()  # paused for the start-up (app_factory, `skillgate serve`)
    # A request's objects are freed by reference counting; the cycle collector
    # only finds work in rare paths. At the default threshold (700) it ran ~3,000
    # times in 45,000 proxied calls, ~8 us of CPU per call; at 20,000 it did not
    # run at all in that test (bench/results/report.md, docs/decisions.md).
    thresholds = gc.get_threshold()
    gc.set_threshold(GC_GEN0_THRESHOLD, 10, 10)
    try:
        async with mcp.running():
            with _on_sighup(gateway, health):
                health.start()
                yield
    finally:
        health.stop()
        gc.set_threshold(*thresholds)
        await gateway.close()


def _account_door(gateway: Gateway, mcp: McpDoor) -> GatewayApp:
    health = _Health(gateway)
    app = GatewayApp(
        title="Skill Gateway",
        version=VERSION,
        lifespan=lambda _: _serving(gateway, mcp, health),
        docs_url="/docs",
        redoc_url=None,
        license_info={"name": "Apache-2.0", "identifier": "Apache-2.0"},
        redirect_slashes=False,
        generate_unique_id_function=operation_id,
    )
    app.state.gateway = gateway  # for operator tooling, tests and benchmarks; no route reads it
    app.state.services = gateway.services
    handlers.install(app)
    for router in (
        connections_router,
        api_keys_router,
        auth_router,
        device_router,
        grants_router,
        webhook_router,
    ):
        app.include_router(router)
    install_dashboard(app)  # HTML pages under {app_url} and /static
    # The authorization server of /mcp (the MCP SDK's handlers; docs/mcp.md).
    app.router.routes.extend(oauth_endpoints.routes(gateway.oauth, gateway.limiter.counter))

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        return Response(health.body, media_type="application/json")

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(gateway.metrics.render(), media_type=METRICS_CONTENT_TYPE)

    return app


def create_app(settings: Settings | None = None, catalog: Catalog | None = None) -> FastAPI:
    settings = finalize(settings) if settings is not None else get_settings()
    sg_logging.configure(settings.log_level, settings.log_format)
    tracing.configure(settings.otel_exporter)
    if catalog is None:
        paths = settings.catalog_paths()
        catalog = take_over(paths) or load_catalog(paths)
    gateway = build_gateway(settings, catalog)

    # Every door runs inside the same request middleware: ids, body limits, access log.
    guard: dict[str, Any] = {
        "max_body": settings.max_request_bytes,
        "metrics": gateway.metrics,
        "body_timeout": settings.body_timeout,
    }
    assert settings.secret_key is not None  # build_gateway's check: set by finalize
    mcp = McpDoor(
        gateway.verifier,
        Tools(gateway.discovery, gateway.executor),
        version=VERSION,
        max_body=settings.max_request_bytes,
        origins=settings.mcp_origins(),
        sessions=SessionIds(settings.secret_key),
        signin=OAuthSignIn(
            gateway.oauth_tokens,
            lambda: oauth_endpoints.resource_metadata_url(gateway.public.base),
        ),
    )
    app = _account_door(gateway, mcp)
    app.add_middleware(RequestContextMiddleware, **guard)
    app.agent_router = agent_router(
        discovery_service=gateway.discovery,
        plans=gateway.plans,
        executor=gateway.executor,
        connections_service=gateway.scoped_connections,
        log=gateway.log,
        sessions=gateway.sessionmaker,
    )
    app.agent_door = RequestContextMiddleware(
        AgentDoor(gateway.verifier, app.agent_router), **guard
    )
    app.mcp_door = RequestContextMiddleware(mcp, **guard)
    app.front = PublicOriginMiddleware(
        app.dispatch,
        trusted_proxies=settings.resolved_trusted_proxies,
        derive=settings.base_url is None,
    )
    return app


def app_factory() -> FastAPI:
    """Entry point for `uvicorn --factory skillgate.app:app_factory` and `skillgate serve`.

    The cycle collector is paused until the lifespan's one collection (`_serving`): the
    start-up builds millions of objects that all live on, and automatic collections
    walked them again and again (~1 CPU-s of a 3 s start with the shipped catalog).
    What exists here (the modules; under `skillgate serve`, the catalog it loaded) is
    frozen without a collection: imports leave ~2,000 unreachable objects (under 1 MB),
    a catalog none, and the lifespan's collection then walks only what the app built,
    whatever the catalog's size."""
    gc.disable()
    gc.freeze()
    return create_app()
