"""`svc run` under a key's policy (issue 28): the real `svc` executable against the real
gateway process; a call the policy refuses exits 1 (a client error, the spec's table)
with one `svc:` line naming the rule, and reaches no provider."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.process import run_cli
from tests.skillgate_cli.conftest import PASSWORD, RUNNER, Gateway, only_error, svc_process
from tests.skillgate_cli.fakes import FakeGateway, Reply

POLICY = {
    "rules": [
        {
            "name": "our repositories",
            "match": {"integration": "github", "endpoint": "create_issue"},
            "action": "allow",
            "params": {"owner": {"one_of": ["o"]}},
        },
        {"name": "no deletes", "match": {"class": "destructive"}, "action": "deny"},
    ]
}


def _json(url: str, method: str, body: Any, headers: dict[str, str]) -> Any:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _key_under_policy(gateway: Gateway) -> str:
    """A new key of the runner (GitHub connected) with POLICY, set with the runner's
    access token."""
    out = run_cli(
        "skillgate", "keys", "create", "--email", RUNNER, "--name", "policy",
        cwd=gateway.workdir,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    created = json.loads(out.stdout)
    login = {"email": RUNNER, "password": PASSWORD}
    token = _json(f"{gateway.url}/auth/login", "POST", login, {})["access_token"]
    stored = _json(
        f"{gateway.url}/api-keys/{created['id']}/policy",
        "PUT",
        POLICY,
        {"Authorization": f"Bearer {token}"},
    )
    assert stored["policy"] == POLICY
    return str(created["full_key"])


def test_svc_run_refused_by_the_policy_exits_1_and_sends_nothing(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    key = _key_under_policy(gateway)
    upstream.on("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))

    def run(*args: str) -> Any:
        return svc_process("run", "github", *args, cwd=tmp_path, base_url=gateway.url, key=key)

    r = run("create_issue", "--owner", "evil", "--repo", "r", "--title", "T")
    line = only_error(r, 1)
    assert "rule 1 ('our repositories')" in line.lower()
    assert "owner: 'evil' is not one of ['o']" in line
    assert json.loads(r.stdout)["error"] == "policy_denied"

    r = run("merge_pull_request", "--owner", "o", "--repo", "r", "--pull_number", "3")
    assert "('no deletes')" in only_error(r, 1)

    r = run("create_issue", "--owner", "evil", "--repo", "r", "--title", "T", "--dry-run")
    assert r.returncode == 0, r.stderr
    shown = json.loads(r.stdout)["policy"]
    assert shown["action"] == "deny"
    assert shown["rule"] == {"index": 1, "name": "our repositories"}
    assert upstream.requests == []

    r = run("create_issue", "--owner", "o", "--repo", "r", "--title", "T")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 7}}
    assert len(upstream.calls("POST", "/repos/o/r/issues")) == 1


def test_svc_run_held_then_svc_approve_sends_it_once(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    """A held call exits 1 with the approval; the agent's key cannot approve it; the
    person's `approve` key (SVC_APPROVE_KEY) can, once; the agent's retry gets the
    answer."""
    out = run_cli(
        "skillgate", "keys", "create", "--email", RUNNER, "--name", "held",
        cwd=gateway.workdir,
    )  # fmt: skip
    created = json.loads(out.stdout)
    key = str(created["full_key"])
    token = _json(f"{gateway.url}/auth/login", "POST", {"email": RUNNER, "password": PASSWORD}, {})[
        "access_token"
    ]
    person = {"Authorization": f"Bearer {token}"}
    hold = {"rules": [{"match": {"integration": "github", "class": "write"}, "action": "approve"}]}
    _json(f"{gateway.url}/api-keys/{created['id']}/policy", "PUT", hold, person)
    approver = _json(
        f"{gateway.url}/api-keys", "POST", {"name": "me", "scopes": ["approve"]}, person
    )["full_key"]
    upstream.on("POST", "/repos/o/r/issues", Reply(201, {"number": 8}))
    call = ("run", "github", "create_issue", "--owner", "o", "--repo", "r", "--title", "T")

    r = svc_process(*call, cwd=tmp_path, base_url=gateway.url, key=key)
    line = only_error(r, 1)
    assert "waits for a person's approval" in line
    held = json.loads(r.stdout)
    assert held["error"] == "approval_pending"
    approval_id = held["approval"]["id"]
    assert line.count(approval_id) >= 1

    r = svc_process("approve", approval_id, cwd=tmp_path, base_url=gateway.url, key=key)
    assert "approve" in only_error(r, 1)  # the agent's own key: no `approve` scope
    assert upstream.requests == []

    r = svc_process(
        "approve", approval_id, cwd=tmp_path, base_url=gateway.url, key=key,
        SVC_APPROVE_KEY=approver,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    decided = json.loads(r.stdout)
    assert decided["state"] == "sent"
    assert decided["result"] == {"status": 201, "data": {"number": 8}}
    [sent] = upstream.calls("POST", "/repos/o/r/issues")
    assert sent.body == {"title": "T"}

    r = svc_process(
        "approve", approval_id, cwd=tmp_path, base_url=gateway.url, SVC_APPROVE_KEY=approver
    )
    assert "no longer pending" in only_error(r, 1)
    r = svc_process(*call, cwd=tmp_path, base_url=gateway.url, key=key)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"status": 201, "data": {"number": 8}}
    assert len(upstream.calls("POST", "/repos/o/r/issues")) == 1
