"""Calls a key's policy holds for a person (`approve`): stored, decided out of band,
sent once (docs/execution.md, "Approvals").

    hold      the agent's call: a pending approval stored with the request as the
              dry run renders it (202 approval_pending); the same call again
              (the retry pattern) answers that approval's state: still pending,
              the envelope of the approved call (once), or denied
    decide    a person (dashboard session, or an API key with the `approve` scope
              that did not make the call) approves or denies: one conditional
              UPDATE claims a pending, live approval, so two clicks or two
              instances send at most once; the approved request is rebuilt from
              the stored values and must render exactly as shown, then sent
    status    the approval as the agent polls it (GET /v1/approvals/{id}, with a
              bounded wait)

The rows live in the database (they survive a restart; every instance sees
them); nothing waits in memory while a call is held.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.api_keys.policy import Ruling, holder
from skillgate.catalog.loader import Catalog
from skillgate.db.base import new_id, utcnow
from skillgate.errors import (
    ApprovalDenied,
    ApprovalPending,
    Conflict,
    NotFound,
    ScopeNotAllowed,
    SkillGateError,
)
from skillgate.executions.schemas import decision_of
from skillgate.executions.writer import ExecutionWriter
from skillgate.executor import shaped
from skillgate.executor.approval_events import ApprovalEvents
from skillgate.executor.approval_parties import approver_of, maker_of
from skillgate.executor.confirmations import request_digest
from skillgate.executor.models import Approval
from skillgate.executor.outcome import Outcome
from skillgate.executor.repository import ApprovalRepository
from skillgate.executor.run import Run
from skillgate.executor.upstream import Upstream
from skillgate.kit import tracing
from skillgate.kit.principal import Principal, is_grant_id
from skillgate.users.webhook import Webhooks

TTL = 900  # seconds a held call waits for a person
MAX_WAIT = 30  # the longest GET /v1/approvals/{id}?wait= holds its request
NO_WAIT = 0  # the default: answer at once


class Approvals:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        upstream: Upstream,
        catalog: Catalog,
        log: ExecutionWriter,
        poll_interval: float = 0.5,
        webhooks: Webhooks | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self.upstream = upstream
        self.log = log  # the approved call's row (the send happens here, not in Executor)
        self.catalog = catalog
        self.poll_interval = poll_interval
        self.events = ApprovalEvents(webhooks, self.approve_url)  # the person's webhook

    # -- the agent's side

    async def hold(self, run: Run, ruling: Ruling) -> Outcome:
        """The outcome of an approved call, once; otherwise raise what the call meets
        (pending, denied)."""
        principal = run.principal
        assert principal.key is not None  # only keys and OAuth grants carry a policy
        await self.expire_overdue(principal.user_id)  # logged once, before it is met
        digest = request_digest(
            principal.key.key_id, run.integration.slug, run.endpoint.name, run.values
        )
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = ApprovalRepository(session)
            row = await repo.undelivered(principal.key.key_id, digest)
            if row is not None and state_of(row, now) in ("pending", "sending"):
                raise self.pending(row)  # waiting for the person, or being sent now
            done = row is not None and state_of(row, now) not in ("pending", "sending")
            if row is not None and done and await repo.deliver(row.id, now):
                return self._delivered(row, now)
            row = Approval(
                id=new_id("apr"),
                user_id=principal.user_id,
                key_id=principal.key.key_id,
                integration=run.integration.slug,
                endpoint=run.endpoint.name,
                digest=digest,
                values=run.values,
                request=await self.upstream.preview(run),
                rule=ruling.label,
                state="pending",
                created_at=now,
                expires_at=now + timedelta(seconds=TTL),
            )
            await repo.insert(row)
            announced = await self.events.pending(session, row)
        if announced:
            self.events.kick()
        raise self.pending(row)

    def _delivered(self, row: Approval, now: Any) -> Outcome:
        state = state_of(row, now)
        if state in ("sent", "failed") and row.envelope is not None:
            body = row.envelope
            failed = "error" in orjson.loads(body)
            status = row.upstream_status or 0
            return Outcome.answered(body, status, {}, failed, log_error="replayed")
        why = "expired before anyone answered it" if state == "expired" else "was denied"
        raise ApprovalDenied(
            f"The approval {row.id} of this call {why}; nothing was sent.",
            extra={"approval": self.shown(row, now)},
        )

    def pending(self, row: Approval) -> ApprovalPending:
        app = is_grant_id(row.key_id)
        whose = holder(app)
        again = "send the same call again to learn its outcome."
        # An app's token calls /mcp only: it learns the outcome by calling again.
        how = (
            again[0].upper() + again[1:]
            if app
            else f"Poll GET {self.poll_url(row.id)}?wait={MAX_WAIT}, or {again}"
        )
        return ApprovalPending(
            f"{row.integration} {row.endpoint} waits for a person's approval ({row.rule} of "
            f"this {whose}'s policy): nothing is sent until they approve it at "
            f"{self.approve_url(row.id)}. {how}",
            extra={"approval": self.shown(row, utcnow())},
        )

    def approve_url(self, approval_id: str) -> str:
        return f"{self.upstream.policy.public.app}/approvals/{approval_id}"

    def poll_url(self, approval_id: str) -> str:
        return f"{self.upstream.policy.public.base}/v1/approvals/{approval_id}"

    def shown(self, row: Approval, now: Any) -> dict[str, Any]:
        """The approval as the agent and the person see it."""
        state = state_of(row, now)
        shown: dict[str, Any] = {
            "id": row.id,
            "state": state,
            "integration": row.integration,
            "endpoint": row.endpoint,
            "request": row.request,
            "rule": row.rule,
            "created_at": row.created_at.isoformat(),
            "expires_at": row.expires_at.isoformat(),
            "approve_url": self.approve_url(row.id),
            "poll_url": self.poll_url(row.id),
        }
        if row.decided_at is not None:
            shown["decided_at"] = row.decided_at.isoformat()
        if state in ("sent", "failed") and row.envelope is not None:
            shown["result"] = orjson.loads(row.envelope)
        return shown

    async def status(self, principal: Principal, approval_id: str, wait: int = 0) -> Any:
        """GET /v1/approvals/{id}[?wait=N]: the caller key's own approval; with `wait`,
        answered when it is no longer pending or after `wait` seconds (at most
        MAX_WAIT), reading the row every `poll_interval` (no worker is held: the
        request's coroutine sleeps)."""
        deadline = time.monotonic() + min(max(wait, 0), MAX_WAIT)
        while True:
            row = await self._own(principal, approval_id)
            now = utcnow()
            if state_of(row, now) != "pending" or time.monotonic() >= deadline:
                return self.shown(row, now)
            await asyncio.sleep(self.poll_interval)

    async def _own(self, principal: Principal, approval_id: str) -> Approval:
        async with self._sessionmaker() as session:
            row = await ApprovalRepository(session).get(approval_id[:32], principal.user_id)
        key_id = principal.key.key_id if principal.key is not None else None
        if row is None or (key_id is not None and row.key_id != key_id):
            raise NotFound("Approval not found.")
        return row

    # -- the person's side

    async def pending_for(self, user_id: str) -> list[dict[str, Any]]:
        now = utcnow()
        async with self._sessionmaker() as session:
            rows = await ApprovalRepository(session).pending_for(user_id, now)
        return [self.shown(r, now) for r in rows]

    async def view(self, user_id: str, approval_id: str) -> dict[str, Any]:
        """One approval of `user_id`, for the person (any of their keys)."""
        async with self._sessionmaker() as session:
            row = await ApprovalRepository(session).get(approval_id[:32], user_id)
        if row is None:
            raise NotFound("Approval not found.")
        return self.shown(row, utcnow())

    async def decide(self, approver: Principal, approval_id: str, approve: bool) -> dict[str, Any]:
        """Approve (and send) or deny; 404 for another user's approval, 409 when it is
        no longer pending. `approver`: a dashboard session, or an API key with the
        `approve` scope that is not the key that made the call."""
        who = approver_of(approver)
        row = await self._claim(approver, approval_id, approve, who)
        if approve:
            await self._send(row, who)
        else:
            self._decided(row, "approval_rejected", decided_by=who)
        return await self.view(approver.user_id, row.id)

    def _decided(
        self,
        row: Approval,
        error: str,
        *,
        decided_by: str | None = None,
        status: int | None = None,
        duration_ms: float = 0.0,
    ) -> None:
        """The execution log's row of a decision on a held call (docs/execution.md,
        "Audit"): approved (the send), rejected by a person, expired."""
        self.log.record(
            user_id=row.user_id,
            key_id=row.key_id,
            integration=row.integration,
            endpoint=row.endpoint,
            upstream_status=status,
            error=error,
            duration_ms=duration_ms,
            approval_id=row.id,
            decided_by=decided_by,
        )
        if tracing.SPANS is not None:
            tracing.span(
                "skillgate.approval.decide",
                {
                    "skillgate.integration": row.integration,
                    "skillgate.endpoint": row.endpoint,
                    "skillgate.decision": decision_of(error),
                    "skillgate.error": error,
                    "skillgate.approval_id": row.id,
                    "skillgate.decided_by": decided_by,
                    "skillgate.key_id": row.key_id,
                    "http.response.status_code": status,
                },
                duration_ms / 1000,
            )

    async def expire_overdue(self, user_id: str | None) -> int:
        """Move the user's (None: every user's) pending approvals past their time to
        `expired`, each announced to the person's webhook and logged
        once (one conditional UPDATE per row claims it, whichever instance sees it
        first); how many. Run before the user's log is read (the Activity page, the
        export) and when an agent meets an expired approval."""
        now = utcnow()
        announced = False
        async with self._sessionmaker() as session, session.begin():
            rows = await ApprovalRepository(session).expire(user_id, now)
            for row in rows:
                if await self.events.expired(session, row):
                    announced = True
        for row in rows:
            self._decided(row, "approval_expired", decided_by="timeout")
        if announced:
            self.events.kick()
        return len(rows)

    async def expire_all(self) -> int:
        """expire_overdue for every user (the delivery loop's sweep: an unanswered
        approval's `approval.expired` goes out even when nobody looks)."""
        return await self.expire_overdue(None)

    async def _claim(
        self, approver: Principal, approval_id: str, approve: bool, who: str
    ) -> Approval:
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = ApprovalRepository(session)
            row = await repo.get(approval_id[:32], approver.user_id)
            if row is None:
                raise NotFound("Approval not found.")
            if approver.key is not None and approver.key.key_id == row.key_id:
                raise ScopeNotAllowed("A key cannot approve a call it made.")
            state = "sending" if approve else "denied"
            if not await repo.move(row.id, row.user_id, state, now, decided_at=now, decided_by=who):
                raise Conflict(
                    f"The approval {row.id} is {state_of(row, now)}, no longer pending: "
                    "it was decided already, or it expired."
                )
            announced = not approve and await self.events.decided(session, row, "denied", who, now)
        if announced:
            self.events.kick()
        row.decided_at, row.decided_by = now, who  # as stored (the row is detached now)
        return row

    async def _send(self, row: Approval, who: str) -> None:
        """The approved request, rebuilt from the stored values, sent if it renders
        exactly as the person saw it; the envelope (or the gateway's error) stored, the
        call logged (error `approved`, or the gateway's code)."""
        started = time.perf_counter()
        error = "approved"
        try:
            run = await self._rebuilt(row)
            if await self.upstream.preview(run) != row.request:
                raise Conflict(
                    "The request would no longer be sent as approved (the catalog or the "
                    "connection changed); nothing was sent."
                )
            limit_headers = await self.upstream.spend(run.principal)
            outcome = await shaped.answer(self.upstream, run, limit_headers)
            state, status, body = "sent", outcome.upstream_status, outcome.body
        except SkillGateError as exc:
            state, status, body = "failed", 0, orjson.dumps({"status": 0, **exc.body()})
            error = exc.code
        elapsed = (time.perf_counter() - started) * 1000
        self._decided(row, error, decided_by=who, status=status or None, duration_ms=elapsed)
        async with self._sessionmaker() as session, session.begin():
            await ApprovalRepository(session).finish(
                row.id, state=state, upstream_status=status, envelope=body
            )
            decided_at = row.decided_at or utcnow()
            announced = await self.events.decided(
                session, row, state, who, decided_at, status or None
            )
        if announced:
            self.events.kick()

    async def _rebuilt(self, row: Approval) -> Run:
        """The held call's `Run`, for the key or the OAuth grant that made it (still
        live)."""
        async with self._sessionmaker() as session:
            found = await ApprovalRepository(session).get(row.id, row.user_id)
            principal = await maker_of(session, row.key_id)
        integration = self.catalog.get(row.integration)
        endpoint = self.catalog.endpoint(row.integration, row.endpoint)
        if found is None or principal is None or integration is None or endpoint is None:
            raise NotFound("The key or the endpoint of this approval no longer exists.")
        return Run(principal, integration, endpoint, dict(row.values))


def state_of(row: Approval, now: Any) -> str:
    """pending | expired | sending | sent | failed | denied (`expired` is computed until
    expire_overdue stores it)."""
    if row.state == "pending" and row.expires_at <= now:
        return "expired"
    return row.state
