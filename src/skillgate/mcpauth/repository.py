"""The queries of the authorization server (`oauth_*` tables)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.mcpauth.models import OAuthClient, OAuthCode, OAuthGrant, OAuthToken
from skillgate.users.models import User


class OAuthRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, *rows: object) -> None:
        self.session.add_all(rows)
        await self.session.flush()

    async def client(self, client_id: str) -> OAuthClient | None:
        return await self.session.get(OAuthClient, client_id)

    async def grant(self, grant_id: str) -> OAuthGrant | None:
        return await self.session.get(OAuthGrant, grant_id)

    async def grant_with_user(self, grant_id: str) -> tuple[OAuthGrant, User] | None:
        found = await self.session.execute(
            select(OAuthGrant, User)
            .join(User, User.id == OAuthGrant.user_id)
            .where(OAuthGrant.id == grant_id)
        )
        row = found.one_or_none()
        return None if row is None else (row[0], row[1])

    async def owned_grant(self, user_id: str, grant_id: str) -> OAuthGrant | None:
        found = await self.session.execute(
            select(OAuthGrant).where(OAuthGrant.id == grant_id, OAuthGrant.user_id == user_id)
        )
        return found.scalar_one_or_none()

    async def grants_of(self, user_id: str) -> Sequence[OAuthGrant]:
        found = await self.session.execute(
            select(OAuthGrant)
            .where(OAuthGrant.user_id == user_id)
            .order_by(OAuthGrant.created_at.desc())
        )
        return found.scalars().all()

    async def take_code(self, digest: str, now: datetime) -> OAuthCode | None:
        """The unused, unexpired code of `digest`, marked used in the same step (one
        conditional UPDATE: of two concurrent exchanges, one wins)."""
        done = await self.session.execute(
            update(OAuthCode)
            .where(
                OAuthCode.code_hash == digest,
                OAuthCode.used_at.is_(None),
                OAuthCode.expires_at > now,
            )
            .values(used_at=now)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return await self.session.get(OAuthCode, digest)

    async def code(self, digest: str) -> OAuthCode | None:
        return await self.session.get(OAuthCode, digest)

    async def token_with_grant(
        self, digest: str, kind: str
    ) -> tuple[OAuthToken, OAuthGrant, User] | None:
        found = await self.session.execute(
            select(OAuthToken, OAuthGrant, User)
            .join(OAuthGrant, OAuthGrant.id == OAuthToken.grant_id)
            .join(User, User.id == OAuthGrant.user_id)
            .where(OAuthToken.token_hash == digest, OAuthToken.kind == kind)
        )
        row = found.one_or_none()
        return None if row is None else (row[0], row[1], row[2])

    async def rotate(self, digest: str, now: datetime) -> bool:
        """Mark a refresh token rotated; False when it already was (another request won)."""
        done = await self.session.execute(
            update(OAuthToken)
            .where(OAuthToken.token_hash == digest, OAuthToken.rotated_at.is_(None))
            .values(rotated_at=now)
        )
        return done.rowcount == 1  # type: ignore[attr-defined,no-any-return]

    async def revoke_grant(self, grant_id: str, now: datetime) -> None:
        await self.session.execute(
            update(OAuthGrant)
            .where(OAuthGrant.id == grant_id, OAuthGrant.revoked_at.is_(None))
            .values(revoked_at=now)
        )
        await self.session.execute(delete(OAuthToken).where(OAuthToken.grant_id == grant_id))

    async def touch(self, grant_id: str, now: datetime) -> None:
        await self.session.execute(
            update(OAuthGrant).where(OAuthGrant.id == grant_id).values(last_used_at=now)
        )

    async def purge_expired(self, now: datetime) -> None:
        await self.session.execute(delete(OAuthCode).where(OAuthCode.expires_at < now))
        await self.session.execute(delete(OAuthToken).where(OAuthToken.expires_at < now))
