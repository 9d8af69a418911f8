"""Confirmation of destructive calls through `svc run` (issue 15), against the real
gateway (keys made now default to `confirm: destructive`) and the loopback GitHub:
the piped JSON with the command to confirm, and the prompt in a real pseudo-terminal."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from tests.skillgate_cli.conftest import UPSTREAM_TOKEN, Gateway, only_error, svc, svc_process
from tests.skillgate_cli.fakes import FakeGateway, Reply
from tests.skillgate_cli.terminal import converse

MERGE = "/repos/o/r/pulls/5/merge"
ARGS = [
    "run", "github", "merge_pull_request", "--owner", "o", "--repo", "r", "--pull-number", "5",
    "--merge-method", "squash", "--commit-title", "Ship it: it's ready",
]  # fmt: skip
MERGED = {"merged": True, "sha": "6dcb09b", "message": "Pull Request successfully merged"}


def run(gateway: Gateway, cwd: Path, *args: str) -> Any:
    return svc(*args, cwd=cwd, base_url=gateway.url, key=gateway.runner_key)


def check_preview(preview: dict[str, Any], gateway_url: str) -> None:
    assert preview["method"] == "PUT"
    assert preview["url"].endswith(MERGE)
    auth = {k.lower(): v for k, v in preview["headers"].items()}["authorization"]
    assert auth == "Bearer [redacted]"
    assert UPSTREAM_TOKEN not in json.dumps(preview)
    assert preview["body"] == {"merge_method": "squash", "commit_title": "Ship it: it's ready"}


def test_piped_it_prints_the_preview_token_and_command_then_the_command_sends(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("PUT", MERGE, Reply(200, MERGED))
    r = run(gateway, tmp_path, *ARGS)
    line = only_error(r, 1)
    asked = json.loads(r.stdout)
    assert asked["error"] == "confirmation_required"
    assert asked["expires_in"] == 300
    token = asked["confirm"]
    assert token.startswith("cf_")
    assert token not in line  # the stderr line says what to do, not the token
    assert "run the `command` of this JSON within 300 s" in line
    check_preview(asked["preview"], gateway.url)
    assert asked["command"] == shlex.join(["svc", *ARGS, "--confirm", token])
    assert upstream.requests == []

    # The agent runs the command it was given (after the user agreed): sent once.
    again = run(gateway, tmp_path, *shlex.split(asked["command"])[1:])
    assert again.returncode == 0, (again.stdout, again.stderr)
    assert json.loads(again.stdout) == {"status": 200, "data": MERGED}
    [call] = upstream.calls("PUT", MERGE)
    assert call.body == {"merge_method": "squash", "commit_title": "Ship it: it's ready"}

    # The token is single-use: the same command again is refused, nothing sent.
    replay = run(gateway, tmp_path, *shlex.split(asked["command"])[1:])
    only_error(replay, 1)
    assert json.loads(replay.stdout)["error"] == "confirmation_invalid"
    assert len(upstream.calls("PUT", MERGE)) == 1


def test_the_command_keeps_svc_options_and_json(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """svc's options come back as `--name=value` (those before the names too), the
    token before a `--`; the idempotency key freed by the 409 serves the confirmed call."""
    args = [
        "run", "--retry", "github", "merge_pull_request", '{"owner": "o"}', "--repo", "r",
        "--pull-number", "5", "--idempotency-key", "merge 5", "--max-output", "100000",
        "--", '{"merge_method": "squash"}',
    ]  # fmt: skip
    r = run(gateway, tmp_path, *args)
    assert r.returncode == 1, r.stderr
    asked = json.loads(r.stdout)
    assert asked["error"] == "confirmation_required"
    token = asked["confirm"]
    assert shlex.split(asked["command"]) == [
        "svc", "run", "github", "merge_pull_request", "--retry", "--idempotency-key=merge 5",
        "--max-output=100000", '{"owner": "o"}', "--repo", "r", "--pull-number", "5",
        "--confirm", token, "--", '{"merge_method": "squash"}',
    ]  # fmt: skip
    upstream.on("PUT", MERGE, Reply(200, MERGED))
    for _ in range(2):  # the second: the stored answer of the key, not a second merge
        sent = run(gateway, tmp_path, *shlex.split(asked["command"])[1:])
        assert sent.returncode == 0, sent.stderr
        assert json.loads(sent.stdout) == {"status": 200, "data": MERGED}
    [call] = upstream.calls("PUT", MERGE)
    assert call.body == {"merge_method": "squash"}


def test_the_real_binary_exits_1_when_confirmation_is_needed(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    r = svc_process(*ARGS, cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
    only_error(r, 1)
    assert json.loads(r.stdout)["command"].startswith("svc run github merge_pull_request ")
    assert upstream.requests == []


def test_on_a_terminal_yes_sends_it_once(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("PUT", MERGE, Reply(200, MERGED))
    shown, out, code = converse(
        ARGS, cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key,
        answer="y", prompt="Send this request? [y/N] ",
    )  # fmt: skip
    assert code == 0, (shown, out)
    assert json.loads(out) == {"status": 200, "data": MERGED}
    assert "github merge_pull_request needs your confirmation; nothing has been sent" in shown
    assert "  PUT " in shown
    assert f"{MERGE}\n" in shown
    assert "Authorization: Bearer [redacted]" in shown
    assert '"commit_title": "Ship it: it\'s ready"' in shown
    assert UPSTREAM_TOKEN not in shown
    assert "cf_" not in shown + out  # the token stays between svc and the gateway
    [call] = upstream.calls("PUT", MERGE)
    assert call.body == {"merge_method": "squash", "commit_title": "Ship it: it's ready"}


def test_on_a_terminal_anything_else_declines(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    for answer in ("n", "", "sure"):
        shown, out, code = converse(
            ARGS, cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key,
            answer=answer, prompt="Send this request? [y/N] ",
        )  # fmt: skip
        assert code == 1, (answer, shown, out)
        assert json.loads(out) == {
            "error": "confirmation_declined",
            "message": "github merge_pull_request: not sent: the request was not confirmed",
        }
        assert shown.rstrip().endswith(
            "svc: github merge_pull_request: not sent: the request was not confirmed"
        )
    assert upstream.requests == []


def test_dry_run_shows_the_request_and_sends_nothing(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    r = run(gateway, tmp_path, *ARGS, "--dry-run")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    answer = json.loads(r.stdout)
    assert answer["dry_run"] is True
    assert answer["destructive"] is True
    assert answer["confirmation_required"] is True
    check_preview(answer["request"], gateway.url)
    assert upstream.requests == []
