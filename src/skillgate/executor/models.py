"""The executor's own rows: confirmation tokens, idempotent calls, held approvals.

Neither holds a credential or a parameter value: a request is kept as the
SHA-256 digest of (key, integration, endpoint, validated params); an
idempotent call keeps the envelope the caller was answered with.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.db.base import Base, UTCDateTime


class Confirmation(Base):
    """A single-use token that lets one destructive request through (5 minutes)."""

    __tablename__ = "confirmations"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    digest: Mapped[str] = mapped_column(String(64))  # the request it was made for
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class IdempotentCall(Base):
    """One Idempotency-Key of one user: `pending` while the first call runs, then
    `done` with the envelope it answered (24 hours)."""

    __tablename__ = "idempotency_keys"

    user_id: Mapped[str] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(10))  # pending | done
    upstream_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    envelope: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class Approval(Base):
    """A call a key's (or an OAuth grant's) policy holds for a person
    (docs/execution.md, "Approvals"): the validated params and the request as the dry
    run renders it (credential redacted), `pending` until a person approves (then
    `sent`, or `failed` when the gateway could not send it) or denies it (`denied`), or
    it expires."""

    __tablename__ = "approvals"
    __table_args__ = (
        Index("ix_approvals_key_digest", "key_id", "digest"),
        Index("ix_approvals_user_state", "user_id", "state"),
        Index("ix_approvals_state_expires", "state", "expires_at"),  # the expiry sweep
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # The API key (`key_...`) or the OAuth grant (`grt_...`) that made the call.
    key_id: Mapped[str] = mapped_column(String(32))
    integration: Mapped[str] = mapped_column(String(64))
    endpoint: Mapped[str] = mapped_column(String(128))
    digest: Mapped[str] = mapped_column(String(64))  # (key, integration, endpoint, values)
    values: Mapped[dict[str, Any]] = mapped_column(JSON)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    rule: Mapped[str] = mapped_column(String(200))  # the rule that held it, as errors name it
    state: Mapped[str] = mapped_column(String(10))  # pending|sending|sent|failed|denied
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    upstream_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    envelope: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
