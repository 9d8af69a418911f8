"""The /oauth-grants API's answers: a user's connected apps and a grant's policy."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

from skillgate.mcpauth.models import OAuthGrant


class GrantOut(BaseModel):
    """A connected app (an OAuth grant) as GET /oauth-grants lists it."""

    id: str
    client_name: str
    redirect_host: str
    scopes: list[str]
    confirm: str
    has_policy: bool
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None

    @classmethod
    def of(cls, grant: OAuthGrant) -> GrantOut:
        return cls(
            id=grant.id,
            client_name=grant.client_name,
            redirect_host=grant.redirect_host,
            scopes=list(grant.scopes),
            confirm=grant.confirm,
            has_policy=grant.policy is not None,
            created_at=grant.created_at,
            last_used_at=grant.last_used_at,
            revoked_at=grant.revoked_at,
        )


class GrantPolicy(BaseModel):
    """GET/PUT /oauth-grants/{id}/policy: the grant's policy document, null without one."""

    grant_id: str
    policy: dict[str, Any] | None
