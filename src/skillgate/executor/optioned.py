"""An execution with options: dry run, confirmation, idempotency, paging and shaping.

    validate params
    dry_run            -> the request built as a real call would, nothing sent
    Idempotency-Key    -> a repeat answers the stored envelope (executor.idempotency)
    confirmation       -> 409 with a preview and a token, or the token redeemed
                          (executor.confirmations; the key's policy decides)
    rate limit, the upstream call(s), the envelope shaped (fields, max_bytes)

A plain call (no options) never comes here: `Executor.run` handles it inline.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

import orjson

from skillgate.catalog.models import Endpoint, Integration
from skillgate.errors import BadRequest, ConfirmationRequired
from skillgate.executor import paging, shaped
from skillgate.executor import params as params_mod
from skillgate.executor.confirmations import (
    TTL,
    Confirmations,
    needs_confirmation,
    request_digest,
)
from skillgate.executor.idempotency import Idempotency
from skillgate.executor.options import RunOptions
from skillgate.executor.outcome import Outcome
from skillgate.executor.preview import REDACTED, request_json
from skillgate.kit.principal import Principal

if TYPE_CHECKING:
    from skillgate.executor.service import Executor


# Upstream statuses that say the request was not processed and may be retried (rate
# limited, bad gateway, unavailable): an Idempotency-Key is freed, not bound to them.
# Other answers, 500 and 504 included (the upstream may have acted), are stored.
NOT_PROCESSED = frozenset({429, 502, 503})


class OptionRunner:
    def __init__(
        self, executor: Executor, confirmations: Confirmations, idempotency: Idempotency
    ) -> None:
        self.executor = executor
        self.confirmations = confirmations
        self.idempotency = idempotency

    async def run(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        params: Any,
        as_typed: Any,
        options: RunOptions,
    ) -> Outcome:
        values = params_mod.validate(endpoint, params, as_typed)
        if options.paginate is not None and endpoint.pagination is None:
            raise BadRequest(
                f"paginate: {endpoint.name} does not page its results; call it without paginate."
            )
        confirming = needs_confirmation(principal.confirm, endpoint)
        if options.dry_run:  # with paginate: the first page's request, its size raised
            first = (
                paging.first(endpoint, values, options.paginate.max_items)
                if options.paginate
                else values
            )
            return await self._dry_run(principal, integration, endpoint, first, confirming)
        key = options.idempotency_key
        if key is not None:
            digest = request_digest(
                integration.slug,
                endpoint.name,
                values,
                options.paginate and [options.paginate.max_items, options.paginate.max_pages],
                options.fields,
                options.max_bytes,
            )
            stored = await self.idempotency.begin(principal.user_id, key, digest)
            if stored is not None:
                return _replayed(stored.upstream_status, stored.envelope)
        try:
            if confirming:
                await self._confirm(principal, integration, endpoint, values, options.confirm)
            outcome = await self._send(principal, integration, endpoint, values, options)
        except BaseException:
            if key is not None:  # nothing stored: a retry runs afresh
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.idempotency.release(principal.user_id, key))
            raise
        if key is None:
            return outcome
        if outcome.upstream_status in NOT_PROCESSED:  # "try again": a retry runs afresh
            await self.idempotency.release(principal.user_id, key)
        else:
            await self.idempotency.finish(
                principal.user_id, key, outcome.upstream_status, outcome.body
            )
        return outcome

    async def _preview(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
    ) -> dict[str, Any]:
        """The request a real call would send, its credential redacted."""
        executor = self.executor
        conn = await executor.connection(principal, integration)
        return request_json(executor.request(integration, endpoint, values, conn, REDACTED))

    async def _dry_run(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        confirming: bool,
    ) -> Outcome:
        preview = await self._preview(principal, integration, endpoint, values)
        body = {
            "dry_run": True,
            "request": preview,
            "destructive": bool(endpoint.destructive),
            "confirmation_required": confirming,
        }
        return Outcome(orjson.dumps(body), 0, {}, log_error="dry_run")

    async def _confirm(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        token: str | None,
    ) -> None:
        """Redeem `token` for this exact request, or answer 409 with a preview and one."""
        key_id = principal.key.key_id if principal.key else principal.user_id
        digest = request_digest(key_id, integration.slug, endpoint.name, values)
        if token is not None:
            await self.confirmations.redeem(principal.user_id, token, digest)
            return
        preview = await self._preview(principal, integration, endpoint, values)
        token = await self.confirmations.issue(principal.user_id, digest)
        what = "is destructive" if endpoint.destructive else "changes data"
        raise ConfirmationRequired(
            f"{integration.name} {endpoint.name} {what} and this API key asks for "
            f'confirmation: check the preview, then send the same call with "confirm": '
            f"<token> within {TTL // 60} minutes.",
            extra={"preview": preview, "confirm": token, "expires_in": TTL},
        )

    async def _send(
        self,
        principal: Principal,
        integration: Integration,
        endpoint: Endpoint,
        values: dict[str, Any],
        options: RunOptions,
    ) -> Outcome:
        """The upstream call(s) and the envelope, shaped as the options ask."""
        if options.paginate is not None or options.fields or options.max_bytes:
            return await shaped.send(
                self.executor, principal, integration, endpoint, values, options
            )
        executor = self.executor
        limit_headers = await executor.enforce_limit(principal)
        return await executor.answer(principal, integration, endpoint, values, limit_headers)


def _replayed(upstream_status: int, envelope: bytes) -> Outcome:
    failed = "error" in orjson.loads(envelope)
    replayed = {"Idempotent-Replayed": "true"}
    return Outcome.answered(envelope, upstream_status, replayed, failed, log_error="replayed")
