"""A user's opt-in notification webhook (docs/execution.md, "Notification webhook"):

    save(user, url)      check the URL (https; 400 naming `webhook_url`), make a new
                         Standard Webhooks secret, store it sealed by the vault; the
                         secret is returned once, to be shown once
    remove(user)         forget the URL and the secret
    enqueue(db, ...)     an event for the user's webhook, written in the caller's
                         transaction (`webhook_deliveries`): nothing is lost when the
                         receiver is down or this process stops; nothing is written for
                         a user without a webhook
    run_due()            one pass of the delivery loop: claim each due delivery (one
                         conditional UPDATE per attempt: two instances never send the
                         same attempt), POST it through the gateway's outbound (public
                         addresses only, 5 s), record the outcome; a failure is retried
                         after RETRY_DELAYS (the same `webhook-id` and body each time),
                         at most MAX_ATTEMPTS attempts, then `failed`

`start()` runs the loop every `interval` seconds and at once after `kick()`, its
`sweeps` once a minute; a failure is logged (never the secret or the URL's query)
and never reaches the caller. A user's events go to their URL only.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import orjson
import structlog
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from yarl import URL

from skillgate.db.base import new_id, utcnow
from skillgate.errors import SkillGateError
from skillgate.kit import webhooks
from skillgate.kit.outbound import Outbound, UpstreamRequest
from skillgate.kit.vault import Binding, Vault, VaultError
from skillgate.users.models import Webhook, WebhookDelivery
from skillgate.users.repository import DeliveryRepository, WebhookRepository

log = structlog.get_logger(__name__)
TIMEOUT = 5.0  # seconds a receiver has to answer
SERVICE = "the notification webhook"
RETRY_DELAYS = (10, 60, 300, 1800, 7200)  # seconds after the 1st, 2nd, ... failed attempt
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
LEASE = 60  # seconds a claimed attempt is its claimer's before it is due again
BATCH = 50  # deliveries one pass takes
SWEEP_SECONDS = 60.0  # how often the loop runs its sweeps (expired approvals)


def _binding(user_id: str) -> Binding:
    return Binding(connection_id="webhook", user_id=user_id, integration="webhook")


class Webhooks:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        vault: Vault,
        outbound: Outbound,
        *,
        allow_loopback: bool = False,
        interval: float = 5.0,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._vault = vault
        self._outbound = outbound
        self.allow_loopback = allow_loopback  # tests only (settings refuse it in production)
        self.interval = interval
        # What a pass runs first, once every SWEEP_SECONDS (the composition root adds
        # the sweep that expires overdue approvals, whose events this loop delivers).
        self.sweeps: list[Callable[[], Awaitable[Any]]] = []
        self._swept = time.monotonic()  # the first sweep a minute after start
        self._pass_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # -- the settings

    async def get(self, user_id: str) -> Webhook | None:
        async with self._sessionmaker() as session:
            return await WebhookRepository(session).get(user_id)

    async def url_of(self, user_id: str) -> str | None:
        row = await self.get(user_id)
        return row.url if row is not None else None

    async def save(self, user_id: str, url: str) -> str:
        """The new signing secret (the only time it is readable)."""
        url = webhooks.check_url(url, allow_loopback=self.allow_loopback)
        secret = webhooks.new_secret()
        sealed = self._vault.seal({"secret": secret}, _binding(user_id))
        async with self._sessionmaker() as session, session.begin():
            await WebhookRepository(session).replace(
                Webhook(user_id=user_id, url=url, secret=sealed, created_at=utcnow())
            )
        return secret

    async def remove(self, user_id: str) -> bool:
        async with self._sessionmaker() as session, session.begin():
            return await WebhookRepository(session).remove(user_id)

    async def last_delivery(self, user_id: str) -> WebhookDelivery | None:
        async with self._sessionmaker() as session:
            return await DeliveryRepository(session).last_of(user_id)

    # -- events

    async def enqueue(
        self, session: AsyncSession, user_id: str, event_type: str, data: dict[str, Any]
    ) -> bool:
        """Store the event for the user's webhook in `session`'s transaction (the caller
        commits, then `kick`s); False for a user without a webhook (nothing stored)."""
        if await WebhookRepository(session).get(user_id) is None:
            return False
        now = utcnow()
        stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
        body = orjson.dumps({"type": event_type, "timestamp": stamp, "data": data})
        await DeliveryRepository(session).add(
            WebhookDelivery(
                id=new_id("whd"),
                user_id=user_id,
                event_type=event_type,
                msg_id=webhooks.new_message_id(),
                body=body,
                state="pending",
                attempts=0,
                next_attempt_at=now,
                created_at=now,
            )
        )
        return True

    def kick(self) -> None:
        """Run the loop's next pass now (after an event was committed)."""
        self._wake.set()

    # -- the delivery loop

    def start(self) -> None:
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="webhook-deliveries")

    async def close(self) -> None:
        """Stop the loop after the pass under way (what is left is sent after a restart)."""
        if self._task is not None:
            self._stop.set()
            self._wake.set()
            await self._task
            self._task = None

    async def drain(self) -> int:
        """One pass now, its sweeps included, after the pass under way (tests, and
        operators' tooling)."""
        return await self.run_due(sweep=True)

    async def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                await self.run_due()
            except Exception as exc:  # a background loop: nothing above it to tell
                log.warning("webhook pass failed", why=type(exc).__name__)

    async def run_due(self, *, sweep: bool = False) -> int:
        """Claim and send the due deliveries (after the sweeps, when `sweep` or once
        SWEEP_SECONDS passed since the last); how many were attempted."""
        async with self._pass_lock:
            if sweep or time.monotonic() - self._swept >= SWEEP_SECONDS:
                self._swept = time.monotonic()
                for step in self.sweeps:
                    await step()
            now = utcnow()
            async with self._sessionmaker() as session:
                due = await DeliveryRepository(session).due(now, BATCH)
            sent = 0
            for delivery_id, attempts in due:
                if await self._attempt(delivery_id, attempts):
                    sent += 1
            return sent

    async def _attempt(self, delivery_id: str, attempts: int) -> bool:
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = DeliveryRepository(session)
            row = await repo.claim(delivery_id, attempts, now, now + timedelta(seconds=LEASE))
            hook = None if row is None else await WebhookRepository(session).get(row.user_id)
            if row is not None and hook is None:  # the user stopped notifications since
                await repo.record(row.id, state="dropped", next_attempt_at=now)
                return False
        if row is None or hook is None:
            return False  # another instance (or pass) has this attempt
        status, error = await self._post(row, hook)
        await self._record(row, status, error)
        return True

    async def _post(self, row: WebhookDelivery, hook: Webhook) -> tuple[int | None, str | None]:
        """The receiver's status, or None and why it was not reached."""
        try:
            secret = str(self._vault.open(hook.secret, _binding(row.user_id))["secret"])
            request = UpstreamRequest(
                "POST", hook.url, webhooks.signed_headers(secret, row.body, row.msg_id), row.body
            )
            answer = await self._outbound.send(
                request,
                connect_timeout=TIMEOUT,
                total_timeout=TIMEOUT,
                max_bytes=64 * 1024,
                service=SERVICE,
                private_network=self.allow_loopback
                and webhooks.is_loopback(URL(hook.url).host or ""),
            )
        except (SkillGateError, VaultError) as exc:
            log.warning("webhook not delivered", user_id=row.user_id, msg_id=row.msg_id,
                        attempt=row.attempts, why=str(exc))  # fmt: skip
            return None, str(exc)[:200]
        if answer.status >= 300:
            log.warning("webhook refused", user_id=row.user_id, msg_id=row.msg_id,
                        attempt=row.attempts, status=answer.status)  # fmt: skip
        return answer.status, None

    async def _record(self, row: WebhookDelivery, status: int | None, error: str | None) -> None:
        now = utcnow()
        values: dict[str, Any] = {"last_status": status, "last_error": error}
        if status is not None and 200 <= status < 300:
            values.update(state="delivered", next_attempt_at=now)
        elif row.attempts >= MAX_ATTEMPTS:
            values.update(state="failed", next_attempt_at=now)
        else:
            delay = RETRY_DELAYS[row.attempts - 1]
            values.update(next_attempt_at=now + timedelta(seconds=delay))
        async with self._sessionmaker() as session, session.begin():
            await DeliveryRepository(session).record(row.id, **values)


def shown(row: WebhookDelivery | None) -> dict[str, Any] | None:
    """A delivery as the Approvals page and GET /notification-webhook show it."""
    if row is None:
        return None
    return {
        "id": row.id,
        "event": row.event_type,
        "webhook_id": row.msg_id,
        "state": row.state,
        "attempts": row.attempts,
        "last_status": row.last_status,
        "last_error": row.last_error,
        "last_attempt_at": row.last_attempt_at.isoformat() if row.last_attempt_at else None,
        "next_attempt_at": row.next_attempt_at.isoformat() if row.state == "pending" else None,
        "created_at": row.created_at.isoformat(),
    }
