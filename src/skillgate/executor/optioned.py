"""An execution with options, or one the key's policy asks to confirm: what is decided
before the upstream is called, then the call.

    dry_run            -> the request built as a real call would, nothing sent
    Idempotency-Key    -> a repeat answers the stored envelope (executor.idempotency)
    confirmation       -> 409 with a preview and a token, or the token redeemed
                          (executor.confirmations; the key's policy decides)
    rate limit, the upstream call(s), the envelope shaped (executor.shaped)

`Executor.run` has validated the params (the `Run`); a plain call (every option off,
nothing to confirm) never comes here: it goes straight to `shaped.answer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import orjson

from skillgate.errors import BadRequest, ConfirmationRequired
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor import paging, shaped
from skillgate.executor.confirmations import TTL, Confirmations, request_digest
from skillgate.executor.idempotency import Idempotency
from skillgate.executor.outcome import Outcome
from skillgate.executor.run import Run
from skillgate.executor.upstream import Upstream

# Upstream statuses that say the request was not processed and may be retried (rate
# limited, bad gateway, unavailable): an Idempotency-Key is freed, not bound to them.
# Other answers, 500 and 504 included (the upstream may have acted), are stored.
NOT_PROCESSED = frozenset({429, 502, 503})


class OptionRunner:
    def __init__(
        self,
        *,
        upstream: Upstream,
        confirmations: Confirmations,
        idempotency: Idempotency,
        log: ExecutionWriter,  # a paged run's rows for its pages but the last
    ) -> None:
        self.upstream = upstream
        self.confirmations = confirmations
        self.idempotency = idempotency
        self.log = log

    async def run(self, run: Run, confirming: bool) -> Outcome:
        """`run` as its options ask; `confirming`: the key's policy wants a token."""
        options, endpoint = run.options, run.endpoint
        if options.paginate is not None and endpoint.pagination is None:
            raise BadRequest(
                f"paginate: {endpoint.name} does not page its results; call it without paginate."
            )
        if options.dry_run:  # with paginate: the first page's request, its size raised
            if options.paginate:
                first = paging.first(endpoint, run.values, options.paginate.max_items)
                run = dataclasses.replace(run, values=first)
            return await self._dry_run(run, confirming)
        key = options.idempotency_key
        user_id = run.principal.user_id
        if key is not None:
            digest = request_digest(
                run.integration.slug,
                endpoint.name,
                run.values,
                options.paginate and [options.paginate.max_items, options.paginate.max_pages],
                options.fields,
                options.max_bytes,
            )
            stored = await self.idempotency.begin(user_id, key, digest)
            if stored is not None:
                return _replayed(stored.upstream_status, stored.envelope)
        try:
            if confirming:
                await self._confirm(run)
            outcome = await self._send(run)
        except BaseException:
            if key is not None:  # nothing stored: a retry runs afresh
                with contextlib.suppress(Exception):
                    await asyncio.shield(self.idempotency.release(user_id, key))
            raise
        if key is None:
            return outcome
        if outcome.upstream_status in NOT_PROCESSED:  # "try again": a retry runs afresh
            await self.idempotency.release(user_id, key)
        else:
            await self.idempotency.finish(user_id, key, outcome.upstream_status, outcome.body)
        return outcome

    async def _dry_run(self, run: Run, confirming: bool) -> Outcome:
        body = {
            "dry_run": True,
            "request": await self.upstream.preview(run),
            "destructive": bool(run.endpoint.destructive),
            "confirmation_required": confirming,
        }
        if run.ruling is not None:  # which rule of the key's policy the call meets
            body["policy"] = run.ruling.shown(run.values)
        return Outcome(orjson.dumps(body), 0, {}, log_error="dry_run")

    async def _confirm(self, run: Run) -> None:
        """Redeem the call's token for this exact request, or answer 409 with a preview
        and one."""
        principal, integration, endpoint = run.principal, run.integration, run.endpoint
        key_id = principal.key.key_id if principal.key else principal.user_id
        digest = request_digest(key_id, integration.slug, endpoint.name, run.values)
        token = run.options.confirm
        if token is not None:
            await self.confirmations.redeem(principal.user_id, token, digest)
            return
        preview = await self.upstream.preview(run)
        token = await self.confirmations.issue(principal.user_id, digest)
        what = "is destructive" if endpoint.destructive else "changes data"
        raise ConfirmationRequired(
            f"{integration.name} {endpoint.name} {what} and this API key asks for "
            f'confirmation: check the preview, then send the same call with "confirm": '
            f"<token> within {TTL // 60} minutes.",
            extra={"preview": preview, "confirm": token, "expires_in": TTL},
        )

    async def _send(self, run: Run) -> Outcome:
        """The upstream call(s) and the envelope, shaped as the options ask."""
        if run.options.paginate is not None:
            return await shaped.paged(self.upstream, self.log, run)
        limit_headers = await self.upstream.spend(run.principal)
        return await shaped.answer(self.upstream, run, limit_headers)


def _replayed(upstream_status: int, envelope: bytes) -> Outcome:
    failed = "error" in orjson.loads(envelope)
    replayed = {"Idempotent-Replayed": "true"}
    return Outcome.answered(envelope, upstream_status, replayed, failed, log_error="replayed")
