"""One agent call: scope, rate limit, params, credentials, the upstream request, the log.

POST /v1/:integration/:endpoint {"params": {...}}
  -> 200 {"status": <upstream>, "data" | "error": ...}, X-Upstream-Status
  -> the gateway's own error (4xx/5xx) when the upstream was not reached

The pipeline, every door's execution (docs/architecture.md, the execute path):

    lookup     the endpoint, with the key's scopes (RenderedCatalog)
    decide     what this call needs before the upstream is called: the key's policy
               (api_keys.policy: allow, deny, approve, argument constraints), its
               confirmation policy and the options; nothing for a plain call
    params     validated, and completed from the connection when it fills one the call
               left out, into a `Run` (executor.params, executor.run)
    upstream   rate limit, connection, request, send (executor.upstream), through
               OptionRunner when there is something to decide (executor.optioned)
    answer     the envelope, shaped when asked (executor.shaped)
    account    metrics and the execution log, whatever the outcome
"""

from __future__ import annotations

import time
from typing import Any

from skillgate.api_keys.policy import Ruling, holder
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint
from skillgate.discovery.rendered import RenderedCatalog
from skillgate.errors import PolicyDenied, SkillGateError
from skillgate.executions.schemas import decision_of
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor import params as params_mod
from skillgate.executor import shaped
from skillgate.executor.approvals import Approvals
from skillgate.executor.confirmations import needs_confirmation
from skillgate.executor.optioned import OptionRunner
from skillgate.executor.options import PLAIN, RunOptions
from skillgate.executor.outcome import Outcome
from skillgate.executor.run import Run
from skillgate.executor.upstream import Upstream
from skillgate.kit import tracing
from skillgate.kit.principal import Principal
from skillgate.metrics import Metrics


def denied(
    principal: Principal, ruling: Ruling, slug: str, name: str, why: str | None = None
) -> PolicyDenied:
    """403 naming the rule that refuses the call (and the constraint it breaks)."""
    what = f"{slug} {name}"
    whose = f"this {holder(principal.connected_app)}'s policy"
    message = (
        f"{ruling.label} of {whose} refuses {what}: {why}."
        if why
        else f"{ruling.label} of {whose} denies {what}."
    )
    return PolicyDenied(
        message[0].upper() + message[1:],
        extra={"rule": ruling.rule.shown() if ruling.rule is not None else "default"},
        steps=_GRANT_STEPS if principal.connected_app else _POLICY_STEPS,
    )


_POLICY_STEPS = {
    "http": "Do not retry: the key's owner can change its policy on the dashboard's API "
    "keys page; a dry run (`dry_run: true`) shows which rule applies to a call.",
}
_GRANT_STEPS = {
    "http": "Do not retry: the person who allowed this app can change its policy on the "
    "dashboard's API keys page (Connected apps); a dry run (`dry_run: true`) shows which "
    "rule applies to a call.",
}


def enforce(run: Run, ruling: Ruling) -> None:
    """403 when the call's validated values break its rule's constraints."""
    why = ruling.violation(run.values)
    if why is not None:
        raise denied(run.principal, ruling, run.integration.slug, run.endpoint.name, why)


class Executor:
    """Built once by the composition root; every door's execution goes through `run`."""

    def __init__(
        self,
        *,
        catalog: Catalog,
        rendered: RenderedCatalog,
        upstream: Upstream,
        options: OptionRunner,
        log: ExecutionWriter,
        metrics: Metrics,
        approvals: Approvals,
    ) -> None:
        self.catalog = catalog
        self.approvals = approvals  # calls a policy holds for a person
        self.rendered = rendered
        self.upstream = upstream
        self.options = options
        self.log = log
        self.metrics = metrics
        self.policy = upstream.policy  # the doors read its caps (max_bytes)

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
        approval_id: str | None = None  # a held (or refused) call's approval, for the log
        known: Endpoint | None = None  # metrics label only names from the catalog
        try:
            rendered, endpoint = self.rendered.endpoint(slug, name, principal.scopes)
            known, name = endpoint, endpoint.name  # a former name is logged as today's
            # The decision: the one place a policy of the key says what a call needs
            # before its upstream is called: the key's policy (allow, deny, approve,
            # constraints) and its confirmation token.
            confirming = needs_confirmation(principal.confirm, endpoint)
            ruling = None if principal.policy is None else principal.policy.ruling(slug, endpoint)
            if ruling is not None:
                params = ruling.fill(params)
                if ruling.action == "deny" and not options.dry_run:
                    raise denied(principal, ruling, slug, name)
            # Nothing to decide: no option, nothing to confirm, no rule but a plain allow.
            plain = options is PLAIN and not confirming and (ruling is None or ruling.plain)
            # A plain call spends its rate limit before its params are checked (the
            # order docs/execution.md gives); any other once it is going to be sent.
            limit_headers = await self.upstream.spend(principal) if plain else None
            values = params_mod.validate(endpoint, params, as_typed, self.policy.upload_bytes)
            integration = rendered.integration
            values = await self.upstream.complete(principal, integration, endpoint, values)
            run = Run(principal, integration, endpoint, values, options, ruling)
            if ruling is not None and not options.dry_run:
                enforce(run, ruling)
            if ruling is not None and ruling.action == "approve" and not options.dry_run:
                outcome = await self.approvals.hold(run, ruling)  # or 202 / 403
            elif limit_headers is not None:
                outcome = await shaped.answer(self.upstream, run, limit_headers)
            else:
                outcome = await self.options.run(run, confirming)
            upstream_status = outcome.upstream_status or None
            error_code = outcome.log_error
            return outcome
        except SkillGateError as exc:
            error_code = exc.code
            approval_id = _approval_of(exc)
            raise
        finally:
            self._account(
                principal, slug, name, known, upstream_status, error_code, started, approval_id
            )

    def _account(
        self,
        principal: Principal,
        slug: str,
        name: str,
        known: Endpoint | None,
        upstream_status: int | None,
        error_code: str | None,
        started: float,
        approval_id: str | None = None,
    ) -> None:
        """Metrics, the execution log and (when on) a span for one call, whatever its
        outcome."""
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
                approval_id=approval_id,
            )
        if tracing.SPANS is not None:  # off by default: no attribute is built
            _span(principal, slug, name, upstream_status, error_code, started, approval_id)


def _approval_of(exc: SkillGateError) -> str | None:
    """The approval a held or refused call names (ApprovalPending, ApprovalDenied)."""
    shown = exc.extra.get("approval")
    return str(shown["id"])[:32] if isinstance(shown, dict) and "id" in shown else None


def _span(
    principal: Principal,
    slug: str,
    name: str,
    upstream_status: int | None,
    error_code: str | None,
    started: float,
    approval_id: str | None,
) -> None:
    tracing.span(
        "skillgate.execute",
        {
            "skillgate.integration": slug,
            "skillgate.endpoint": name[:64],
            "skillgate.decision": decision_of(error_code),
            "skillgate.error": error_code,
            "skillgate.approval_id": approval_id,
            "skillgate.key_id": principal.key.key_id if principal.key else None,
            "skillgate.door": principal.via,
            "enduser.id": principal.user_id,
            "http.response.status_code": upstream_status,
        },
        time.perf_counter() - started,
    )
