"""Several real server processes on one database: one rate-limit budget through Redis,
and one token refresh across processes (Redis lock, PostgreSQL row lock, SQLite file lock)."""

from __future__ import annotations

import asyncio
import json
import secrets
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests.conftest import PG_URL, REDIS_URL
from tests.process import Server, fixture_env, new_data_dir, operate, serve
from tests.upstream import Provider


@pytest.fixture
def shared(tmp_path: Path, provider: Provider) -> dict[str, str]:
    """Settings for server processes whose integrations point at the (reset) provider."""
    return fixture_env(provider.url)


def _setup_user(
    tmp_path: Path, env: dict[str, str], plan: str, email: str = "m@example.com"
) -> str:
    """A migrated data directory with one user on `plan`; the user's new API key."""
    new_data_dir(tmp_path, env)
    password = "password123"
    operate(
        tmp_path,
        "users",
        "create",
        "--email",
        email,
        "--password",
        password,
        "--plan",
        plan,
        env=env,
    )
    key = operate(tmp_path, "keys", "create", "--email", email, "--name", "k", env=env)
    return str(json.loads(key)["full_key"])


def _connect(tmp_path: Path, env: dict[str, str], email: str, slug: str, *tokens: str) -> None:
    operate(
        tmp_path, "connections", "set", "--email", email, "--integration", slug, *tokens, env=env
    )


def _two_servers(stack: ExitStack, tmp_path: Path, env: dict[str, str]) -> list[Server]:
    return [stack.enter_context(serve(tmp_path, env=env)) for _ in range(2)]


async def _calls(
    servers: list[Server], key: str, slug: str, endpoint: str, params: dict[str, str], n: int
) -> list[int]:
    async with httpx.AsyncClient(timeout=30) as client:

        async def one(i: int) -> int:
            server = servers[i % len(servers)]
            r = await client.post(
                f"{server.url}/v1/{slug}/{endpoint}",
                json={"params": params},
                headers={"Authorization": f"Bearer {key}"},
            )
            return r.status_code if r.status_code != 200 else int(r.json()["status"])

        return list(await asyncio.gather(*(one(i) for i in range(n))))


@pytest.mark.skipif(not REDIS_URL, reason="needs SKILLGATE_TEST_REDIS_URL")
def test_two_processes_share_one_rate_limit_budget(
    tmp_path: Path, shared: dict[str, str], provider_server: Provider
) -> None:
    env = {**shared, "SKILLGATE_REDIS_URL": str(REDIS_URL)}
    key = _setup_user(tmp_path, env, "free")
    _connect(tmp_path, env, "m@example.com", "sample", "--access-token", "good-token")
    with ExitStack() as stack:
        servers = _two_servers(stack, tmp_path, env)
        statuses = asyncio.run(_calls(servers, key, "sample", "get_user", {"username": "x"}, 40))
    assert statuses.count(200) == 30
    assert statuses.count(429) == 10


def _backends() -> list[pytest.param]:  # type: ignore[valid-type]
    return [
        pytest.param("sqlite", None, id="sqlite-filelock"),
        pytest.param(
            "postgres",
            None,
            id="postgres-rowlock",
            marks=pytest.mark.skipif(not PG_URL, reason="needs SKILLGATE_TEST_DATABASE_URL"),
        ),
        pytest.param(
            "sqlite",
            "redis",
            id="redis-lock",
            marks=pytest.mark.skipif(not REDIS_URL, reason="needs SKILLGATE_TEST_REDIS_URL"),
        ),
    ]


@pytest.mark.parametrize(("db", "lock"), _backends())
def test_refresh_is_single_flight_across_processes(
    tmp_path: Path,
    shared: dict[str, str],
    provider_server: Provider,
    db: str,
    lock: str | None,
    pg_database: str | None,
) -> None:
    env = dict(shared)
    if db == "postgres":
        assert pg_database is not None
        env["SKILLGATE_DATABASE_URL"] = pg_database
    if lock == "redis":
        env["SKILLGATE_REDIS_URL"] = str(REDIS_URL)
    email = f"r{secrets.token_hex(3)}@example.com"
    key = _setup_user(tmp_path, env, "unlimited", email)
    refresh_token = "rt-" + secrets.token_hex(6)
    provider_server.refresh_tokens.add(refresh_token)
    _connect(
        tmp_path,
        env,
        email,
        "oauthy",
        "--access-token",
        "at-stale",
        "--refresh-token",
        refresh_token,
        "--expires-in",
        "-60",
    )
    before = len(provider_server.token_requests)
    with ExitStack() as stack:
        servers = _two_servers(stack, tmp_path, env)
        statuses = asyncio.run(_calls(servers, key, "oauthy", "get_thing", {"thing_id": "t"}, 20))
    assert statuses == [200] * 20
    refreshes = [
        t
        for t in provider_server.token_requests[before:]
        if t.get("refresh_token") == refresh_token
    ]
    assert len(refreshes) == 1


@pytest.mark.skipif(not PG_URL, reason="needs SKILLGATE_TEST_DATABASE_URL")
def test_tokens_and_idempotency_keys_hold_across_processes(
    tmp_path: Path, shared: dict[str, str], provider_server: Provider, pg_database: str | None
) -> None:
    """Several instances on PostgreSQL (the production set-up; SQLite's concurrency is
    tested in one process, where the same statements run): a confirmation token redeemed
    by 10 concurrent calls spread over two processes runs once; 10 concurrent duplicates
    of one Idempotency-Key over both send once."""
    from tests.upstream import Recorded, Reply

    assert pg_database is not None
    env = {**shared, "SKILLGATE_DATABASE_URL": pg_database}
    key = _setup_user(tmp_path, env, "unlimited")
    _connect(tmp_path, env, "m@example.com", "sample", "--access-token", "good-token")
    provider_server.reply("DELETE", "/repos/o/r/issues/5", Reply(204, delay=0.2))
    provider_server.reply("POST", "/repos/o/r/issues", lambda rec: Reply(201, {"n": 1}, delay=0.3))
    auth = {"Authorization": f"Bearer {key}"}
    delete = {"params": {"owner": "o", "repo": "r", "number": 5}}
    create = {"params": {"owner": "o", "repo": "r", "title": "t"}}

    async def burst(servers: list[Server]) -> tuple[list[int], list[int]]:
        async with httpx.AsyncClient(timeout=30) as client:
            urls = [f"{s.url}/v1/sample/" for s in servers]
            asked = await client.post(urls[0] + "delete_issue", json=delete, headers=auth)
            assert asked.status_code == 409, asked.text
            confirmed = {**delete, "confirm": asked.json()["confirm"]}
            once = {**auth, "Idempotency-Key": "same"}
            deletes = await asyncio.gather(
                *(client.post(urls[i % 2] + "delete_issue", json=confirmed, headers=auth)
                  for i in range(10))
            )  # fmt: skip
            creates = await asyncio.gather(
                *(client.post(urls[i % 2] + "create_issue", json=create, headers=once)
                  for i in range(10))
            )  # fmt: skip
        return [r.status_code for r in deletes], [r.status_code for r in creates]

    provider_server.clear()
    with ExitStack() as stack:
        servers = _two_servers(stack, tmp_path, env)
        deletes, creates = asyncio.run(burst(servers))
    assert sorted(deletes) == [200] + [409] * 9
    assert creates == [200] * 10
    sent: list[Recorded] = provider_server.api_requests()
    assert [r.method for r in sent if r.path == "/repos/o/r/issues/5"] == ["DELETE"]
    assert [r.method for r in sent if r.path == "/repos/o/r/issues"] == ["POST"]
