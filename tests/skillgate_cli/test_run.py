"""`svc run` through the real gateway to a loopback provider: exit codes and envelopes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.skillgate_cli.conftest import UPSTREAM_TOKEN, Gateway, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply

GET_REPO = ("run", "github", "get_repo", "--owner", "octocat", "--repo", "hello-world")


def run(gateway: Gateway, cwd: Path, *args: str, key: str | None = None) -> Any:
    return svc(*args, cwd=cwd, base_url=gateway.url, key=key or gateway.runner_key)


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (200, {"full_name": "octocat/hello-world", "private": False}, 0),
        (404, {"message": "Not Found", "documentation_url": "https://docs.github.com"}, 1),
        (422, {"message": "Validation Failed"}, 1),
        (500, {"message": "Server Error"}, 2),
        (503, {"message": "Unavailable"}, 2),
    ],
)
def test_upstream_status_sets_the_exit_code(
    gateway: Gateway,
    upstream: FakeGateway,
    tmp_path: Path,
    status: int,
    body: dict[str, Any],
    code: int,
) -> None:
    upstream.on("GET", "/repos/octocat/hello-world", Reply(status, body))
    r = run(gateway, tmp_path, *GET_REPO)
    assert r.returncode == code, (r.stdout, r.stderr)
    envelope = json.loads(r.stdout)
    assert envelope == (
        {"status": status, "data": body} if code == 0 else {"status": status, "error": body}
    )
    if code == 0:
        assert r.stderr == ""
    else:
        line = only_error(r, code)
        assert str(status) in line
        assert body["message"] in line
    [call] = upstream.calls("GET", "/repos/octocat/hello-world")
    assert call.headers["Authorization"] == f"Bearer {UPSTREAM_TOKEN}"


def test_body_params_reach_the_provider(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    r = run(
        gateway, tmp_path, "run", "github", "create_issue", "--owner", "o", "--repo", "r",
        "--title", "Bug: 500 on login", "--labels", "bug,ui", "--milestone", "3",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 7}}
    [call] = upstream.calls("POST", "/repos/o/r/issues")
    assert call.body == {"title": "Bug: 500 on login", "labels": ["bug", "ui"], "milestone": 3}


def test_slack_ok_false_is_exit_1(gateway: Gateway, upstream: FakeGateway, tmp_path: Path) -> None:
    upstream.on(
        "POST", "/chat.postMessage", Reply(200, {"ok": False, "error": "channel_not_found"})
    )
    r = run(gateway, tmp_path, "run", "slack", "post_message", "--channel", "C1", "--text", "hi")
    assert "channel_not_found" in only_error(r, 1)
    assert json.loads(r.stdout) == {
        "status": 200,
        "error": {"ok": False, "error": "channel_not_found"},
    }


def test_upstream_rate_limit_says_when_to_retry(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    body = {"message": "API rate limit exceeded"}
    upstream.on("GET", "/repos/octocat/hello-world", Reply(429, body, {"Retry-After": "30"}))
    r = run(gateway, tmp_path, *GET_REPO)
    assert only_error(r, 1).endswith("retry in 30 s")
    assert json.loads(r.stdout) == {"status": 429, "error": body, "retry_after": 30}


def test_not_connected_is_exit_1_with_the_connect_hint(gateway: Gateway, tmp_path: Path) -> None:
    r = run(gateway, tmp_path, *GET_REPO, key=gateway.key)
    line = only_error(r, 1)
    assert line.endswith("run `svc connect github`")
    assert json.loads(r.stdout)["error"] == "integration_not_connected"


def test_unknown_parameter_is_exit_1_before_any_upstream_call(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    r = run(gateway, tmp_path, *GET_REPO, "--titel", "x")
    assert "titel" in only_error(r, 1)
    assert json.loads(r.stdout)["error"] == "bad_request"
    assert upstream.requests == []


def test_unknown_integration_and_endpoint_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    only_error(run(gateway, tmp_path, "run", "nope", "x"), 1)
    only_error(run(gateway, tmp_path, "run", "github", "nope"), 1)


def test_declared_types_from_pull_reach_the_provider(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """After `svc pull github`, `--title 50` is sent as the string the catalog declares."""
    pulled = svc("pull", "github", cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
    assert pulled.returncode == 0, pulled.stderr
    upstream.on("POST", "/repos/o/r/issues", Reply(201, {"number": 8}))
    r = run(
        gateway,
        tmp_path,
        "run",
        "github",
        "create_issue",
        "--owner",
        "o",
        "--repo",
        "r",
        "--title",
        "50",
    )
    assert r.returncode == 0, r.stderr
    [call] = upstream.calls("POST", "/repos/o/r/issues")
    assert call.body == {"title": "50"}


def test_connect_unknown_integration_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("connect", "nope", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    only_error(r, 1)
    assert r.stdout == ""


def test_connect_no_wait_prints_the_request(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("connect", "github", "--no-wait", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert r.returncode == 0, r.stderr
    started = json.loads(r.stdout)
    assert started["integration"] == "github"
    assert started["connect_url"] in r.stderr
    assert started["expires_in"] > 0
    state = gateway.get(f"/v1/connect/{started['id']}")
    assert state == {"id": started["id"], "integration": "github", "status": "pending"}


def test_a_bare_flag_for_a_string_needs_a_value(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """`--repo` with no value: the gateway refuses the boolean (docs not pulled), and
    svc says it locally once the types are pulled. Never a call to /repos/octocat/true."""
    r = run(gateway, tmp_path, "run", "github", "get_repo", "--owner", "octocat", "--repo")
    line = only_error(r, 1)
    assert "repo: expected a string, got a boolean" in line
    assert "give it a value" in line
    assert json.loads(r.stdout)["error"] == "bad_request"
    assert upstream.requests == []

    pulled = svc("pull", "github", cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
    assert pulled.returncode == 0, pulled.stderr
    r = run(gateway, tmp_path, "run", "github", "get_repo", "--owner", "octocat", "--repo")
    assert "--repo needs a value" in only_error(r, 1)
    assert json.loads(r.stdout)["error"] == "bad_params"
    assert upstream.requests == []


@pytest.mark.parametrize("pulled", [False, True])
def test_text_for_a_string_arrives_exactly_as_typed(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path, pulled: bool
) -> None:
    if pulled:
        out = svc("pull", "github", cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
        assert out.returncode == 0, out.stderr
    upstream.on("POST", "/repos/true/007/issues", Reply(201, {"number": 9}))
    r = run(
        gateway, tmp_path, "run", "github", "create_issue", "--owner", "true", "--repo", "007",
        "--title", '{"k": 1}', "--body", "1e3", "--milestone", "3",
    )  # fmt: skip
    assert r.returncode == 0, (r.stdout, r.stderr)
    [call] = upstream.calls("POST", "/repos/true/007/issues")
    assert call.body == {"title": '{"k": 1}', "body": "1e3", "milestone": 3}


def test_help_after_the_endpoint_shows_its_documentation(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    doc = gateway.get("/v1/skills/github/list_issues")
    for flag in ("--help", "-h"):
        r = run(gateway, tmp_path, "run", "github", "list_issues", flag, key=gateway.key)
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
        out = r.stdout
        assert out.startswith("Usage: svc run github list_issues")
        assert " ".join(doc["description"].split()[:8]) in " ".join(out.split())
        assert "not connected: run `svc connect github` first" in out
        for p in doc["parameters"]:
            line = next(x for x in out.splitlines() if x.startswith(f"  --{p['name']}  ("))
            assert p["type"] in line
            assert ("required" if p["required"] else "optional") in line
            assert f"in {p['in']}" in line
            if "enum" in p:
                assert "one of " + ", ".join(json.dumps(v) for v in p["enum"]) in line
            if "default" in p:
                assert f"default {json.dumps(p['default'])}" in line
        assert f"Example:\n  {doc['example']}\n" in out
        for e in doc["errors"]:
            assert f"  {e['code']}: " in out
    assert upstream.requests == []


def test_help_without_a_key_is_the_generic_help_and_the_reason(
    gateway: Gateway, tmp_path: Path
) -> None:
    r = svc("run", "github", "list_issues", "--help", cwd=tmp_path, base_url=gateway.url)
    assert r.returncode == 0
    assert r.stdout.startswith("Usage: svc run [OPTIONS] INTEGRATION ENDPOINT")
    assert r.stderr.strip() == (
        "note: no documentation for github list_issues: no API key: run `svc login` "
        "(or set SVC_API_KEY)"
    )
    r = svc("run", "github", "nope", "--help", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert r.returncode == 0
    assert "Usage: svc run" in r.stdout
    assert "Unknown endpoint 'nope'" in r.stderr
