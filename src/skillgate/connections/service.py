"""Storing, reading and removing connections. Services flush; the caller commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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


def binding_of(connection: Connection) -> Binding:
    return Binding(connection.id, connection.user_id, connection.integration)


@dataclass(frozen=True)
class ActiveConnection:
    """What the executor needs of a connection, decrypted once and cached briefly."""

    id: str
    user_id: str
    integration: str
    auth_type: str
    status: str
    credentials: Credentials


class ConnectionService:
    def __init__(self, session: AsyncSession, vault: Vault) -> None:
        self.session = session
        self.vault = vault
        self.repo = ConnectionRepository(session)

    async def store(
        self,
        user_id: str,
        integration: str,
        auth_type: str,
        credentials: Credentials,
        *,
        scopes: Sequence[str] = (),
        account: str | None = None,
    ) -> Connection:
        """Create or replace the user's connection to `integration`."""
        connection = await self.repo.get(user_id, integration)
        now = utcnow()
        if connection is None:
            connection = Connection(
                id=new_id("con"),
                user_id=user_id,
                integration=integration,
                created_at=now,
            )
            fresh = True
        else:
            fresh = False
        connection.auth_type = auth_type
        connection.status = "connected"
        connection.scopes = list(scopes)
        connection.account = account
        connection.token_expires_at = _expiry(credentials)
        connection.updated_at = now
        connection.credentials = self.vault.seal(credentials.to_dict(), binding_of(connection))
        if fresh:
            await self.repo.add(connection)
        else:
            await self.session.flush()
        return connection

    def open(self, connection: Connection) -> Credentials:
        return Credentials.from_dict(
            self.vault.open(connection.credentials, binding_of(connection))
        )

    def replace_credentials(self, connection: Connection, credentials: Credentials) -> None:
        connection.credentials = self.vault.seal(credentials.to_dict(), binding_of(connection))
        connection.token_expires_at = _expiry(credentials)
        connection.status = "connected"
        connection.updated_at = utcnow()

    async def active(self, user_id: str, integration: str) -> ActiveConnection | None:
        connection = await self.repo.get(user_id, integration)
        if connection is None:
            return None
        try:
            credentials = self.open(connection)
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
        )

    async def disconnect(self, user_id: str, integration: str) -> None:
        connection = await self.repo.get(user_id, integration)
        if connection is None:
            raise NotFound(f"No {integration!r} connection to remove.")
        await self.repo.delete(connection)

    async def list(self, user_id: str) -> Sequence[Connection]:
        return await self.repo.list_for_user(user_id)

    async def reencrypt_all(self) -> int:
        """Re-seal every ciphertext not under the current key; returns how many moved."""
        moved = 0
        for connection in await self.repo.all():
            if self.vault.needs_rotation(connection.credentials):
                data = self.vault.open(connection.credentials, binding_of(connection))
                connection.credentials = self.vault.seal(data, binding_of(connection))
                moved += 1
        await self.session.flush()
        return moved


def _expiry(credentials: Credentials) -> datetime | None:
    if credentials.expires_at is None:
        return None
    return datetime.fromtimestamp(credentials.expires_at, tz=utcnow().tzinfo)
