"""The authorization server's tables. Codes and tokens are stored as HMAC digests only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from skillgate.db.base import Base, UTCDateTime, new_id, utcnow
from skillgate.kit.principal import GRANT_ID_PREFIX


class OAuthClient(Base):
    """A client registered by dynamic client registration (RFC 7591). Its secret, when
    it asked for one, is sealed by the vault (the SDK's client check compares it)."""

    __tablename__ = "oauth_clients"

    client_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    metadata_json: Mapped[dict[str, object]] = mapped_column(JSON)
    secret_sealed: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class OAuthGrant(Base):
    """A user's consent to one client: what its tokens may do, as an API key would."""

    __tablename__ = "oauth_grants"
    __table_args__ = (Index("ix_oauth_grants_user_id", "user_id"),)

    id: Mapped[str] = mapped_column(
        String(32), primary_key=True, default=lambda: new_id(GRANT_ID_PREFIX)
    )
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    client_id: Mapped[str] = mapped_column(String(2000))
    client_name: Mapped[str] = mapped_column(String(200))
    redirect_host: Mapped[str] = mapped_column(String(300))
    resource: Mapped[str] = mapped_column(String(2000))
    scopes: Mapped[list[str]] = mapped_column(JSON)
    confirm: Mapped[str] = mapped_column(String(16), default="destructive")
    # The grant's policy, as a key's (api_keys.policy; docs/execution.md): None, every
    # call in scope.
    policy: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)

    def __repr__(self) -> str:
        return f"OAuthGrant(id={self.id!r}, client={self.client_name!r})"


class OAuthCode(Base):
    """An authorization code: single use (`used_at`), short-lived, bound to the client,
    the redirect URI, the PKCE challenge and the resource."""

    __tablename__ = "oauth_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    grant_id: Mapped[str] = mapped_column(ForeignKey("oauth_grants.id", ondelete="CASCADE"))
    client_id: Mapped[str] = mapped_column(String(2000))
    redirect_uri: Mapped[str] = mapped_column(String(2000))
    redirect_uri_explicit: Mapped[bool] = mapped_column(default=True)
    code_challenge: Mapped[str] = mapped_column(String(128))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class OAuthToken(Base):
    """An access or refresh token of a grant. A refresh token is rotated once
    (`rotated_at`); re-sent within the grace window it is answered again, later it
    revokes the grant (a stolen copy in use)."""

    __tablename__ = "oauth_tokens"
    __table_args__ = (Index("ix_oauth_tokens_grant_id", "grant_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    grant_id: Mapped[str] = mapped_column(ForeignKey("oauth_grants.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))  # access | refresh
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    rotated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
