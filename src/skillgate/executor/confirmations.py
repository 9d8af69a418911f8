"""Confirmation of destructive calls: which calls need it, and the single-use tokens.

A key's policy (`api_keys.confirm`) says which calls need a token: `destructive`
(the catalog's `destructive` endpoints), `writes` (every endpoint that changes
data) or `never`. A call that needs one and has none is answered 409 with a
preview and a token bound to that exact request: the SHA-256 of (key,
integration, endpoint, validated params). The token is stored as its own
SHA-256, valid `TTL` seconds, and redeemed by one conditional UPDATE, so it is
single-use across every instance sharing the database.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from skillgate.catalog.models import Endpoint
from skillgate.db.base import utcnow
from skillgate.errors import ConfirmationInvalid
from skillgate.executor.models import Confirmation
from skillgate.executor.repository import ConfirmationRepository

TTL = 300


def needs_confirmation(policy: str, endpoint: Endpoint) -> bool:
    if policy == "never":
        return False
    if policy == "writes":
        return endpoint.mutates
    return endpoint.destructive is True


def request_digest(*parts: Any) -> str:
    """A stable digest of a request's parts (dict keys sorted; big integers allowed)."""
    try:
        data = orjson.dumps(parts, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # integers beyond 64 bits
        data = json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(data).hexdigest()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Confirmations:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def issue(self, user_id: str, digest: str) -> str:
        """A new token for the request `digest`; expired tokens are purged on the way."""
        token = "cf_" + secrets.token_urlsafe(24)
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = ConfirmationRepository(session)
            await repo.purge_expired_before(now - timedelta(hours=1))
            await repo.insert(
                Confirmation(
                    token_hash=_hash(token),
                    user_id=user_id,
                    digest=digest,
                    created_at=now,
                    expires_at=now + timedelta(seconds=TTL),
                )
            )
        return token

    async def redeem(self, user_id: str, token: str, digest: str) -> None:
        """Use the token for the request `digest`, or say why it cannot be used."""
        now = utcnow()
        async with self._sessionmaker() as session, session.begin():
            repo = ConfirmationRepository(session)
            if await repo.redeem(_hash(token), user_id, digest, now):
                return
            row = await repo.find(_hash(token), user_id)
        if row is None:
            why = "is unknown"
        elif row.used_at is not None:
            why = "was already used (a token confirms one call)"
        elif row.expires_at <= now:
            why = f"expired (tokens are valid {TTL // 60} minutes)"
        else:
            why = "was made for another request (a different key, endpoint or params)"
        raise ConfirmationInvalid(
            f"The confirmation token {why}: send the call without `confirm` to get a new "
            "preview and token."
        )
