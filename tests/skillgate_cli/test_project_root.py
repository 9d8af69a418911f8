"""`svc` finds the project's `.env` like git finds `.git` (the real gateway, real `svc`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.skillgate_cli.conftest import Gateway, only_error, svc


def _env(gateway: Gateway, path: Path, **extra: str) -> None:
    lines = [f"SVC_API_KEY={gateway.key}", f"SVC_BASE_URL={gateway.url}"]
    lines += [f"{k}={v}" for k, v in extra.items()]
    path.write_text("\n".join(lines) + "\n")


def test_dotenv_in_a_parent_is_found(gateway: Gateway, tmp_path: Path) -> None:
    _env(gateway, tmp_path / ".env")
    deep = tmp_path / "src" / "pkg"
    deep.mkdir(parents=True)
    r = svc("status", cwd=deep)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["user"]["email"] == "agent@example.com"


def test_the_search_stops_at_the_git_root(gateway: Gateway, tmp_path: Path) -> None:
    _env(gateway, tmp_path / ".env")  # above the repository: not this project's
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    sub = repo / "sub"
    sub.mkdir()
    r = svc("status", cwd=sub)
    assert "no API key" in only_error(r, 1)
    _env(gateway, repo / ".env")  # at the git root: found (inclusive)
    assert svc("status", cwd=sub).returncode == 0


def test_a_dotenv_directory_is_not_the_file(gateway: Gateway, tmp_path: Path) -> None:
    """A virtualenv named `.env` is skipped, the search goes on upward."""
    _env(gateway, tmp_path / ".env")
    project = tmp_path / "project"
    (project / ".env" / "bin").mkdir(parents=True)
    assert svc("status", cwd=project).returncode == 0


def test_the_project_root_holds_skills_and_login_writes(gateway: Gateway, tmp_path: Path) -> None:
    """From a subdirectory: platform detection, pull and login all use the root."""
    _env(gateway, tmp_path / ".env", SVC_PLATFORM="claude")
    (tmp_path / ".cursor").mkdir()
    sub = tmp_path / "web" / "app"
    sub.mkdir(parents=True)
    r = svc("pull", "slack", cwd=sub)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["path"] == "../../.claude/skills/svc-slack"
    assert (tmp_path / ".claude/skills/svc-slack/SKILL.md").is_file()

    key, _ = gateway.new_key("root login")
    r = svc("login", "--key", key, cwd=sub)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["env_file"] == "../../.env"
    assert data["pointer"] == "../../.claude/skills/svc/SKILL.md"
    assert f"SVC_API_KEY={key}\n" in (tmp_path / ".env").read_text()
    assert not (sub / ".env").exists()
    assert not (sub / ".claude").exists()

    (tmp_path / ".env").unlink()
    shutil.rmtree(tmp_path / ".claude")
    (tmp_path / ".git").mkdir()  # no .env: the git root; detection looks there
    r = svc("login", "--key", key, cwd=sub, base_url=gateway.url)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["platform"] == "cursor"
    assert (tmp_path / ".env").is_file()
