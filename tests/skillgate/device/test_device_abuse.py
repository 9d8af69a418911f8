"""Abuse limits on the device flow: the wrong-code lockout holds under concurrency (memory
counter and Redis), starting codes is throttled per client address, and pending codes
have a global cap. The counter itself (release never below 0): tests/kit/test_ratecount.py."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, insert, select, update

from skillgate.app import create_app
from skillgate.catalog.loader import Catalog
from skillgate.device import codes
from skillgate.device.models import DeviceCode
from skillgate.device.service import MAX_WRONG_CODES
from tests.conftest import REDIS_URL, Harness, bearer, make_settings


def _random_ip() -> str:
    """A client address of its own: counters in a shared Redis outlive a test."""
    return "10." + ".".join(str(secrets.randbelow(250) + 1) for _ in range(3))


@pytest.fixture(params=["memory", "redis"])
async def counted(
    request: pytest.FixtureRequest,
    database_url: str,
    tmp_path: Path,
    test_catalog: Catalog,
    steady_clock: float,
) -> AsyncIterator[Harness]:
    """The in-process app with the memory counter or with Redis, seen from one address,
    its windows' clock held mid-window (counting up to a limit never crosses an edge)."""
    overrides = {}
    if request.param == "redis":
        if not REDIS_URL:
            pytest.skip("needs SKILLGATE_TEST_REDIS_URL")
        overrides["redis_url"] = REDIS_URL
    app: FastAPI = create_app(
        make_settings(database_url, tmp_path, **overrides), catalog=test_catalog
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=(_random_ip(), 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield Harness(app, client)


async def _signed_in(harness: Harness) -> str:
    email = f"u{secrets.token_hex(4)}@example.com"
    await harness.user(email)
    return await harness.token(email)


async def _authorize(harness: Harness, token: str, user_code: object) -> int:
    r = await harness.client.post(
        "/auth/device/authorize", json={"user_code": user_code}, headers=bearer(token)
    )
    return r.status_code


async def test_200_concurrent_wrong_codes_evaluate_exactly_the_limit(counted: Harness) -> None:
    token = await _signed_in(counted)
    statuses = await asyncio.gather(*(_authorize(counted, token, "ZZZZ-ZZZZ") for _ in range(200)))
    assert statuses.count(400) == MAX_WRONG_CODES  # guesses evaluated
    assert statuses.count(429) == 200 - MAX_WRONG_CODES


async def test_a_right_code_within_the_limit_works_and_does_not_count(counted: Harness) -> None:
    token = await _signed_in(counted)
    for _ in range(MAX_WRONG_CODES - 1):
        assert await _authorize(counted, token, "ZZZZ-ZZZZ") == 400
    record = (await counted.client.post("/auth/device/code")).json()
    assert await _authorize(counted, token, record["user_code"]) == 200
    # The right code gave its reservation back: one more wrong guess is still evaluated.
    assert await _authorize(counted, token, "ZZZZ-ZZZZ") == 400
    assert await _authorize(counted, token, "ZZZZ-ZZZZ") == 429


def _from(harness: Harness, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=harness.app, client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


async def test_starting_codes_is_throttled_per_client_address(counted: Harness) -> None:
    ip = _random_ip()
    async with _from(counted, ip) as one, _from(counted, _random_ip()) as other:
        for _ in range(codes.STARTS_PER_ADDRESS):
            r = await one.post("/auth/device/code")
            assert r.status_code == 200, r.text
        refused = await one.post("/auth/device/code")
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= codes.START_WINDOW_SECONDS
        assert refused.headers["cache-control"] == "no-store"
        assert (await other.post("/auth/device/code")).status_code == 200
    async with counted.sessionmaker() as s:
        stored = await s.scalar(select(func.count()).select_from(DeviceCode))
    assert stored == codes.STARTS_PER_ADDRESS + 1  # the refused start wrote nothing


async def _fill(harness: Harness, n: int, expires_at: datetime) -> None:
    rows = [
        {
            "id": f"dev_fill{i:08d}",
            "device_code_hash": codes.digest(f"d{i}"),
            "user_code_hash": codes.digest(f"u{i}"),
            "status": "pending",
            "interval": 5,
            "created_at": expires_at - timedelta(seconds=codes.LIFETIME_SECONDS),
            "expires_at": expires_at,
        }
        for i in range(n)
    ]
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(insert(DeviceCode), rows)


async def test_pending_codes_have_a_global_cap(harness: Harness) -> None:
    soon = datetime.now(UTC) + timedelta(minutes=10)
    await _fill(harness, codes.MAX_PENDING_CODES, soon)
    full = await harness.client.post("/auth/device/code")
    assert full.status_code == 503
    assert full.json()["error"] == "service_unavailable"
    assert full.headers["retry-after"] == str(codes.FULL_RETRY_AFTER_SECONDS)
    # Codes that expired long ago are purged at the next start, and starts work again.
    async with harness.sessionmaker() as s, s.begin():
        await s.execute(
            update(DeviceCode).values(expires_at=datetime.now(UTC) - timedelta(hours=2))
        )
    assert (await harness.client.post("/auth/device/code")).status_code == 200
    async with harness.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(DeviceCode)) == 1
