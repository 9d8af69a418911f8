"""`svc run` against a recording gateway that answers exactly DESIGN "Execution".

The server's POST /v1/:integration/:endpoint is being built; these tests are
named `test_*_contract_*` so they can later be pointed at the real server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.skillgate_cli.conftest import Gateway, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply

PATH = "/v1/github/create_issue"
ARGS = ("run", "github", "create_issue", "--owner", "o", "--repo", "r", "--title", "Bug")


def envelope(status: int, **body: Any) -> Reply:
    return Reply(200, {"status": status, **body}, {"X-Upstream-Status": str(status)})


def run(fake: FakeGateway, cwd: Path, *args: str) -> Any:
    return svc(*(args or ARGS), cwd=cwd, base_url=fake.url, key="sk_test")


def test_run_contract_request_is_the_params_object(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", PATH, envelope(201, data={"number": 7}))
    r = run(fake, tmp_path, *ARGS, "--labels", "bug,ui", "--milestone", "3", "--draft")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    [call] = fake.calls("POST", PATH)
    assert call.body == {
        "params": {
            "owner": "o",
            "repo": "r",
            "title": "Bug",
            "labels": ["bug", "ui"],
            "milestone": 3,
            "draft": True,
        },
        # The text of flags whose guessed value is not that text (DESIGN "Execution").
        "as_typed": {"labels": "bug,ui", "milestone": "3"},
    }
    assert call.headers["Authorization"] == "Bearer sk_test"
    assert call.headers["Content-Type"] == "application/json"
    assert call.headers["User-Agent"].startswith("svc/")


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (200, {"data": {"id": 1}}, 0),
        (201, {"data": {"number": 7}}, 0),
        (204, {"data": None}, 0),
        (301, {"data": {"message": "Moved"}}, 1),
        (404, {"error": {"message": "Not Found", "documentation_url": "https://x"}}, 1),
        (422, {"error": {"message": "Validation Failed"}}, 1),
        (500, {"error": {"message": "boom"}}, 2),
        (503, {"error": "Service Unavailable"}, 2),
    ],
)
def test_run_contract_upstream_status_sets_the_exit_code(
    fake: FakeGateway, tmp_path: Path, status: int, body: dict[str, Any], code: int
) -> None:
    fake.on("POST", PATH, envelope(status, **body))
    r = run(fake, tmp_path)
    assert r.returncode == code, r.stderr
    assert json.loads(r.stdout) == {"status": status, **body}  # the envelope, as sent
    if code == 0:
        assert r.stderr == ""
    else:
        line = only_error(r, code)
        assert str(status) in line
        if "error" in body and isinstance(body["error"], dict):
            assert body["error"]["message"] in line


def test_run_contract_upstream_401_says_reconnect(fake: FakeGateway, tmp_path: Path) -> None:
    """The provider refused the stored credentials: the parameters are not the problem,
    so the hint is to reconnect (the envelope's action_url, `svc connect`), issue 23.9."""
    fake.on("POST", PATH, envelope(401, error={"message": "Bad credentials"},
                                   action_url="http://app/integrations/github"))  # fmt: skip
    line = only_error(run(fake, tmp_path), 1)
    assert "Bad credentials" in line
    assert "reconnect at http://app/integrations/github or run `svc connect github`" in line
    assert "check the parameters" not in line


def test_run_contract_200_envelope_with_error_is_exit_1(fake: FakeGateway, tmp_path: Path) -> None:
    """Slack answers HTTP 200 {"ok": false}; the gateway passes it on as `error`."""
    fake.on(
        "POST",
        "/v1/slack/post_message",
        envelope(200, error={"ok": False, "error": "channel_not_found"}),
    )
    r = run(fake, tmp_path, "run", "slack", "post_message", "--channel", "C1", "--text", "hi")
    assert "channel_not_found" in only_error(r, 1)
    assert json.loads(r.stdout)["error"]["error"] == "channel_not_found"


@pytest.mark.parametrize(
    ("status", "body", "headers", "code", "expected"),
    [
        (400, {"error": "bad_request", "message": "titel: unknown parameter; did you mean title?"},
         {}, 1, "did you mean title"),
        (403, {"error": "integration_not_connected", "message": "GitHub is not connected.",
               "action_url": "http://app/integrations/github"}, {}, 1,
         "http://app/integrations/github"),
        (403, {"error": "scope_not_allowed", "message": "This key may not use github."},
         {}, 1, "may not use github"),
        (401, {"error": "token_expired", "message": "Reconnect GitHub.",
               "action_url": "http://app/integrations/github"}, {}, 1, "Reconnect GitHub"),
        (401, {"error": "unauthorized", "message": "Invalid API key."}, {}, 1, "svc login"),
        (429, {"error": "rate_limited", "message": "Too many requests."},
         {"Retry-After": "17"}, 1, "retry in 17 s"),
        (502, {"error": "upstream_unavailable", "message": "GitHub could not be reached."},
         {}, 2, "could not be reached"),
        (504, {"error": "upstream_timeout", "message": "GitHub did not answer in time."},
         {}, 2, "did not answer in time"),
    ],
)  # fmt: skip
def test_run_contract_gateway_errors(
    fake: FakeGateway,
    tmp_path: Path,
    status: int,
    body: dict[str, Any],
    headers: dict[str, str],
    code: int,
    expected: str,
) -> None:
    fake.on("POST", PATH, Reply(status, body, headers))
    r = run(fake, tmp_path)
    line = only_error(r, code)
    assert expected in line
    if body["error"] in ("integration_not_connected", "token_expired"):
        assert line.endswith("run `svc connect github`")
    assert json.loads(r.stdout) == body  # the gateway's error body, for the agent


def test_run_contract_as_typed_holds_single_flags_only(fake: FakeGateway, tmp_path: Path) -> None:
    fake.on("POST", PATH, envelope(201, data={}))
    r = run(
        fake, tmp_path, "run", "github", "create_issue", "--owner", "o", "--repo", "007",
        "--title=true", "--body", '{"k": 1}', "--draft", "--a", "1", "--a", "2",
        "--issue-number", "1e3", "--v", "1.0", "--x", "no", '{"x": "5"}',
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    body = fake.requests[-1].body
    assert body["params"] == {
        "owner": "o", "repo": "007", "title": True, "body": {"k": 1}, "draft": True,
        "a": [1, 2], "issue_number": "1e3", "v": 1.0, "x": "5",
    }  # fmt: skip
    # Not bare flags, not repeated ones, not keys a positional object set, not exact texts.
    assert body["as_typed"] == {"title": "true", "body": '{"k": 1}', "v": "1.0"}


def test_run_contract_bad_flags_exit_1_without_a_request(fake: FakeGateway, tmp_path: Path) -> None:
    r = run(fake, tmp_path, "run", "github", "create_issue", "--owner", "o", "stray")
    line = only_error(r, 1)
    assert "stray" in line
    assert json.loads(r.stdout)["error"] == "bad_params"
    assert fake.requests == []


def test_run_contract_no_key_exit_1(fake: FakeGateway, tmp_path: Path) -> None:
    r = svc(*ARGS, cwd=tmp_path, base_url=fake.url)
    assert "svc login" in only_error(r, 1)
    assert json.loads(r.stdout)["error"] == "no_api_key"
    assert fake.requests == []


def test_run_contract_names_are_path_segments(fake: FakeGateway, tmp_path: Path) -> None:
    r = run(fake, tmp_path, "run", "git/hub", "create_issue", "--x", "1")
    only_error(r, 1)  # the fake's 404
    assert [c.path for c in fake.requests] == ["/v1/git%2Fhub/create_issue"]


def test_run_contract_help_after_the_endpoint(fake: FakeGateway, tmp_path: Path) -> None:
    """No documentation to be had (the fake has none): the generic help and why; never a call."""
    r = run(fake, tmp_path, "run", "github", "create_issue", "--help")
    assert r.returncode == 0
    assert "Usage: svc run" in r.stdout
    assert "note: no documentation for github create_issue" in r.stderr
    assert [(c.method, c.path) for c in fake.requests] == [
        ("GET", "/v1/skills/github/create_issue")
    ]


def test_run_contract_declared_types_after_pull(
    gateway: Gateway, fake: FakeGateway, tmp_path: Path
) -> None:
    """After a real `svc pull github`, `--title 50` stays the string "50" and
    `--milestone 3` a number; without the pull they are guessed."""
    fake.on("POST", PATH, envelope(201, data={}))
    args = (*ARGS[:-1], "50", "--milestone", "3", "--labels", "7")
    r = run(fake, tmp_path, *args)
    assert r.returncode == 0, r.stderr
    assert fake.requests[-1].body["params"]["title"] == 50  # guessed

    pulled = svc("pull", "github", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert pulled.returncode == 0, pulled.stderr
    r = run(fake, tmp_path, *args)
    assert r.returncode == 0, r.stderr
    params = fake.requests[-1].body["params"]
    assert params["title"] == "50"
    assert params["milestone"] == 3
    assert params["labels"] == ["7"]  # array of string

    r = run(fake, tmp_path, *ARGS, "--milestone", "soon")
    assert "--milestone expects a number" in only_error(r, 1)
