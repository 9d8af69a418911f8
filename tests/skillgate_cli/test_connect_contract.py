"""`svc connect` against a gateway answering the POST /v1/connect contract
(being built on the server; `test_*_contract_*` so it can later point there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.skillgate_cli.conftest import error_line, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply

STARTED = Reply(200, {"id": "con_1", "connect_url": "http://app/connect/con_1", "expires_in": 600})


def state(status: str, **extra: str) -> Reply:
    return Reply(200, {"id": "con_1", "integration": "github", "status": status, **extra})


def test_connect_contract_waits_until_connected(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", "/v1/connect", STARTED)
    fake.on("GET", "/v1/connect/con_1", [state("pending"), state("connected")])
    r = svc("connect", "github", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"id": "con_1", "integration": "github", "status": "connected"}
    assert "http://app/connect/con_1" in r.stderr
    [start] = fake.calls("POST", "/v1/connect")
    assert start.body == {"integration": "github"}
    assert start.headers["Authorization"] == "Bearer sk_x"
    assert len(fake.calls("GET", "/v1/connect/con_1")) == 2


@pytest.mark.parametrize("status", ["failed", "expired"])
def test_connect_contract_failed_or_expired_exit_1(
    fake: FakeGateway, tmp_path: Path, status: str
) -> None:
    fake.on("POST", "/v1/connect", STARTED)
    fake.on("GET", "/v1/connect/con_1", state(status, error="access_denied"))
    r = svc("connect", "github", cwd=tmp_path, base_url=fake.url, key="sk_x")
    line = error_line(r, 1)
    assert "(access_denied)" in line
    assert status in line
    assert "svc connect github" in line
    assert json.loads(r.stdout)["status"] == status


def test_connect_contract_unknown_integration_exit_1(fake: FakeGateway, tmp_path: Path) -> None:
    body = {"error": "not_found", "message": "Unknown integration 'nope'."}
    fake.on("POST", "/v1/connect", Reply(404, body))
    r = svc("connect", "nope", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert "Unknown integration 'nope'" in only_error(r, 1)
    assert r.stdout == ""


def test_connect_contract_sends_connection_variables(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", "/v1/connect", STARTED)
    args = ("connect", "jira", "--set", "domain=acme", "--set", "x= y ", "--no-wait")
    r = svc(*args, cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert r.returncode == 0, r.stderr
    [start] = fake.calls("POST", "/v1/connect")
    assert start.body == {"integration": "jira", "variables": {"domain": "acme", "x": "y"}}
    bad = svc("connect", "jira", "--set", "domain", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert "--set 'domain': expected NAME=VALUE" in only_error(bad, 1)
    assert len(fake.calls("POST", "/v1/connect")) == 1  # nothing sent for the bad one
