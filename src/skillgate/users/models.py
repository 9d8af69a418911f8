from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.db.base import Base, UTCDateTime, new_id, utcnow

EMAIL_MAX = 320  # an address's longest (RFC 5321: 64 + @ + 255), as sign-in takes it


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("usr"))
    email: Mapped[str] = mapped_column(String(EMAIL_MAX), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    password_hash: Mapped[str] = mapped_column(String(255))
    plan: Mapped[str] = mapped_column(String(20), default="free")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"User(id={self.id!r}, plan={self.plan!r})"


class Webhook(Base):
    """A user's opt-in notification (docs/execution.md, "Approvals"): where a held call
    is announced, and its Standard Webhooks signing secret, sealed by the vault."""

    __tablename__ = "user_webhooks"

    user_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    url: Mapped[str] = mapped_column(String(2000))
    secret: Mapped[bytes] = mapped_column(LargeBinary)  # AES-GCM, bound to the user
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:  # never the secret
        return f"Webhook(user_id={self.user_id!r})"


class WebhookDelivery(Base):
    """One event for a user's webhook, kept until it is delivered (users.webhook): the
    body and `webhook-id` are fixed at creation, so every retry sends the same signed
    message; `attempts` and `next_attempt_at` drive the retries (a conditional UPDATE
    claims an attempt, so two instances never send the same attempt)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_due", "state", "next_attempt_at"),
        Index("ix_webhook_deliveries_user", "user_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("whd"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    event_type: Mapped[str] = mapped_column(String(40))
    msg_id: Mapped[str] = mapped_column(String(40))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    state: Mapped[str] = mapped_column(String(10))  # pending | delivered | failed | dropped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    last_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
