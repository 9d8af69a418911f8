"""Two instances over PostgreSQL + Redis serve one OAuth client without sticky sessions:
registration on one (its rate count in Redis), consent on the other, the code
exchanged on the first, the token used and refreshed on the second, a revocation on
either reaching the other within the key cache's TTL (1 s)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.asyncio import Redis

from skillgate.catalog.loader import Catalog
from tests.conftest import REDIS_URL, open_harness
from tests.skillgate.dashboard.conftest import Web
from tests.skillgate.mcpauth.conftest import OAuthClient, mcp


async def test_one_client_across_two_instances(
    database_url: str, tmp_path: Path, test_catalog: Catalog
) -> None:
    if not database_url.startswith("postgresql") or not REDIS_URL:
        pytest.skip("two instances need PostgreSQL and Redis (SKILLGATE_TEST_*_URL)")
    redis = Redis.from_url(REDIS_URL)
    async for key in redis.scan_iter("sg:oauth:register:*"):  # earlier runs' counts
        await redis.delete(key)
    await redis.aclose()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with (
        open_harness(database_url, tmp_path / "a", test_catalog, redis_url=REDIS_URL) as a,
        open_harness(database_url, tmp_path / "b", test_catalog, redis_url=REDIS_URL) as b,
    ):
        browser_b = Web(b.client)
        assert (await browser_b.signup("two@example.com")).status_code == 303
        client = OAuthClient(a.client, browser_b)
        assert (await client.register()).status_code == 201
        code = await client.code()  # authorize on A, consent on B
        r = await client.exchange(code)  # on A
        assert r.status_code == 200, r.text
        tokens = r.json()
        assert (await mcp(b, tokens["access_token"])).status_code == 200
        client.client = b.client
        refreshed = await client.refresh(tokens["refresh_token"])  # on B
        assert refreshed.status_code == 200, refreshed.text
        access = refreshed.json()["access_token"]
        assert (await mcp(a, access)).status_code == 200
        keys = await browser_b.get("/keys")
        grant_id = keys.text.split('data-grant-id="', 1)[1].split('"', 1)[0]
        assert (await browser_b.post(f"/keys/apps/{grant_id}/revoke", {})).status_code == 303
        await asyncio.sleep(1.2)  # A's cached verification expires
        assert (await mcp(a, access)).status_code == 401
