"""`svc run --retry` and `--idempotency-key` (issue 15): against the real gateway and the
loopback GitHub, a write reaches the provider once however many tries it takes."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.skillgate_cli.conftest import Gateway, error_line, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Recorded, Reply, resetting_server

ISSUES = "/repos/o/r/issues"
CREATE = ["run", "github", "create_issue", "--owner", "o", "--repo", "r", "--title", "Bug"]
KEY_LINE = re.compile(r"^idempotency key: (svc-[0-9a-f]{32})$", re.MULTILINE)


def run(gateway: Gateway, cwd: Path, *args: str, **env: str) -> Any:
    return svc(*args, cwd=cwd, base_url=gateway.url, key=gateway.runner_key, **env)


def test_a_broken_upstream_answer_is_tried_again(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """The provider's first answer is cut short (the gateway: 502 upstream_unavailable,
    nothing stored under the key); the second try reaches it again and succeeds."""
    broken = Reply(201, stream_bytes=10, declared_length=100_000)
    upstream.on("POST", ISSUES, [broken, Reply(201, {"number": 7})])
    r = run(gateway, tmp_path, *CREATE, "--retry")
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 7}}
    [key] = KEY_LINE.findall(r.stderr)
    assert "note: try 1 of 3 failed (the gateway answered HTTP 502): trying again" in r.stderr
    calls = upstream.calls("POST", ISSUES)
    assert len(calls) == 2
    assert calls[0].body == calls[1].body == {"title": "Bug"}
    assert key not in json.dumps([dict(c.headers) for c in calls])  # svc's key stays here


def test_without_retry_one_failure_is_the_answer(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("POST", ISSUES, [Reply(503, {"message": "busy"}), Reply(201, {"number": 7})])
    r = run(gateway, tmp_path, *CREATE)
    assert "the service failed (503): busy" in only_error(r, 2)
    assert len(upstream.calls("POST", ISSUES)) == 1


def test_three_tries_at_most(gateway: Gateway, upstream: FakeGateway, tmp_path: Path) -> None:
    upstream.on("POST", ISSUES, Reply(201, stream_bytes=10, declared_length=100_000))
    r = run(gateway, tmp_path, *CREATE, "--retry")
    assert "GitHub could not be reached" in error_line(r, 2)
    assert json.loads(r.stdout)["error"] == "upstream_unavailable"
    assert r.stderr.count("note: try ") == 2
    assert (
        "note: try 2 of 3 failed (the gateway answered HTTP 502): trying again in 1 s" in r.stderr
    )
    assert len(upstream.calls("POST", ISSUES)) == 3


def test_a_lost_answer_is_not_sent_twice(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """The provider answers after svc gave up waiting (SVC_TIMEOUT); the next try, with
    the same key, gets the stored envelope: the issue is created once."""

    def slow(_: Recorded) -> Reply:
        time.sleep(2.5)
        return Reply(201, {"number": 8})

    upstream.on("POST", ISSUES, slow)
    r = run(gateway, tmp_path, *CREATE, "--retry", SVC_TIMEOUT="2")
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 8}}
    assert "did not answer within 2 s" in r.stderr
    time.sleep(1)  # anything a stray try would have sent has arrived by now
    assert len(upstream.calls("POST", ISSUES)) == 1


def test_a_given_key_is_used_by_every_call(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("POST", ISSUES, [Reply(201, {"number": 9}), Reply(201, {"number": 10})])
    first = run(gateway, tmp_path, *CREATE, "--idempotency-key", "issue-bug-1")
    again = run(gateway, tmp_path, *CREATE, "--retry", "--idempotency-key", "issue-bug-1")
    for r in (first, again):
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout) == {"status": 201, "data": {"number": 9}}
    assert not KEY_LINE.search(again.stderr)  # given, not made: nothing to say
    assert len(upstream.calls("POST", ISSUES)) == 1
    # The same key for another request is refused.
    other = run(gateway, tmp_path, *CREATE[:-1], "Other", "--idempotency-key", "issue-bug-1")
    only_error(other, 1)
    assert json.loads(other.stdout)["error"] == "idempotency_key_reused"
    assert len(upstream.calls("POST", ISSUES)) == 1


def test_run_contract_gateway_failures_are_tried_with_one_key(
    fake: FakeGateway, tmp_path: Path
) -> None:
    path = "/v1/github/create_issue"
    fake.on(
        "POST",
        path,
        [
            Reply(502, {"error": "upstream_unavailable", "message": "down"}),
            Reply(500, {"error": "internal", "message": "oops"}),
            Reply(200, {"status": 201, "data": {"number": 1}}),
        ],
    )
    r = svc(*CREATE, "--retry", cwd=tmp_path, base_url=fake.url, key="sk_test")
    assert r.returncode == 0, r.stderr
    [key] = KEY_LINE.findall(r.stderr)
    calls = fake.calls("POST", path)
    assert [c.headers["Idempotency-Key"] for c in calls] == [key, key, key]
    assert calls[0].body == calls[2].body


def test_a_stored_answer_is_not_tried_again(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """An upstream 500 stored under the key (the provider may have acted) comes back as it
    is (Idempotent-Replayed): svc stops there instead of spending its tries on it."""
    upstream.on("POST", ISSUES, [Reply(500, {"message": "boom"}), Reply(201, {"number": 7})])
    first = run(gateway, tmp_path, *CREATE, "--idempotency-key", "k-500")
    assert json.loads(first.stdout) == {"status": 500, "error": {"message": "boom"}}
    r = run(gateway, tmp_path, *CREATE, "--idempotency-key", "k-500", "--retry")
    assert "the service failed (500)" in only_error(r, 2)  # no "note: try" line
    assert json.loads(r.stdout) == {"status": 500, "error": {"message": "boom"}}
    assert len(upstream.calls("POST", ISSUES)) == 1


def test_an_upstream_503_is_tried_again_with_the_same_key(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """The provider's "try again" (503) frees the key: the retry is sent, once."""
    upstream.on("POST", ISSUES, [Reply(503, {"message": "busy"}), Reply(201, {"number": 7})])
    r = run(gateway, tmp_path, *CREATE, "--retry")
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 7}}
    assert "note: try 1 of 3 failed" in r.stderr
    assert len(upstream.calls("POST", ISSUES)) == 2


def test_network_errors_are_tried_three_times(tmp_path: Path) -> None:
    with resetting_server() as url:
        r = svc(*CREATE, "--retry", cwd=tmp_path, base_url=url, key="sk_test")
    line = error_line(r, 2)
    assert "closed before an answer" in line
    assert r.stderr.count("note: try ") == 2
    assert json.loads(r.stdout)["error"] == "network_error"


def test_dry_run_needs_no_key(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", "/v1/github/create_issue", Reply(200, {"dry_run": True, "request": {}}))
    r = svc(*CREATE, "--retry", "--dry-run", cwd=tmp_path, base_url=fake.url, key="sk_test")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    # Issue 23: the short spellings send one GET of the endpoint's documentation first.
    doc = ("GET", "/v1/skills/github/create_issue")
    assert [(q.method, q.path) for q in fake.requests if q.method == "GET"] == [doc]
    [call] = fake.calls("POST", "/v1/github/create_issue")
    assert "Idempotency-Key" not in call.headers
