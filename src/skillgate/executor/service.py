"""One agent call: scope, rate limit, params, credentials, the upstream request, the log.

POST /v1/:integration/:endpoint {"params": {...}}
  -> 200 {"status": <upstream>, "data" | "error": ...}, X-Upstream-Status
  -> the gateway's own error (4xx/5xx) when the upstream was not reached
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Credential, Endpoint, Integration, credential
from skillgate.connections.cache import CredentialCache
from skillgate.connections.credentials import Credentials
from skillgate.connections.refresh import Refresher
from skillgate.connections.stored import ActiveConnection
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.errors import IntegrationNotConnected, SkillGateError
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor import capped
from skillgate.executor import params as params_mod
from skillgate.executor import request as request_mod
from skillgate.executor.confirmations import Confirmations, needs_confirmation
from skillgate.executor.envelope import parts
from skillgate.executor.idempotency import Idempotency
from skillgate.executor.optioned import OptionRunner
from skillgate.executor.options import PLAIN, RunOptions
from skillgate.executor.outcome import Outcome
from skillgate.kit.outbound import Outbound, UpstreamRequest, UpstreamResponse
from skillgate.kit.principal import Principal
from skillgate.kit.public import PublicUrls
from skillgate.metrics import Metrics
from skillgate.users.limiter import PlanLimiter
from skillgate.users.plans import Plans


def _credential(integration: Integration, conn: ActiveConnection, token: str) -> Credential:
    auth = integration.auth.oauth2 if conn.auth_type == "oauth2" else integration.auth.token
    if auth is None:  # the catalog no longer offers this auth type; use the other one's format
        auth = integration.auth.token or integration.auth.oauth2
    assert auth is not None
    return credential(auth, token)


@dataclass(frozen=True)
class UpstreamPolicy:
    """How the executor reaches upstreams: the settings it reads, once."""

    public: PublicUrls  # for action_url in "not connected" errors
    connect_timeout: float
    total_timeout: float
    max_bytes: int  # one upstream body, as read (kit.outbound)
    answer_bytes: int  # one answer, all its pages together (executor.capped)
    base_url: Callable[[str, str], str]  # (slug, catalog base URL) -> the host to call
    # slug -> whether the operator set its host in the environment (its own choice of
    # host: like the catalog's allow_private_network, it may be a private address).
    operator_host: Callable[[str], bool] = lambda slug: False


class Executor:
    """Built once by the composition root; every door's execution goes through `run`."""

    def __init__(
        self,
        *,
        catalog: Catalog,
        rendered: RenderedCatalog,
        plans: Plans,
        limiter: PlanLimiter,
        credentials: CredentialCache,
        refresher: Refresher,
        outbound: Outbound,
        log: ExecutionWriter,
        metrics: Metrics,
        policy: UpstreamPolicy,
        confirmations: Confirmations,
        idempotency: Idempotency,
    ) -> None:
        self.catalog = catalog
        self.rendered = rendered
        self.plans = plans
        self.limiter = limiter
        self.credentials = credentials
        self.refresher = refresher
        self.outbound = outbound
        self.log = log
        self.metrics = metrics
        self.policy = policy
        self.options = OptionRunner(self, confirmations, idempotency)
        self._base_urls: dict[str, str] = {}  # read from the environment once per slug
        self._operator_hosts: dict[str, bool] = {}

    def reload_base_urls(self) -> None:
        """Read SKILLGATE_<SLUG>_BASE_URL again at the next call of each integration."""
        self._base_urls.clear()
        self._operator_hosts.clear()

    def private_network(self, integration: Integration) -> bool:
        """Whether calls to `integration` may reach a private address (kit.outbound)."""
        if integration.allow_private_network:
            return True
        chosen = self._operator_hosts.get(integration.slug)
        if chosen is None:
            chosen = self._operator_hosts[integration.slug] = self.policy.operator_host(
                integration.slug
            )
        return chosen

    async def run(
        self,
        principal: Principal,
        slug: str,
        name: str,
        params: Any,
        as_typed: Any = None,
        options: RunOptions = PLAIN,
    ) -> Outcome:
        """Look up, check scope and rate limit, validate `params`, call, log; with
        `options` (dry run, confirmation, idempotency, paging, shaping) see OptionRunner."""
        started = time.perf_counter()
        upstream_status: int | None = None
        error_code: str | None = None
        known: Endpoint | None = None  # metrics label only names from the catalog
        try:
            rendered, endpoint = self.rendered.endpoint(slug, name, principal.scopes)
            known = endpoint
            integration = rendered.integration
            if options is PLAIN and not needs_confirmation(principal.confirm, endpoint):
                limit_headers = await self.enforce_limit(principal)
                values = params_mod.validate(endpoint, params, as_typed)
                outcome = await self.answer(principal, integration, endpoint, values, limit_headers)
            else:
                outcome = await self.options.run(
                    principal, integration, endpoint, params, as_typed, options
                )
            upstream_status = outcome.upstream_status or None
            error_code = outcome.log_error
            return outcome
        except SkillGateError as exc:
            error_code = exc.code
            raise
        finally:
            self._account(principal, slug, name, known, upstream_status, error_code, started)

    async def enforce_limit(self, principal: Principal) -> dict[str, str]:
        """Spend one call of the plan's rate limit (429 when none is left); its headers."""
        limits = self.plans.limits_for(principal.plan)
        key_id = principal.key.key_id if principal.key else principal.user_id
        verdict = await self.limiter.enforce(
            key_id, limits.requests_per_minute, limits.requests_per_day
        )
        return verdict.headers

    async def answer(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        limit_headers: dict[str, str],
    ) -> Outcome:
        """One upstream call and its envelope."""
        response = await self.call(principal, integration, endpoint, values)
        env, failed = parts(response, integration.body_errors, self.reconnect_url(integration))
        body = capped.dumps(env, self.policy.answer_bytes)
        return Outcome.answered(body, response.status, limit_headers, failed)

    def _account(
        self,
        principal: Principal,
        slug: str,
        name: str,
        known: Endpoint | None,
        upstream_status: int | None,
        error_code: str | None,
        started: float,
    ) -> None:
        """Metrics and the execution log for one call, whatever its outcome."""
        if known is None:  # refused before the lookup answered (unknown name, scope)
            known = self.catalog.endpoint(slug, name)
        if known is not None:  # bounded labels only
            failed = error_code is not None or (upstream_status or 0) >= 400
            self.metrics.execution(
                slug,
                name,
                (error_code or "upstream_error") if failed else "success",
                time.perf_counter() - started,
            )
        if known is not None or self.catalog.get(slug) is not None:
            # an unknown integration is a probe, not an execution: not logged
            self.log.record(
                user_id=principal.user_id,
                key_id=principal.key.key_id if principal.key else None,
                integration=slug,
                endpoint=name[:64],
                upstream_status=upstream_status,
                error=error_code,
                duration_ms=(time.perf_counter() - started) * 1000,
            )

    async def connection(self, principal: Principal, integration: Integration) -> ActiveConnection:
        """The caller's live connection to `integration`; 403 with where to connect it."""
        conn = await self.credentials.get(principal.user_id, integration.slug)
        if conn is None or conn.status != "connected":
            verb = "reconnect" if conn is not None else "connect"
            raise IntegrationNotConnected(
                f"{integration.name} is not connected for this account; {verb} it at the "
                "action_url, then retry.",
                action_url=self.reconnect_url(integration),
            )
        return conn

    def reconnect_url(self, integration: Integration) -> str:
        """The dashboard page where the user connects (or reconnects) `integration`."""
        return f"{self.policy.public.app}/integrations/{integration.slug}"

    def request(
        self,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        conn: ActiveConnection,
        token: str,
    ) -> UpstreamRequest:
        """The upstream request for `values`, carrying `token` as the catalog says."""
        base_url = self._base_urls.get(integration.slug)
        if base_url is None:
            base_url = self.policy.base_url(integration.slug, integration.base_url)
            self._base_urls[integration.slug] = base_url
        return request_mod.build(
            endpoint,
            base_url,
            values,
            integration.default_headers,
            _credential(integration, conn, token),
        )

    async def call(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
    ) -> UpstreamResponse:
        """Send one request with the caller's credentials (refreshed when due, and once
        more after a 401 when they can be)."""
        conn = await self.connection(principal, integration)
        creds = conn.credentials
        can_refresh = conn.auth_type == "oauth2" and creds.refresh_token is not None
        if can_refresh and creds.expires_soon():
            creds = await self.refresher.refresh(integration, conn, creds.access_token)
        response = await self._send(integration, endpoint, values, conn, creds)
        if response.status == 401 and can_refresh:
            creds = await self.refresher.refresh(integration, conn, creds.access_token)
            response = await self._send(integration, endpoint, values, conn, creds)
        return response

    async def _send(
        self,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        conn: ActiveConnection,
        creds: Credentials,
    ) -> UpstreamResponse:
        req = self.request(integration, endpoint, values, conn, creds.access_token)
        own = integration.timeouts
        policy = self.policy
        return await self.outbound.send(
            req,
            connect_timeout=own.connect if own else policy.connect_timeout,
            total_timeout=own.total if own else policy.total_timeout,
            max_bytes=policy.max_bytes,
            service=integration.name,
            private_network=self.private_network(integration),
        )
