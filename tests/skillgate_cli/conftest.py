"""Fixtures for `svc`: a real gateway (one per session, subprocess), keys on it, and a
runner that starts the real `svc` executable with a clean environment."""

from __future__ import annotations

import io
import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from skillgate_cli.main import run_in
from tests.process import clean_env, new_data_dir, operate, run_cli, serve
from tests.skillgate_cli.fakes import FakeGateway, fake_gateway

EMAIL = "agent@example.com"
RUNNER = "runner@example.com"
PASSWORD = "correct-horse-battery"
UPSTREAM_TOKEN = "upstream-token"


@dataclass
class Gateway:
    """The real server with two pro users: `key` belongs to one with no connections,
    `runner_key` to one whose GitHub and Slack are connected to `upstream`, a
    loopback server playing both providers (SKILLGATE_<SLUG>_BASE_URL)."""

    url: str
    key: str
    workdir: Path
    runner_key: str
    upstream: FakeGateway

    def new_key(self, name: str = "cli test") -> tuple[str, str]:
        """(full key, key id) of a fresh key for the same user."""
        data = json.loads(operate(self.workdir, "keys", "create", "--email", EMAIL, "--name", name))
        return data["full_key"], data["id"]

    def revoke(self, key: str, key_id: str) -> None:
        req = urllib.request.Request(
            f"{self.url}/api-keys/{key_id}",
            method="DELETE",
            headers={"Authorization": f"Bearer {key}"},
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.status == 204

    def get(self, path: str, key: str | None = None) -> Any:
        req = urllib.request.Request(
            self.url + path, headers={"Authorization": f"Bearer {key or self.key}"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())


def _operator(workdir: Path, *args: str) -> Any:
    out = operate(workdir, *args)  # in process: the set-up, not the operator CLI, is wanted
    return json.loads(out) if out.strip() else None


def _user_with_key(workdir: Path, email: str) -> str:
    _operator(workdir, "users", "create", "--email", email, "--password", PASSWORD, "--plan", "pro")
    key: str = _operator(workdir, "keys", "create", "--email", email, "--name", "cli")["full_key"]
    return key


@pytest.fixture(scope="session")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    workdir = tmp_path_factory.mktemp("gateway")
    new_data_dir(workdir)
    key = _user_with_key(workdir, EMAIL)
    runner_key = _user_with_key(workdir, RUNNER)
    for slug in ("github", "slack"):
        _operator(
            workdir, "connections", "set", "--email", RUNNER, "--integration", slug,
            "--access-token", UPSTREAM_TOKEN,
        )  # fmt: skip
    with fake_gateway() as upstream:
        env = clean_env(
            SKILLGATE_GITHUB_BASE_URL=upstream.url, SKILLGATE_SLACK_BASE_URL=upstream.url
        )
        with serve(workdir, env=env) as server:
            yield Gateway(server.url, key, workdir, runner_key, upstream)


@pytest.fixture
def upstream(gateway: Gateway) -> FakeGateway:
    """The providers' loopback server, with no routes and no requests yet."""
    gateway.upstream.clear()
    return gateway.upstream


@pytest.fixture
def fake() -> Iterator[FakeGateway]:
    with fake_gateway() as gw:
        yield gw


def svc_env(base_url: str | None = None, key: str | None = None, **extra: str) -> dict[str, str]:
    env = clean_env(SVC_NO_BROWSER="1")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NO_COLOR"):
        env.pop(name, None)
    env.update(extra)
    if base_url is not None:
        env["SVC_BASE_URL"] = base_url
    if key is not None:
        env["SVC_API_KEY"] = key
    return env


def _text(data: bytes) -> str:
    """Bytes as `subprocess.run(text=True)` reads them (UTF-8, universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def svc(
    *args: str,
    cwd: Path,
    base_url: str | None = None,
    key: str | None = None,
    input: str = "",
    **extra: str,
) -> subprocess.CompletedProcess[str]:
    """Run `svc` in this process (skillgate_cli.main.run_in) with the environment, directory
    and streams the real one would get: stdin a pipe (never a terminal), no browser."""
    out, err = io.BytesIO(), io.BytesIO()
    code = run_in(
        args,
        env=svc_env(base_url, key, **extra),
        cwd=cwd,
        stdin=io.BytesIO(input.encode()),
        stdout=out,
        stderr=err,
    )
    return subprocess.CompletedProcess(
        ["svc", *args], code, _text(out.getvalue()), _text(err.getvalue())
    )


def svc_process(
    *args: str,
    cwd: Path,
    base_url: str | None = None,
    key: str | None = None,
    input: str = "",
    **extra: str,
) -> subprocess.CompletedProcess[str]:
    """Run the real `svc` executable (start-up and exit-code tests), stdin a pipe, no
    browser."""
    return run_cli("svc", *args, cwd=cwd, env=svc_env(base_url, key, **extra), input=input)


def error_line(result: subprocess.CompletedProcess[str], code: int) -> str:
    """Assert the exit code and exactly one `svc: ...` line on stderr; return it."""
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("svc: ")]
    assert len(errors) == 1, result.stderr
    assert errors[0] == lines[-1], result.stderr
    return errors[0]


def only_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    """Like `error_line`, and nothing else on stderr at all."""
    line = error_line(result, code)
    assert result.stderr.strip() == line, result.stderr
    return line


def mode(path: Path) -> int:
    return os.stat(path).st_mode & 0o777
