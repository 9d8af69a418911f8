"""A real server process for the MCP door's tests, with users, keys and a connection.

One process per test module (start-up is most of the cost); the loopback provider
stands in for the upstream APIs of the fixture catalog (sample, oauthy)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import FIXTURES
from tests.process import Server, clean_env, new_data_dir, run_cli, serve
from tests.upstream import Provider


def server_env(provider: Provider, **extra: str) -> dict[str, str]:
    url = provider.url
    return clean_env(
        SKILLGATE_CATALOG_PATH=str(FIXTURES / "catalog"),
        SKILLGATE_SAMPLE_BASE_URL=url,
        SKILLGATE_OAUTHY_BASE_URL=url + "/v2",
        SKILLGATE_OAUTHY_TOKEN_URL=url + "/oauth/token",
        SKILLGATE_OAUTHY_AUTHORIZE_URL=url + "/oauth/authorize",
        SKILLGATE_OAUTHY_CLIENT_ID="client-123",
        SKILLGATE_OAUTHY_CLIENT_SECRET="client-secret-456",
        SKILLGATE_LOG_LEVEL="WARNING",
        SKILLGATE_MAX_REQUEST_BYTES="65536",
        **extra,
    )


def cli_json(cwd: Path, env: dict[str, str], *args: str) -> Any:
    done = run_cli("skillgate", *args, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def make_user(cwd: Path, env: dict[str, str], email: str, plan: str) -> None:
    cli_json(cwd, env, "users", "create", "--email", email, "--password", "password123",
             "--plan", plan)  # fmt: skip


def make_key(cwd: Path, env: dict[str, str], email: str, scopes: str = "*") -> str:
    made = cli_json(cwd, env, "keys", "create", "--email", email, "--name", "k", "--scopes", scopes)
    return str(made["full_key"])


def connect(cwd: Path, env: dict[str, str], email: str, slug: str, token: str) -> None:
    run = run_cli("skillgate", "connections", "set", "--email", email, "--integration", slug,
                  "--access-token", token, cwd=cwd, env=env)  # fmt: skip
    assert run.returncode == 0, run.stderr


@dataclass
class Gateway:
    server: Server
    keys: dict[str, str]  # what each key is: full, scoped (sample), read (sample:read), free

    @property
    def mcp_url(self) -> str:
        return self.server.url + "/mcp"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory, provider_server: Provider) -> Iterator[Gateway]:
    provider_server.reset()
    cwd = tmp_path_factory.mktemp("mcp")
    env = server_env(provider_server)
    new_data_dir(cwd, env)
    make_user(cwd, env, "pro@example.com", "unlimited")
    make_user(cwd, env, "free@example.com", "free")
    connect(cwd, env, "pro@example.com", "sample", "good-token")
    connect(cwd, env, "free@example.com", "sample", "good-token")
    keys = {
        "full": make_key(cwd, env, "pro@example.com"),
        "scoped": make_key(cwd, env, "pro@example.com", "sample"),
        "read": make_key(cwd, env, "pro@example.com", "sample:read"),
        "free": make_key(cwd, env, "free@example.com"),
    }
    with serve(cwd, env=env) as server:
        yield Gateway(server, keys)


@asynccontextmanager
async def mcp_client(url: str, key: str | None, mode: str = "legacy") -> AsyncIterator[Client]:
    """The official MCP client over Streamable HTTP with `key` as the Bearer token.
    `legacy`: the initialize handshake (2025-11-25, what clients speak today);
    `auto`: the 2026-07-28 `server/discover` probe first."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode) as client:  # type: ignore[arg-type]
            yield client
