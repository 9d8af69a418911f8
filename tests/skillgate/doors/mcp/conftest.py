"""A real server process for the MCP door's tests, with users, keys and a connection.

One process for the package (start-up is most of the cost); the loopback provider
stands in for the upstream APIs of the fixture catalog (sample, oauthy)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.process import Server, fixture_env, serve
from tests.upstream import Provider


def server_env(provider: Provider, **extra: str) -> dict[str, str]:
    return fixture_env(provider.url, SKILLGATE_MAX_REQUEST_BYTES="65536", **extra)


# The operator commands of one set-up, run in one process: each `skillgate` start-up
# costs about a second, and a set-up needs ten commands.
_BATCH = """
import json, sys
from click.testing import CliRunner
from skillgate.cli.catalog import catalog
from skillgate.cli.connections import connections
from skillgate.cli.main import cli
cli.add_command(catalog)
cli.add_command(connections)
out = []
for args in json.loads(sys.argv[1]):
    done = CliRunner().invoke(cli, args, catch_exceptions=False)
    if done.exit_code:
        sys.exit(f"skillgate {args}: {done.output}")
    out.append(done.stdout)
print(json.dumps(out))
"""


def operator(cwd: Path, env: dict[str, str], *commands: list[str]) -> list[str]:
    """The stdout of each `skillgate` operator command, in order (one process)."""
    done = subprocess.run(
        [sys.executable, "-c", _BATCH, json.dumps(commands)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def accounts(cwd: Path, env: dict[str, str]) -> dict[str, str]:
    """Two users (unlimited and free), `sample` connected for both; a key of each kind."""
    users = [
        [
            "users",
            "create",
            "--email",
            f"{who}@example.com",
            "--password",
            "password123",
            "--plan",
            plan,
        ]
        for who, plan in (("pro", "unlimited"), ("free", "free"))
    ]
    links = [
        [
            "connections",
            "set",
            "--email",
            f"{who}@example.com",
            "--integration",
            "sample",
            "--access-token",
            "good-token",
        ]
        for who in ("pro", "free")
    ]
    kinds = {
        "full": ("pro", "*"),
        "scoped": ("pro", "sample"),
        "read": ("pro", "sample:read"),
        "free": ("free", "*"),
    }
    keys = [["keys", "create", "--email", f"{who}@example.com", "--name", kind, "--scopes", scopes]
            for kind, (who, scopes) in kinds.items()]  # fmt: skip
    out = operator(cwd, env, ["db", "upgrade"], *users, *links, *keys)
    made = [json.loads(o)["full_key"] for o in out[-len(keys) :]]
    return dict(zip(kinds, made, strict=True))


@dataclass
class Gateway:
    server: Server
    keys: dict[str, str]  # what each key is: full, scoped (sample), read (sample:read), free
    cwd: Path  # the server's directory and environment, for operator commands
    env: dict[str, str]

    @property
    def mcp_url(self) -> str:
        return self.server.url + "/mcp"


@pytest.fixture(scope="package")
def gateway(
    tmp_path_factory: pytest.TempPathFactory, provider_server: Provider
) -> Iterator[Gateway]:
    provider_server.reset()
    cwd = tmp_path_factory.mktemp("mcp")
    env = server_env(provider_server)
    keys = accounts(cwd, env)
    with serve(cwd, env=env) as server:
        yield Gateway(server, keys, cwd, env)


@asynccontextmanager
async def mcp_client(
    url: str, key: str | None, mode: str = "legacy", elicit: Any = None
) -> AsyncIterator[Client]:
    """The official MCP client over Streamable HTTP with `key` as the Bearer token.
    `legacy`: the initialize handshake (2025-11-25, what clients speak today);
    `auto`: the 2026-07-28 `server/discover` probe first. `elicit`: an elicitation
    callback (the client then declares form and URL elicitation)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
            yield client
