"""A user's opt-in notification webhook (docs/execution.md, "Approvals"):

    save(user, url)      check the URL (https; 400 naming `webhook_url`), make a new
                         Standard Webhooks secret, store it sealed by the vault; the
                         secret is returned once, to be shown once
    remove(user)         forget the URL and the secret
    notify(user, ...)    fire and forget: a background task POSTs the signed event
                         through the gateway's outbound (public addresses only, 5 s);
                         a failure is logged (never the secret or the URL's query) and
                         never reaches the caller

Nothing is sent for a user without a webhook; a user's events go to their URL only.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import orjson
import structlog
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from yarl import URL

from skillgate.errors import SkillGateError
from skillgate.kit import webhooks
from skillgate.kit.outbound import Outbound, UpstreamRequest
from skillgate.kit.vault import Binding, Vault, VaultError
from skillgate.users.models import Webhook
from skillgate.users.repository import WebhookRepository

log = structlog.get_logger(__name__)
TIMEOUT = 5.0  # seconds a receiver has to answer
SERVICE = "the notification webhook"


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
    ) -> None:
        self._sessionmaker = sessionmaker
        self._vault = vault
        self._outbound = outbound
        self.allow_loopback = allow_loopback  # tests only (settings refuse it in production)
        self._tasks: set[asyncio.Task[None]] = set()

    async def url_of(self, user_id: str) -> str | None:
        async with self._sessionmaker() as session:
            row = await WebhookRepository(session).get(user_id)
        return row.url if row is not None else None

    async def save(self, user_id: str, url: str) -> str:
        """The new signing secret (the only time it is readable)."""
        url = webhooks.check_url(url, allow_loopback=self.allow_loopback)
        secret = webhooks.new_secret()
        sealed = self._vault.seal({"secret": secret}, _binding(user_id))
        async with self._sessionmaker() as session, session.begin():
            await WebhookRepository(session).replace(
                Webhook(user_id=user_id, url=url, secret=sealed)
            )
        return secret

    async def remove(self, user_id: str) -> bool:
        async with self._sessionmaker() as session, session.begin():
            return await WebhookRepository(session).remove(user_id)

    def notify(self, user_id: str, event_type: str, data: dict[str, Any]) -> None:
        """Send the event in the background; the caller does not wait for it."""
        task = asyncio.create_task(self._deliver(user_id, event_type, data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the notifications under way (at shutdown, and in tests)."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _deliver(self, user_id: str, event_type: str, data: dict[str, Any]) -> None:
        try:
            await self._send(user_id, event_type, data)
        except Exception as exc:  # a background task: nothing above it to tell
            log.warning("webhook not delivered", user_id=user_id, why=type(exc).__name__)

    async def _send(self, user_id: str, event_type: str, data: dict[str, Any]) -> None:
        async with self._sessionmaker() as session:
            row = await WebhookRepository(session).get(user_id)
        if row is None:
            return  # not opted in
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        body = orjson.dumps({"type": event_type, "timestamp": stamp, "data": data})
        msg_id = "msg_" + os.urandom(12).hex()
        try:
            secret = str(self._vault.open(row.secret, _binding(user_id))["secret"])
            request = UpstreamRequest(
                "POST", row.url, webhooks.signed_headers(secret, body, msg_id), body
            )
            answer = await self._outbound.send(
                request,
                connect_timeout=TIMEOUT,
                total_timeout=TIMEOUT,
                max_bytes=64 * 1024,
                service=SERVICE,
                private_network=self.allow_loopback
                and webhooks.is_loopback(URL(row.url).host or ""),
            )
        except (SkillGateError, VaultError) as exc:
            log.warning("webhook not delivered", user_id=user_id, msg_id=msg_id, why=str(exc))
            return
        if answer.status >= 300:
            log.warning("webhook refused", user_id=user_id, msg_id=msg_id, status=answer.status)
