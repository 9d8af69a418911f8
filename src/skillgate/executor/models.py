"""The executor's own rows: confirmation tokens and idempotent calls.

Neither holds a credential or a parameter value: a request is kept as the
SHA-256 digest of (key, integration, endpoint, validated params); an
idempotent call keeps the envelope the caller was answered with.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, LargeBinary, String
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
