"""A real server process killed with SIGKILL during concurrent execute load loses no
execution-log row: after a restart, every execution that got a response is logged."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from skillgate.db.engine import create_engine
from skillgate.db.session import commit
from skillgate.executions.models import Execution
from skillgate.users.service import UserService
from tests.conftest import FIXTURES
from tests.process import clean_env, serve
from tests.upstream import Provider

CLIENTS = 4  # one key each, one request at a time: a key's log is off by at most one
LOAD_SECONDS = 1.0
MIN_ANSWERED = 50


def _env(provider: Provider, database_url: str) -> dict[str, str]:
    return clean_env(
        SKILLGATE_CATALOG_PATH=str(FIXTURES / "catalog"),
        SKILLGATE_SAMPLE_BASE_URL=provider.url,
        SKILLGATE_DATABASE_URL=database_url,
        SKILLGATE_LOG_LEVEL="WARNING",
    )


async def _user(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        async with AsyncSession(engine) as session:
            await UserService(session).create("k@example.com", "password123", plan="unlimited")
            await commit(session)
    finally:
        await engine.dispose()


def _setup(database_url: str, url: str) -> dict[str, str]:
    """A user on the unlimited plan, the sample integration connected, one key per client
    (full key -> key id)."""
    asyncio.run(_user(database_url))
    login = httpx.post(
        url + "/auth/login", json={"email": "k@example.com", "password": "password123"}
    )
    token = login.json()["access_token"]
    keys = {}
    for i in range(CLIENTS):
        r = httpx.post(
            url + "/api-keys",
            json={"name": f"load {i}"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 201, r.text
        keys[r.json()["full_key"]] = r.json()["api_key"]["id"]
    connected = httpx.put(
        url + "/v1/connections/sample",
        json={"token": "good-token"},
        headers={"Authorization": f"Bearer {next(iter(keys))}"},
    )
    assert connected.status_code == 200, connected.text
    return keys


async def _load_then_kill(url: str, keys: list[str], kill: object) -> dict[str, int]:
    """Each client calls in a loop until the server dies; returns responses per key prefix."""
    answered = {key: 0 for key in keys}
    stop = asyncio.Event()

    async def client(key: str) -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            while not stop.is_set():
                try:
                    await http.post(
                        url + "/v1/sample/get_user",
                        json={"params": {"username": "octo"}},
                        headers={"Authorization": f"Bearer {key}"},
                    )
                except httpx.TransportError:
                    return  # the server is gone: this call got no response
                answered[key] += 1

    tasks = [asyncio.create_task(client(k)) for k in keys]
    await asyncio.sleep(LOAD_SECONDS)
    # On a loaded machine the server answers slowly: keep the load on until it is
    # real (the assertion below), within a bound.
    patience = time.monotonic() + 20 * LOAD_SECONDS
    while sum(answered.values()) <= MIN_ANSWERED and time.monotonic() < patience:
        await asyncio.sleep(0.1)
    kill()  # type: ignore[operator]
    stop.set()
    await asyncio.gather(*tasks)
    return answered


async def _logged(database_url: str, key_ids: dict[str, str]) -> dict[str, int]:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(Execution.key_id, func.count()).group_by(Execution.key_id)
            )
            counts = {k: n for k, n in rows.all()}
    finally:
        await engine.dispose()
    return {key: counts.get(key_id, 0) for key, key_id in key_ids.items()}


def test_kill_9_during_load_loses_no_logged_execution(
    tmp_path: Path, provider: Provider, database_url: str
) -> None:
    """On SQLite and PostgreSQL (the `database_url` fixture empties the tables after)."""
    env = _env(provider, database_url)
    with serve(tmp_path, env=env) as server:
        key_ids = _setup(database_url, server.url)
        keys = list(key_ids)
        answered = asyncio.run(_load_then_kill(server.url, keys, server.process.kill))
        server.process.wait()
    assert sum(answered.values()) > MIN_ANSWERED, answered  # the load was real

    with serve(tmp_path, env=env):  # the new process replays the dead one's spool
        deadline = time.monotonic() + 15
        while True:
            logged = asyncio.run(_logged(database_url, key_ids))
            lost = sum(max(0, answered[k] - logged[k]) for k in keys)
            if lost == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    assert lost == 0, (answered, logged)  # rows lost to kill -9
    for key in keys:  # and nothing twice: at most the one call in flight at the kill
        assert answered[key] <= logged[key] <= answered[key] + 1, (key, answered, logged)
    assert list((tmp_path / "spool").glob("executions-*.jsonl")) == []  # replayed, removed
