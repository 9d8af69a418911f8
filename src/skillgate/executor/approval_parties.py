"""Who made a held call and who decides it (docs/execution.md, "Approvals"): the
maker as it would call now (its API key or OAuth grant, refused when revoked since),
and the approver as the approval records them (a dashboard session, or a key with the
`approve` scope)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.api_keys import scopes
from skillgate.api_keys.repository import ApiKeyRepository
from skillgate.db.base import utcnow
from skillgate.errors import ScopeNotAllowed
from skillgate.kit.principal import KeyIdentity, Principal, is_grant_id
from skillgate.mcpauth.repository import OAuthRepository
from skillgate.mcpauth.service import principal_of

APPROVE_SCOPE = scopes.APPROVE  # the scope a key needs to decide


async def maker_of(session: AsyncSession, credential_id: str) -> Principal | None:
    """Who made a held call, as it would call now: its API key or its OAuth grant (403
    when that was revoked or expired since), None when it is gone."""
    if is_grant_id(credential_id):
        grant = await OAuthRepository(session).grant_with_user(credential_id)
        if grant is None:
            return None
        if grant[0].revoked_at is not None:
            raise ScopeNotAllowed("The connected app that made this call was revoked.")
        return principal_of(*grant)
    pair = await ApiKeyRepository(session).key_with_user(credential_id)
    if pair is None:
        return None
    key, user = pair
    if not key.is_active(utcnow()):
        raise ScopeNotAllowed("The API key that made this call was revoked or expired.")
    return Principal.of_key(
        KeyIdentity(
            key_id=key.id, name=key.name, key_prefix=key.key_prefix,
            scopes=tuple(key.scopes), expires_at=key.expires_at, revoked=False,
            user_id=user.id, email=user.email, display_name=user.display_name,
            plan=user.plan, confirm=key.confirm,
        )
    )  # fmt: skip


def approver_of(principal: Principal) -> str:
    """Who decides, as the approval records it; 403 for a key without `approve`."""
    if principal.key is None:
        return f"{principal.via}:{principal.email}"
    if APPROVE_SCOPE not in principal.key.scopes:
        raise ScopeNotAllowed(
            "Deciding an approval needs your dashboard sign-in or an API key with the "
            f"{APPROVE_SCOPE!r} scope (created on the dashboard); an agent's key cannot."
        )
    return f"api_key:{principal.key.key_prefix}"
