"""Token refresh: proactive, after a 401, single-flight, rotation, refusal."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import select

from skillgate.connections import stored
from skillgate.connections.credentials import Credentials
from skillgate.connections.models import Connection
from skillgate.connections.service import Connections
from skillgate.db.session import commit
from tests.conftest import Harness
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


async def connect_oauth(harness: Harness, provider: Provider, *, expired: bool) -> Credentials:
    """Store an OAuth connection whose refresh token the provider knows."""
    tokens = provider.new_tokens()
    creds = Credentials(
        access_token="at-stale" if expired else tokens["access_token"],
        refresh_token=tokens["refresh_token"],
        expires_at=time.time() - 10 if expired else time.time() + 3600,
    )
    async with harness.sessionmaker() as s:
        from skillgate.users.models import User

        user = (await s.execute(select(User))).scalars().first()
        assert user is not None
        # The service drops this instance's cached credentials once the commit is done.
        await harness.service(Connections).store(s, user.id, "oauthy", "oauth2", creds)
        await commit(s)
    return creds


async def _stored(harness: Harness) -> tuple[Connection, Credentials]:
    async with harness.sessionmaker() as s:
        row = (
            await s.execute(select(Connection).where(Connection.integration == "oauthy"))
        ).scalar_one()
        return row, stored.open_credentials(harness.vault, row)


async def test_twenty_concurrent_calls_refresh_once(harness: Harness, provider: Provider) -> None:
    await harness.user(plan="unlimited")
    full, _ = await harness.key()
    old = await connect_oauth(harness, provider, expired=True)
    responses = await asyncio.gather(
        *(harness.run(full, "oauthy", "get_thing", thing_id=f"t{i}") for i in range(20))
    )
    assert [r.json()["status"] for r in responses] == [200] * 20
    refreshes = [t for t in provider.token_requests if t.get("grant_type") == "refresh_token"]
    assert len(refreshes) == 1
    assert refreshes[0]["refresh_token"] == old.refresh_token
    assert refreshes[0]["client_id"] == "client-123"
    _, stored = await _stored(harness)
    assert stored.refresh_token != old.refresh_token  # the rotated one
    assert stored.refresh_token in provider.refresh_tokens
    assert stored.access_token in provider.valid_tokens
    sent = {r.headers["authorization"] for r in provider.api_requests()}
    assert sent == {f"Bearer {stored.access_token}"}


async def test_upstream_401_refreshes_once_and_retries(
    harness: Harness, provider: Provider
) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    creds = await connect_oauth(harness, provider, expired=False)
    provider.valid_tokens.discard(creds.access_token)  # revoked upstream, not yet expired
    r = await harness.run(full, "oauthy", "get_thing", thing_id="t1")
    assert r.json()["status"] == 200
    assert len(provider.token_requests) == 1
    auths = [r.headers["authorization"] for r in provider.api_requests()]
    assert auths[0] == f"Bearer {creds.access_token}"
    assert len(auths) == 2


async def test_invalid_grant_marks_for_reconnection(harness: Harness, provider: Provider) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    await connect_oauth(harness, provider, expired=True)
    provider.refresh_mode = "invalid_grant"
    r = await harness.run(full, "oauthy", "get_thing", thing_id="t1")
    assert r.status_code == 401
    body = r.json()
    assert body["error"] == "token_expired"
    assert body["action_url"].endswith("/integrations/oauthy")
    row, _ = await _stored(harness)
    assert row.status == "reconnect_required"
    r = await harness.run(full, "oauthy", "get_thing", thing_id="t1")
    assert r.status_code == 403
    assert r.json()["error"] == "integration_not_connected"
    assert provider.api_requests() == []


async def test_provider_5xx_during_refresh_changes_nothing(
    harness: Harness, provider: Provider
) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    old = await connect_oauth(harness, provider, expired=True)
    before, _ = await _stored(harness)
    provider.refresh_mode = "error_500"
    r = await harness.run(full, "oauthy", "get_thing", thing_id="t1")
    assert r.status_code == 502
    assert r.json()["error"] == "upstream_unavailable"
    after, creds = await _stored(harness)
    assert after.status == "connected"
    assert after.credentials == before.credentials
    assert creds.refresh_token == old.refresh_token
