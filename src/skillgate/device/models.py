from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.db.base import Base, UTCDateTime, new_id, utcnow


class DeviceCode(Base):
    """One device authorization. Both codes are stored as SHA-256 digests only.

    status: pending -> denied (final), or pending -> authorized (a signed-in user
    approved) -> consumed (the first `complete` poll); expiry is derived from
    `expires_at`. `api_key_sealed`

    holds, encrypted and only until that poll, a key created for the device.
    """

    __tablename__ = "device_codes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("dev"))
    device_code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    client_name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    status: Mapped[str] = mapped_column(String(20), default="pending")
    user_id: Mapped[str | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True
    )
    api_key_sealed: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    interval: Mapped[int] = mapped_column(Integer, default=5)
    last_polled_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)

    # Set by the service after a lookup (the code the user typed, normalised).
    user_code_display: str = ""

    def __repr__(self) -> str:
        return f"DeviceCode(id={self.id!r}, status={self.status!r})"
