from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, LargeBinary, String
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
