from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.connections.models import Connection, ConnectRequest


class ConnectionRepository:
    """Stored connections (credentials encrypted; see connections.sealed)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def statuses(self, user_id: str) -> dict[str, str]:
        result = await self.session.execute(
            select(Connection.integration, Connection.status).where(Connection.user_id == user_id)
        )
        return {row[0]: row[1] for row in result.all()}

    async def get(self, user_id: str, integration: str) -> Connection | None:
        result = await self.session.execute(
            select(Connection).where(
                Connection.user_id == user_id, Connection.integration == integration
            )
        )
        return result.scalar_one_or_none()

    async def get_for_update(self, connection_id: str) -> Connection | None:
        stmt = select(Connection).where(Connection.id == connection_id)
        if self.session.bind is not None and self.session.bind.dialect.name == "postgresql":
            stmt = stmt.with_for_update()
        result = await self.session.execute(stmt.execution_options(populate_existing=True))
        return result.scalar_one_or_none()

    async def list_for_user(self, user_id: str) -> Sequence[Connection]:
        result = await self.session.execute(
            select(Connection).where(Connection.user_id == user_id).order_by(Connection.integration)
        )
        return result.scalars().all()

    async def all(self) -> Sequence[Connection]:
        result = await self.session.execute(select(Connection).order_by(Connection.id))
        return result.scalars().all()

    async def add(self, connection: Connection) -> Connection:
        self.session.add(connection)
        await self.session.flush()
        return connection

    async def delete(self, connection: Connection) -> None:
        await self.session.delete(connection)
        await self.session.flush()


class ConnectRequestRepository:
    """Connect requests: started by `svc connect` or the dashboard, finished by OAuth or a
    pasted token (see connections.service)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, request: ConnectRequest) -> ConnectRequest:
        self.session.add(request)
        await self.session.flush()
        return request

    async def get(self, request_id: str) -> ConnectRequest | None:
        return await self.session.get(ConnectRequest, request_id)

    async def by_state_hash(self, state_hash: str) -> ConnectRequest | None:
        result = await self.session.execute(
            select(ConnectRequest).where(ConnectRequest.state_hash == state_hash)
        )
        return result.scalar_one_or_none()

    async def mark_connected(self, user_id: str, integration: str, now: datetime) -> None:
        """Every live pending request of the user for `integration` is now connected."""
        await self.session.execute(
            update(ConnectRequest)
            .where(
                ConnectRequest.user_id == user_id,
                ConnectRequest.integration == integration,
                ConnectRequest.status == "pending",
                ConnectRequest.expires_at > now,
            )
            .values(status="connected", code_verifier=None, state_hash=None)
        )
