"""Every way the network or the server can fail: exit 2 and one line on stderr."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.process import free_port
from tests.skillgate_cli.conftest import only_error, svc
from tests.skillgate_cli.fakes import (
    FakeGateway,
    Reply,
    fake_gateway,
    resetting_server,
    silent_server,
)

# Each command the spec gives exit code 2 to, with the arguments it needs.
COMMANDS = [
    ("skills",),
    ("skills", "github"),
    ("status",),
    ("run", "github", "get_repo", "--owner", "o", "--repo", "r"),
    ("pull", "github"),
    ("login", "--key", "sk_x"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_server_down(tmp_path: Path, args: tuple[str, ...]) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    r = svc(*args, cwd=tmp_path, base_url=url, key="sk_x")
    line = only_error(r, 2)
    assert "cannot connect" in line
    assert url in line
    assert list(tmp_path.iterdir()) == []  # login wrote nothing


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_dns_failure(tmp_path: Path, args: tuple[str, ...]) -> None:
    r = svc(*args, cwd=tmp_path, base_url="http://nonexistent.invalid", key="sk_x")
    assert "cannot resolve 'nonexistent.invalid'" in only_error(r, 2)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_connection_reset(tmp_path: Path, args: tuple[str, ...]) -> None:
    with resetting_server() as url:
        r = svc(*args, cwd=tmp_path, base_url=url, key="sk_x")
    assert "closed before an answer" in only_error(r, 2)


@pytest.mark.parametrize("args", COMMANDS[2:4], ids=lambda a: " ".join(a[:2]))
def test_timeout_when_the_server_never_answers(tmp_path: Path, args: tuple[str, ...]) -> None:
    with silent_server() as url:
        start = time.monotonic()
        r = svc(*args, cwd=tmp_path, base_url=url, key="sk_x", SVC_TIMEOUT="1")
        elapsed = time.monotonic() - start
    line = only_error(r, 2)
    assert "did not answer within 1 s" in line
    assert "SVC_TIMEOUT" in line
    assert 1 <= elapsed < 10


@pytest.mark.parametrize("status", [500, 502, 503])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_server_error_5xx(
    fake: FakeGateway, tmp_path: Path, args: tuple[str, ...], status: int
) -> None:
    body = {"error": "internal_error", "message": "Unexpected error (request req-fake)."}
    for method, path in [
        ("GET", "/v1/skills"),
        ("GET", "/v1/skills/github"),
        ("GET", "/v1/me"),
        ("POST", "/v1/github/get_repo"),
        ("GET", "/v1/github/download"),
    ]:
        fake.on(method, path, Reply(status, body))
    r = svc(*args, cwd=tmp_path, base_url=fake.url, key="sk_x")
    line = only_error(r, 2)
    assert "retry later" in line
    assert list(tmp_path.iterdir()) == []


def test_non_json_5xx_from_a_proxy(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("GET", "/v1/skills", Reply(502, raw=b"<html>Bad Gateway</html>"))
    r = svc("skills", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert "HTTP 502" in only_error(r, 2)


def test_run_prints_json_even_when_the_network_fails(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    r = svc("run", "github", "get_repo", "--owner", "o", cwd=tmp_path, base_url=url, key="sk_x")
    only_error(r, 2)
    assert json.loads(r.stdout)["error"] == "network_error"


def test_a_dropped_keep_alive_connection_is_retried_for_reads(tmp_path: Path) -> None:
    """status makes two GETs on one connection; a server that silently closes it
    after the first answer must not turn the second into a failure."""
    with fake_gateway() as gw:
        me = {"email": "a@example.com", "display_name": "a", "plan": "free"}
        gw.on("GET", "/v1/me", Reply(200, me, drop=True))
        gw.on("GET", "/v1/skills", Reply(200, {"integrations": []}))
        r = svc("status", cwd=tmp_path, base_url=gw.url, key="sk_x")
        assert len(gw.calls("GET", "/v1/skills")) == 1
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"user": me, "integrations": []}
