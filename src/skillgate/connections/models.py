from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.db.base import Base, UTCDateTime, new_id, utcnow


class Connection(Base):
    """One user's credentials for one integration.

    `credentials` is AES-GCM ciphertext (see `skillgate.kit.vault`) bound to
    this row's id, user and integration; nothing else here is secret.
    status: `connected`, or `reconnect_required` after a refresh was refused.
    """

    __tablename__ = "connections"
    __table_args__ = (UniqueConstraint("user_id", "integration"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("con"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    integration: Mapped[str] = mapped_column(String(40))
    auth_type: Mapped[str] = mapped_column(String(20))  # oauth2 | token
    status: Mapped[str] = mapped_column(String(30), default="connected")
    credentials: Mapped[bytes] = mapped_column(LargeBinary)
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    account: Mapped[str | None] = mapped_column(String(200), nullable=True)
    token_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    # The integration's connection variables as the user gave them (catalog.hosts):
    # not secret, per user (`{"domain": "acme"}` for acme.atlassian.net).
    variables: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:  # never the credentials
        return (
            f"Connection(id={self.id!r}, integration={self.integration!r}, status={self.status!r})"
        )


class ConnectRequest(Base):
    """One attempt to connect an integration: started by `svc connect` or the dashboard.

    Also holds the OAuth `state` (hashed) and PKCE verifier while the user is
    at the provider. status: pending, connected, failed (expired is derived).
    """

    __tablename__ = "connect_requests"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=lambda: new_id("cnr"))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    integration: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    state_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    code_verifier: Mapped[str | None] = mapped_column(String(128), nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # Connection variables given with the request (`svc connect --set domain=acme`),
    # checked; stored with the connection it completes.
    variables: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    # The OAuth scopes the authorization asked for (a scope set added on demand included).
    scopes: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    def __repr__(self) -> str:
        return f"ConnectRequest(id={self.id!r}, status={self.status!r})"
