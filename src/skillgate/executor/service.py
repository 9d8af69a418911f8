"""One agent call: scope, rate limit, params, credentials, the upstream request, the log.

POST /v1/:integration/:endpoint {"params": {...}}
  -> 200 {"status": <upstream>, "data" | "error": ...}, X-Upstream-Status
  -> the gateway's own error (4xx/5xx) when the upstream was not reached
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import orjson

from skillgate.catalog.models import Endpoint, Integration
from skillgate.connections.credentials import Credentials
from skillgate.connections.service import ActiveConnection
from skillgate.errors import (
    BadRequest,
    IntegrationNotConnected,
    SkillGateError,
)
from skillgate.executor import params as params_mod
from skillgate.executor import request as request_mod
from skillgate.executor.envelope import envelope
from skillgate.http import body as body_reader
from skillgate.http.state import AppState
from skillgate.kit.outbound import UpstreamResponse
from skillgate.kit.principal import Principal


@dataclass
class Outcome:
    body: bytes
    upstream_status: int
    headers: dict[str, str]


def _params(body: bytes) -> tuple[Any, Any]:
    """(params, as_typed) of the request body; see params_mod.validate for as_typed."""
    if not body.strip():
        return {}, None
    try:
        data = body_reader.loads(body)
    except orjson.JSONDecodeError:
        raise BadRequest("The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise BadRequest('The request body must be a JSON object: {"params": {...}}.')
    unknown = set(data) - {"params", "as_typed"}
    if unknown:
        raise BadRequest(f'Unknown field {sorted(unknown)[0]!r}: send {{"params": {{...}}}}.')
    return data.get("params"), data.get("as_typed")


def _auth_header(
    integration: Integration, conn: ActiveConnection, creds: Credentials
) -> tuple[str, str]:
    auth = integration.auth.oauth2 if conn.auth_type == "oauth2" else integration.auth.token
    if auth is None:  # the catalog no longer offers this auth type; use the other one's format
        auth = integration.auth.token or integration.auth.oauth2
    assert auth is not None
    return auth.header, auth.format.replace("{token}", creds.access_token)


class Executor:
    def __init__(self, state: AppState) -> None:
        self.state = state

    async def run(self, principal: Principal, slug: str, name: str, body: bytes) -> Outcome:
        state = self.state
        started = time.perf_counter()
        upstream_status: int | None = None
        error_code: str | None = None
        known: Endpoint | None = None  # metrics label only names from the catalog
        try:
            rendered, endpoint = state.rendered.endpoint(slug, name, principal.scopes)
            known = endpoint
            integration = rendered.integration
            limits = state.limits_for(principal.plan)
            key_id = principal.key.key_id if principal.key else principal.user_id
            verdict = await state.limiter.enforce(
                key_id, limits.requests_per_minute, limits.requests_per_day
            )
            values = params_mod.validate(endpoint, *_params(body))
            response = await self._call(principal, integration, endpoint, values)
            upstream_status = response.status
            data, failed = envelope(response, integration.body_errors)
            if failed and response.status < 400:
                error_code = "upstream_body_error"
            headers = {"X-Upstream-Status": str(response.status), **verdict.headers}
            return Outcome(data, response.status, headers)
        except SkillGateError as exc:
            error_code = exc.code
            raise
        finally:
            if known is None:  # refused before the lookup answered (unknown name, scope)
                known = state.catalog.endpoint(slug, name)

            if known is not None:  # bounded labels only
                failed = error_code is not None or (upstream_status or 0) >= 400
                state.metrics.execution(
                    slug,
                    name,
                    (error_code or "upstream_error") if failed else "success",
                    time.perf_counter() - started,
                )
            if known is not None or state.catalog.get(slug) is not None:
                # an unknown integration is a probe, not an execution: not logged
                state.executions.record(
                    user_id=principal.user_id,
                    key_id=principal.key.key_id if principal.key else None,
                    integration=slug,
                    endpoint=name[:64],
                    upstream_status=upstream_status,
                    error=error_code,
                    duration_ms=(time.perf_counter() - started) * 1000,
                )

    async def _call(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
    ) -> UpstreamResponse:
        state = self.state
        conn = await state.credentials.get(principal.user_id, integration.slug)
        if conn is None or conn.status != "connected":
            verb = "reconnect" if conn is not None else "connect"
            raise IntegrationNotConnected(
                f"{integration.name} is not connected for this account; {verb} it at the "
                "action_url, then retry.",
                action_url=f"{state.settings.resolved_app_url}/integrations/{integration.slug}",
            )

        creds = conn.credentials
        can_refresh = conn.auth_type == "oauth2" and creds.refresh_token is not None
        if can_refresh and creds.expires_soon():
            creds = await state.refresher.refresh(integration, conn, creds.access_token)
        response = await self._send(integration, endpoint, values, conn, creds)
        if response.status == 401 and can_refresh:
            creds = await state.refresher.refresh(integration, conn, creds.access_token)
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
        settings = self.state.settings
        base_url = self.state.base_url(integration.slug, integration.base_url)

        req = request_mod.build(
            endpoint,
            base_url,
            values,
            integration.default_headers,
            _auth_header(integration, conn, creds),
        )
        own = integration.timeouts
        return await self.state.outbound.send(
            req,
            connect_timeout=own.connect if own else settings.upstream_connect_timeout,
            total_timeout=own.total if own else settings.upstream_total_timeout,
            max_bytes=settings.upstream_max_bytes,
            service=integration.name,
        )
