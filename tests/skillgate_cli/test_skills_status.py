"""`svc skills` and `svc status` against the real gateway (subprocess on loopback)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.skillgate_cli.conftest import Gateway, error_line, only_error, svc
from tests.skillgate_cli.terminal import run_in_pty


def test_skills_prints_the_servers_json_compact_when_piped(
    gateway: Gateway, tmp_path: Path
) -> None:
    r = svc("skills", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.count("\n") == 1  # one compact line
    assert json.loads(r.stdout) == gateway.get("/v1/skills")


def test_skills_integration_and_endpoint(gateway: Gateway, tmp_path: Path) -> None:
    # Connected (the runner's GitHub): the JSON and exit 0, nothing on stderr.
    key = gateway.runner_key
    r = svc("skills", "github", cwd=tmp_path, base_url=gateway.url, key=key)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert json.loads(r.stdout) == gateway.get("/v1/skills/github", key)
    assert json.loads(r.stdout)["status"] == "connected"

    r = svc("skills", "github", "create_issue", cwd=tmp_path, base_url=gateway.url, key=key)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc == gateway.get("/v1/skills/github/create_issue", key)
    assert doc["status"] == "connected"
    assert {p["name"] for p in doc["parameters"]} >= {"owner", "repo", "title"}


def test_skills_category_lists_one_category(gateway: Gateway, tmp_path: Path) -> None:
    key = gateway.runner_key
    r = svc("skills", "github", "--category", "pull_requests", cwd=tmp_path,
            base_url=gateway.url, key=key)  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc == gateway.get("/v1/skills/github?category=pull_requests", key)
    assert [c["name"] for c in doc["categories"]] == ["pull_requests"]
    assert "create_pull_request" in {e["name"] for e in doc["categories"][0]["endpoints"]}
    r = svc("skills", "--category", "issues", cwd=tmp_path, base_url=gateway.url, key=key)
    assert r.returncode != 0
    assert "--category needs an integration" in r.stdout + r.stderr


def test_skills_not_connected_prints_the_json_then_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    """The spec: "not connected" is exit 1 for `skills`, on both forms; the docs still print."""
    for args in (("github",), ("github", "create_issue")):
        r = svc("skills", *args, cwd=tmp_path, base_url=gateway.url, key=gateway.key)
        line = only_error(r, 1)
        assert "not connected" in line
        assert "svc connect github" in line
        doc = json.loads(r.stdout)
        assert doc == gateway.get("/v1/skills/" + "/".join(args))
        assert doc["status"] == "not_connected"


def test_skills_key_from_dotenv_when_not_in_environment(gateway: Gateway, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"SVC_API_KEY={gateway.key}\nSVC_BASE_URL={gateway.url}\n")
    r = svc("skills", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "integrations" in json.loads(r.stdout)


def test_environment_wins_over_dotenv(gateway: Gateway, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"SVC_API_KEY=sk_wrong\nSVC_BASE_URL={gateway.url}\n")
    r = svc("skills", cwd=tmp_path, key=gateway.key)
    assert r.returncode == 0, r.stderr


def test_unknown_integration_and_endpoint_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("skills", "nope", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    line = only_error(r, 1)
    assert "nope" in line
    assert "svc skills" in line
    assert r.stdout == ""
    r = svc("skills", "github", "nope", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    only_error(r, 1)


def test_out_of_scope_integration_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    out = gateway.get("/v1/me")
    assert out["api_key"]["scopes"] == ["*"]
    key, _ = _scoped_key(gateway, ["slack"])
    r = svc("skills", "github", cwd=tmp_path, base_url=gateway.url, key=key)
    only_error(r, 1)


def _scoped_key(gateway: Gateway, scopes: list[str]) -> tuple[str, str]:
    import urllib.request

    req = urllib.request.Request(
        gateway.url + "/api-keys",
        data=json.dumps({"name": "scoped", "scopes": scopes}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {gateway.key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        data = json.loads(resp.read())
    return data["full_key"], data["api_key"]["id"]


def test_invalid_key_exit_1_with_login_hint(gateway: Gateway, tmp_path: Path) -> None:
    bad = "sk_" + "A" * 36
    for args in (("skills",), ("status",), ("skills", "github")):
        r = svc(*args, cwd=tmp_path, base_url=gateway.url, key=bad)
        assert "svc login" in only_error(r, 1)
        assert r.stdout == ""


def test_revoked_key_exit_1_with_login_hint(gateway: Gateway, tmp_path: Path) -> None:
    key, key_id = gateway.new_key("to revoke")
    assert svc("skills", cwd=tmp_path, base_url=gateway.url, key=key).returncode == 0
    gateway.revoke(key, key_id)
    for args in (("skills",), ("status",)):
        r = svc(*args, cwd=tmp_path, base_url=gateway.url, key=key)
        assert "svc login" in only_error(r, 1)


def test_no_key_exit_1_with_login_hint(gateway: Gateway, tmp_path: Path) -> None:
    for args in (("skills",), ("status",), ("pull", "github")):
        r = svc(*args, cwd=tmp_path, base_url=gateway.url)
        assert only_error(r, 1) == "svc: no API key: run `svc login` (or set SVC_API_KEY)"


def test_status_json_shape_exactly(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("status", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert list(data) == ["user", "integrations"]
    assert data["user"] == {
        "email": "agent@example.com",
        "display_name": "agent",
        "plan": "pro",
    }
    listing = gateway.get("/v1/skills")["integrations"]
    assert data["integrations"] == [
        {"slug": i["slug"], "name": i["name"], "status": i["status"]} for i in listing
    ]
    assert all(list(i) == ["slug", "name", "status"] for i in data["integrations"])


def test_status_on_a_terminal_is_a_readable_summary(gateway: Gateway, tmp_path: Path) -> None:
    out, code = run_in_pty(["status"], cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert code == 0, out
    assert "agent@example.com" in out
    assert "pro" in out
    assert "GitHub" in out
    assert "not connected" in out
    assert not out.lstrip().startswith("{")
    # NO_COLOR: the plain-text summary, no escape sequences.
    out, code = run_in_pty(
        ["status"], cwd=tmp_path, base_url=gateway.url, key=gateway.key, NO_COLOR="1"
    )
    assert code == 0, out
    assert "\x1b[" not in out
    assert "Signed in to" in out
    assert "github" in out


def test_skills_on_a_terminal_is_indented_and_coloured(gateway: Gateway, tmp_path: Path) -> None:
    args = ["skills", "github", "get_repo"]
    out, code = run_in_pty(args, cwd=tmp_path, base_url=gateway.url, key=gateway.runner_key)
    assert code == 0, out
    assert "\x1b[" in out  # coloured
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out).replace("\r\n", "\n")
    assert plain.startswith('{\n  "name": "get_repo",\n')  # indented
    assert json.loads(plain) == gateway.get("/v1/skills/github/get_repo", gateway.runner_key)


def test_dotenv_read_only_is_still_read(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(f"SVC_API_KEY={gateway.key}\nSVC_BASE_URL={gateway.url}\n")
    env.chmod(0o400)
    r = svc("status", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["user"]["email"] == "agent@example.com"


def test_bad_base_url_exit_1(tmp_path: Path) -> None:
    r = svc("skills", cwd=tmp_path, base_url="ftp://example.com", key="sk_x")
    assert "SVC_BASE_URL" in error_line(r, 1)


def test_terminal_output_without_rich_is_plain_text(gateway: Gateway, tmp_path: Path) -> None:
    """Rich is an optional extra for the client: without it, plain text, no traceback."""
    shadow = tmp_path / "no-rich" / "rich"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('rich is not installed')\n")
    env = {"PYTHONPATH": str(shadow.parent)}
    out, code = run_in_pty(["status"], cwd=tmp_path, base_url=gateway.url, key=gateway.key, **env)
    assert code == 0, out
    assert "Signed in to" in out
    assert "\x1b[" not in out
    out, code = run_in_pty(["skills"], cwd=tmp_path, base_url=gateway.url, key=gateway.key, **env)
    assert code == 0, out
    assert json.loads(out) == gateway.get("/v1/skills")
    assert out.startswith('{\r\n  "integrations"')
