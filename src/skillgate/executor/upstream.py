"""The one step every execution takes to reach its upstream.

    spend      the plan's rate limit (429 when none is left), its headers
    complete   the parameters the caller's connection fills, when the call left them out
    call       the caller's connection (403 with where to connect it), the request
               built as the catalog says, sent; the token refreshed when it expires
               soon, and once more after a 401 when it can be
    preview    the same request, its credential redacted, nothing sent (a dry run,
               a confirmation)

Built once by the composition root (gateway.py) and handed to the executor and its
option runner; it knows nothing of options, envelopes or the execution log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from skillgate.catalog import hosts
from skillgate.catalog.models import Credential, Endpoint, Integration, sent_credentials
from skillgate.connections.cache import CredentialCache
from skillgate.connections.credentials import Credentials
from skillgate.connections.refresh import Refresher
from skillgate.connections.stored import ActiveConnection
from skillgate.errors import BadRequest, InsufficientScope, IntegrationNotConnected
from skillgate.executor import params as params_mod
from skillgate.executor import request as request_mod
from skillgate.executor.preview import REDACTED, request_json
from skillgate.executor.run import Run
from skillgate.executor.uploads import DEFAULT_MAX_UPLOAD_BYTES
from skillgate.kit.outbound import Outbound, UpstreamRequest, UpstreamResponse
from skillgate.kit.principal import Principal
from skillgate.kit.public import PublicUrls
from skillgate.users.limiter import PlanLimiter
from skillgate.users.plans import Plans


@dataclass(frozen=True)
class UpstreamPolicy:
    """How the executor reaches upstreams: the settings it reads, once."""

    public: PublicUrls  # for action_url in "not connected" errors
    connect_timeout: float
    total_timeout: float
    max_bytes: int  # one upstream body, as read (kit.outbound)
    answer_bytes: int  # one answer, all its pages together (executor.capped)
    # One file parameter's content (executor.uploads); SKILLGATE_MAX_UPLOAD_BYTES.
    upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    # slug -> the host its operator set (SKILLGATE_<SLUG>_BASE_URL), else the catalog's
    # is called. The operator's own choice of host may be a private address, like the
    # catalog's allow_private_network.
    hosts: Mapping[str, str] = field(default_factory=dict)


def _credentials(
    integration: Integration, conn: ActiveConnection, token: str, redacted: str | None = None
) -> tuple[Credential, ...]:
    auth = integration.auth.kind(conn.auth_type)
    if auth is None:  # the catalog no longer offers this auth type; use another one's
        auth = integration.auth.token or integration.auth.oauth2 or integration.auth.basic
    assert auth is not None
    creds = conn.credentials
    return sent_credentials(auth, token, creds.username, creds.key, redacted=redacted)


class Upstream:
    def __init__(
        self,
        *,
        plans: Plans,
        limiter: PlanLimiter,
        credentials: CredentialCache,
        refresher: Refresher,
        outbound: Outbound,
        policy: UpstreamPolicy,
    ) -> None:
        self.plans = plans
        self.limiter = limiter
        self.credentials = credentials
        self.refresher = refresher
        self.outbound = outbound
        self.policy = policy

    async def spend(self, principal: Principal) -> dict[str, str]:
        """Spend one call of the plan's rate limit (429 when none is left); its headers."""
        limits = self.plans.limits_for(principal.plan)
        verdict = await self.limiter.enforce(
            principal.budget, limits.requests_per_minute, limits.requests_per_day
        )
        return verdict.headers

    async def call(self, run: Run) -> UpstreamResponse:
        """Send `run`'s request with the caller's credentials (refreshed when due, and
        once more after a 401 when they can be)."""
        integration = run.integration
        conn = await self.connection(run.principal, integration)
        self.check_scopes(run, conn)
        creds = conn.credentials
        can_refresh = conn.auth_type == "oauth2" and creds.refresh_token is not None
        if can_refresh and creds.expires_soon():
            creds = await self.refresher.refresh(integration, conn, creds.access_token)
        response = await self._send(run, conn, creds)
        if response.status == 401 and can_refresh:
            creds = await self.refresher.refresh(integration, conn, creds.access_token)
            response = await self._send(run, conn, creds)
        return response

    async def preview(self, run: Run) -> dict[str, Any]:
        """The request a real call would send, its credential redacted."""
        conn = await self.connection(run.principal, run.integration)
        self.check_scopes(run, conn)
        return request_json(self.request(run, conn, REDACTED, redacted=True))

    async def complete(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
    ) -> dict[str, Any]:
        """`values` with the parameters the caller's connection fills that the call left
        out (catalog.fills); as they are when it leaves none out."""
        if not params_mod.unfilled(endpoint, values):
            return values
        conn = await self.connection(principal, integration)
        return params_mod.from_connection(
            integration, endpoint, values, conn.variables, conn.credentials.username
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

    def check_scopes(self, run: Run, conn: ActiveConnection) -> None:
        """403 insufficient_scope when the endpoint needs a scope set the OAuth connection
        was not granted, with the link that adds it (incremental authorization)."""
        oauth = run.integration.auth.oauth2
        needed = run.endpoint.scopes
        if oauth is None or conn.auth_type != "oauth2" or set(needed) & set(conn.scopes):
            return
        added = oauth.scope_set_for(needed)
        if added is None:
            return  # asked for at connect: the provider's own answer says if it is missing
        name = run.integration.name
        raise InsufficientScope(
            f"{run.endpoint.name} needs {' or '.join(needed)}, which your {name} connection "
            f"was not granted ({oauth.scope_sets[added].description}); add it at the "
            "action_url (the provider asks the user to allow it), then retry.",
            action_url=self.policy.public.add_scopes_url(run.integration.slug, added),
            extra={"scopes": list(needed), "scope_set": added},
        )

    def reconnect_url(self, integration: Integration) -> str:
        """The dashboard page where the user connects (or reconnects) `integration`."""
        return self.policy.public.integration_page(integration.slug)

    def request(
        self, run: Run, conn: ActiveConnection, token: str, *, redacted: bool = False
    ) -> UpstreamRequest:
        """The upstream request for `run`, carrying `token` as the catalog says, sent to
        its endpoint's host (the connection's variables filled in) and to no other."""
        integration = run.integration
        override = self.policy.hosts.get(integration.slug)
        template = override or run.endpoint.base_url or integration.base_url
        req = request_mod.build(
            run.endpoint,
            hosts.fill(template, conn.variables),
            run.values,
            integration.default_headers,
            _credentials(integration, conn, token, REDACTED if redacted else None),
        )
        if not hosts.under(req.url.split("?", 1)[0], self.hosts(integration, conn.variables)):
            raise BadRequest("The request would leave the integration's hosts.")  # defence
        return req

    def hosts(self, integration: Integration, variables: Mapping[str, str]) -> list[str]:
        """The base URLs calls to `integration` may go to: the catalog's, variables filled
        in; only the operator's when SKILLGATE_<SLUG>_BASE_URL is set (a proxy or a test
        double then serves every host of the integration)."""
        override = self.policy.hosts.get(integration.slug)
        return [hosts.fill(h, variables) for h in ([override] if override else integration.hosts)]

    def private_network(self, integration: Integration) -> bool:
        """Whether calls to `integration` may reach a private address (kit.outbound)."""
        return integration.allow_private_network or integration.slug in self.policy.hosts

    async def _send(self, run: Run, conn: ActiveConnection, creds: Credentials) -> UpstreamResponse:
        integration = run.integration
        req = self.request(run, conn, creds.access_token)
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
