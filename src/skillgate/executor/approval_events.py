"""What a held call's person hears of it: the `approval.pending`, `approval.decided` and
`approval.expired` events for their webhook (users.webhook; docs/execution.md,
"Notification webhook"). Each is stored in the transaction of the change it announces;
after that transaction commits, `kick` wakes the delivery loop."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.executor.models import Approval
from skillgate.users.webhook import Webhooks


class ApprovalEvents:
    def __init__(self, webhooks: Webhooks | None, approve_url: Callable[[str], str]) -> None:
        self.webhooks = webhooks  # None: no notifications (tooling, tests)
        self._approve_url = approve_url

    async def pending(self, session: AsyncSession, row: Approval) -> bool:
        return await self._event(
            session, row, "approval.pending", expires_at=row.expires_at.isoformat()
        )

    async def expired(self, session: AsyncSession, row: Approval) -> bool:
        return await self._event(
            session, row, "approval.expired", expired_at=row.expires_at.isoformat()
        )

    async def decided(
        self, session: AsyncSession, row: Approval, state: str, who: str, when: datetime,
        status: int | None = None,
    ) -> bool:  # fmt: skip
        """Approved (`state` sent or failed) or denied, by whom."""
        return await self._event(
            session, row, "approval.decided",
            decision="denied" if state == "denied" else "approved", state=state,
            decided_by=who, decided_at=when.isoformat(), upstream_status=status,
        )  # fmt: skip

    def kick(self) -> None:
        """After the commit of a transaction that stored an event: send it now."""
        if self.webhooks is not None:
            self.webhooks.kick()

    async def _event(self, session: AsyncSession, row: Approval, event: str, **extra: Any) -> bool:
        """`event` for the person's webhook, if they set one (False: nothing stored).
        `extra`: the event's own fields."""
        if self.webhooks is None:
            return False
        data: dict[str, Any] = {
            "approval_id": row.id,
            "integration": row.integration,
            "endpoint": row.endpoint,
            "method": row.request.get("method"),
            "url": row.request.get("url"),  # as the dry run shows it, credential redacted
            "approve_url": self._approve_url(row.id),
            **extra,
        }
        return await self.webhooks.enqueue(session, row.user_id, event, data)
