from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.catalog.models import NAME_MAX, SLUG_MAX
from skillgate.db.base import Base, UTCDateTime


class Execution(Base):
    """Who called what, and how it went. Never parameter values, never tokens."""

    __tablename__ = "executions"
    __table_args__ = (Index("ix_executions_user_created", "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    key_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    integration: Mapped[str] = mapped_column(String(SLUG_MAX))
    endpoint: Mapped[str] = mapped_column(String(NAME_MAX))
    upstream_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(String(64), nullable=True)
    duration_ms: Mapped[int] = mapped_column(Integer)
    # A decision on a held call (docs/execution.md, "Audit"): the approval it concerns
    # and who decided it ("session:<email>" or "api_key:<prefix>", never a secret).
    approval_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
