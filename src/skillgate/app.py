"""`create_app(settings)`: everything a running server holds, built in one place.

The catalog is loaded here, synchronously: a bad catalog file stops the
start-up with its message instead of serving a partial catalog.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import FastAPI
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from skillgate import logging as sg_logging
from skillgate.api_keys import keyformat
from skillgate.api_keys.endpoints import router as api_keys_router
from skillgate.api_keys.usage import UsageRecorder
from skillgate.api_keys.verifier import KeyVerifier
from skillgate.auth.endpoints import router as auth_router
from skillgate.auth.tokens import TokenSigner
from skillgate.catalog.loader import Catalog, extra_paths_from_env, load_catalog
from skillgate.connections.cache import CredentialCache
from skillgate.connections.endpoints import router as connections_router
from skillgate.connections.refresh import Refresher
from skillgate.connections.status import StatusCache
from skillgate.connections.vault import Vault
from skillgate.dashboard import install as install_dashboard
from skillgate.db.engine import create_engine, create_sessionmaker, sqlite_file
from skillgate.device.endpoints import router as device_router
from skillgate.discovery.endpoints import ROUTES as DISCOVERY_ROUTES
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.executions.endpoints import router as executions_router
from skillgate.executions.sinks import SessionSink, SqliteSink
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor.endpoints import ROUTES as EXECUTE_ROUTES
from skillgate.executor.ratelimit import MemoryCounter, RateLimiter, RedisCounter
from skillgate.executor.upstream import new_session
from skillgate.http import handlers
from skillgate.http.fastpath import MATCH_KEY, FastPath, FastRouter
from skillgate.http.middleware import RequestContextMiddleware
from skillgate.http.openapi import describe_errors
from skillgate.http.state import AppState
from skillgate.kit.redis import new_redis
from skillgate.me.endpoints import ROUTES as ME_ROUTES
from skillgate.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from skillgate.metrics import Metrics
from skillgate.settings import Settings, finalize, get_settings
from skillgate.users.plans import build_limits

GC_GEN0_THRESHOLD = 20_000


class GatewayApp(FastAPI):
    """FastAPI, except that the hot API routes skip its middleware and routing
    (see http.fastpath)."""

    fast_router: FastRouter | None = None
    fast_path: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.fast_router is not None and self.fast_path is not None:
            match = self.fast_router.match(scope)
            if match is not None:
                scope[MATCH_KEY] = match
                await self.fast_path(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            schema = super().openapi()  # built once and kept in self.openapi_schema
            if self.fast_router is not None:
                schema.setdefault("paths", {}).update(self.fast_router.openapi_paths())
                schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
                schemes["bearer"] = {"type": "http", "scheme": "bearer", "description": "sk_..."}
            describe_errors(schema)
        assert self.openapi_schema is not None
        return self.openapi_schema


def create_app(settings: Settings | None = None, catalog: Catalog | None = None) -> FastAPI:
    settings = finalize(settings) if settings is not None else get_settings()
    assert settings.secret_key is not None
    sg_logging.configure(settings.log_level, settings.log_format)
    if catalog is None:
        catalog = load_catalog(extra_paths_from_env(settings.catalog_path))

    engine = create_engine(settings.resolved_database_url)
    db_file = sqlite_file(settings.resolved_database_url)
    sessionmaker = create_sessionmaker(engine)
    usage = UsageRecorder(sessionmaker)
    vault = Vault(settings.encryption_keys or "")
    redis_client = new_redis(settings.redis_url, settings.redis_timeout)
    state: AppState  # bound below; the refresher's callables read it at call time
    state = AppState(
        settings=settings,
        engine=engine,
        sessionmaker=sessionmaker,
        catalog=catalog,
        verifier=KeyVerifier(sessionmaker, settings.secret_key, usage, settings.key_cache_ttl),
        usage=usage,
        signer=TokenSigner(settings.secret_key, settings.access_token_ttl),
        pepper=keyformat.derive_pepper(settings.secret_key),
        rendered=RenderedCatalog(catalog),
        statuses=StatusCache(sessionmaker, settings.key_cache_ttl),
        vault=vault,
        credentials=CredentialCache(sessionmaker, vault, settings.key_cache_ttl),
        refresher=Refresher(
            settings,
            sessionmaker,
            vault,
            http=lambda: state.http(),
            redis=lambda: state.redis,
            on_change=lambda user_id, slug: state.connection_changed(user_id, slug),
        ),
        limiter=RateLimiter(RedisCounter(redis_client) if redis_client else MemoryCounter()),
        executions=ExecutionWriter(
            SqliteSink(db_file) if db_file is not None else SessionSink(sessionmaker),
            spool_dir=settings.data_dir / "spool",
        ),
        limits=build_limits(settings),
        metrics=Metrics(),
        redis=redis_client,
    )

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state.http_session = new_session()
        state.executions.start()
        # Everything built so far (catalog models, rendered responses, SQLAlchemy
        # metadata) lives as long as the process: keep the collector from walking
        # it on every full collection, which stalled requests for tens of ms.
        gc.collect()
        gc.freeze()
        # A request's objects are freed by reference counting; the cycle collector
        # only finds work in rare paths. At the default threshold (700) it ran ~3,000
        # times in 45,000 proxied calls, ~8 us of CPU per call; at 20,000 it did not
        # run at all in that test (bench/results/report.md, docs/decisions.md).
        thresholds = gc.get_threshold()
        gc.set_threshold(GC_GEN0_THRESHOLD, 10, 10)

        usage.start()

        try:
            yield
        finally:
            gc.set_threshold(*thresholds)

            await usage.close()

            await state.executions.close()
            await state.http_session.close()
            if state.redis is not None:
                await state.redis.aclose()
            await engine.dispose()

    app = GatewayApp(
        title="Skill Gateway",
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
        redirect_slashes=False,
    )
    app.state.sg = state
    handlers.install(app)
    # The hot API routes are raw ASGI (http.fastpath); FastAPI serves the rest.
    app.include_router(connections_router)
    app.include_router(executions_router)
    app.include_router(api_keys_router)
    app.include_router(auth_router)
    app.include_router(device_router)

    install_dashboard(app)  # HTML pages under {app_url} and /static

    health = orjson.dumps({"status": "ok"})

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        return Response(health, media_type="application/json")

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(state.metrics.render(), media_type=METRICS_CONTENT_TYPE)

    app.add_middleware(
        RequestContextMiddleware,
        max_body=settings.max_request_bytes,
        metrics=state.metrics,
        body_timeout=settings.body_timeout,
    )

    app.fast_router = FastRouter([*DISCOVERY_ROUTES, *ME_ROUTES, *EXECUTE_ROUTES])
    app.fast_path = RequestContextMiddleware(
        FastPath(state, app.fast_router),
        max_body=settings.max_request_bytes,
        metrics=state.metrics,
        body_timeout=settings.body_timeout,
    )
    return app


def app_factory() -> FastAPI:
    """Entry point for `uvicorn --factory skillgate.app:app_factory` and `skillgate serve`."""
    return create_app()
