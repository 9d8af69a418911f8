"""Stored connections: the row and its credentials, sealed to it in the vault.

The ciphertext is bound to (connection id, user, integration): copied to another
row it does not open. These functions work on a session and know no cache: the
connections service (connections.service) adds the cache invalidation a server
needs; the credential cache, the token refresher and the operator CLI use them
directly. They flush; the caller commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.connections.credentials import Credentials
from skillgate.connections.models import Connection
from skillgate.connections.repository import ConnectionRepository
from skillgate.db.base import new_id, utcnow
from skillgate.errors import NotFound
from skillgate.kit.vault import Binding, Vault, VaultError

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class ActiveConnection:
    """What the executor needs of a connection, decrypted once and cached briefly."""

    id: str
    user_id: str
    integration: str
    auth_type: str
    status: str
    credentials: Credentials
    # The connection variables the user gave (catalog.hosts), filled into the hosts.
    variables: Mapping[str, str] = field(default_factory=dict)
    # What the provider granted an OAuth connection (empty when unknown: a pasted token).
    scopes: tuple[str, ...] = ()


def binding_of(connection: Connection) -> Binding:
    return Binding(connection.id, connection.user_id, connection.integration)


def open_credentials(vault: Vault, connection: Connection) -> Credentials:
    return Credentials.from_dict(vault.open(connection.credentials, binding_of(connection)))


def seal_credentials(
    vault: Vault, connection: Connection, credentials: Credentials, now: datetime | None = None
) -> None:
    """Store `credentials` on the row (encrypted); the connection is usable again."""
    connection.credentials = vault.seal(credentials.to_dict(), binding_of(connection))
    connection.token_expires_at = _expiry(credentials)
    connection.status = "connected"
    connection.updated_at = now or utcnow()


async def store(
    session: AsyncSession,
    vault: Vault,
    user_id: str,
    integration: str,
    auth_type: str,
    credentials: Credentials,
    *,
    scopes: Sequence[str] = (),
    account: str | None = None,
    variables: Mapping[str, str] | None = None,
) -> Connection:
    """Create or replace the user's connection to `integration`."""
    repo = ConnectionRepository(session)
    connection = await repo.get(user_id, integration)
    now = utcnow()
    fresh = connection is None
    if connection is None:
        connection = Connection(
            id=new_id("con"), user_id=user_id, integration=integration, created_at=now
        )
    connection.auth_type = auth_type
    connection.scopes = list(scopes)
    connection.account = account
    connection.variables = dict(variables or {})
    seal_credentials(vault, connection, credentials, now)
    if fresh:
        await repo.add(connection)
    else:
        await session.flush()
    return connection


async def remove(session: AsyncSession, user_id: str, integration: str) -> None:
    """Delete the user's connection to `integration`; NotFound when there is none."""
    repo = ConnectionRepository(session)
    connection = await repo.get(user_id, integration)
    if connection is None:
        raise NotFound(f"No {integration!r} connection to remove.")
    await repo.delete(connection)


async def reencrypt_all(session: AsyncSession, vault: Vault) -> int:
    """Re-seal every ciphertext not under the current key; returns how many moved."""
    moved = 0
    for connection in await ConnectionRepository(session).all():
        if vault.needs_rotation(connection.credentials):
            data = vault.open(connection.credentials, binding_of(connection))
            connection.credentials = vault.seal(data, binding_of(connection))
            moved += 1
    await session.flush()
    return moved


def active_of(vault: Vault, connection: Connection) -> ActiveConnection:
    try:
        credentials = open_credentials(vault, connection)
        status = connection.status
    except VaultError:
        # Copied from another row, or SKILLGATE_ENCRYPTION_KEYS lost the key: unusable.
        log.error("stored credentials cannot be decrypted", connection=connection.id)
        credentials, status = Credentials(access_token=""), "undecryptable"
    return ActiveConnection(
        id=connection.id,
        user_id=connection.user_id,
        integration=connection.integration,
        auth_type=connection.auth_type,
        status=status,
        credentials=credentials,
        variables=dict(connection.variables or {}),
        scopes=tuple(connection.scopes or ()),
    )


def _expiry(credentials: Credentials) -> datetime | None:
    if credentials.expires_at is None:
        return None
    return datetime.fromtimestamp(credentials.expires_at, tz=utcnow().tzinfo)
