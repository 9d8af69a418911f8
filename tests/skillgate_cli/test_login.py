"""`svc login --key` and `svc logout` against the real gateway: .env, .gitignore, pointer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillgate_cli import __version__
from tests import skill_format
from tests.skillgate_cli.conftest import Gateway, error_line, mode, only_error, svc

POINTERS = {
    "claude": ".claude/skills/svc/SKILL.md",
    "cursor": ".cursor/skills/svc/SKILL.md",
    "windsurf": ".windsurf/skills/svc/SKILL.md",
    "codex": ".agents/skills/svc/SKILL.md",
    "gemini": ".agents/skills/svc/SKILL.md",
    "copilot": ".agents/skills/svc/SKILL.md",
    "generic": ".agents/skills/svc/SKILL.md",
}
# What marks each platform in the project root, in detection order.
MARKERS = {
    "claude": ".claude/",
    "cursor": ".cursor/",
    "windsurf": ".windsurf/",
    "codex": ".codex/",
    "gemini": ".gemini/",
    "copilot": ".github/copilot-instructions.md",
}


def make_marker(root: Path, marker: str) -> None:
    path = root / marker
    if marker.endswith("/"):
        path.mkdir(parents=True)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("Use svc.\n")


def login(gateway: Gateway, cwd: Path, *args: str, key: str | None = None) -> dict[str, object]:
    r = svc("login", "--key", key or gateway.key, *args, cwd=cwd, base_url=gateway.url)
    assert r.returncode == 0, r.stderr
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_login_writes_dotenv_0600_and_pointer(gateway: Gateway, tmp_path: Path) -> None:
    data = login(gateway, tmp_path)
    env = tmp_path / ".env"
    assert env.read_text() == (
        f"SVC_API_KEY={gateway.key}\nSVC_PLATFORM=generic\nSVC_BASE_URL={gateway.url}\n"
    )
    assert mode(env) == 0o600
    assert data["user"] == {"email": "agent@example.com", "display_name": "agent", "plan": "pro"}
    assert data["platform"] == "generic"
    assert data["pointer"] == POINTERS["generic"]
    # The saved settings are enough for the next command.
    r = svc("status", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["user"]["email"] == "agent@example.com"


def test_pointer_is_a_skill_with_front_matter(gateway: Gateway, tmp_path: Path) -> None:
    login(gateway, tmp_path)
    text = (tmp_path / POINTERS["generic"]).read_text()
    assert text.startswith("---\nname: svc\ndescription: >-\n")
    assert skill_format.problems(text, "svc") == []  # name = its folder, Agent Skills rules
    meta = skill_format.front_matter(text)["metadata"]
    assert meta == {"generator": "svc", "version": __version__}
    front, body = text.split("\n---\n", 1)
    assert "Skill Gateway" in front
    for command in ("svc status", "svc skills", "svc run", "svc pull", "svc connect"):
        assert command in body
    assert gateway.url in body


@pytest.mark.parametrize("platform", list(MARKERS))
def test_platform_detected_from_its_marker(gateway: Gateway, tmp_path: Path, platform: str) -> None:
    make_marker(tmp_path, MARKERS[platform])
    data = login(gateway, tmp_path)
    assert data["platform"] == platform
    assert data["pointer"] == POINTERS[platform]
    assert (tmp_path / POINTERS[platform]).is_file()
    assert f"SVC_PLATFORM={platform}\n" in (tmp_path / ".env").read_text()
    others = {p for p in POINTERS.values() if p != POINTERS[platform]}
    assert not any((tmp_path / p).exists() for p in others)


def test_a_github_folder_alone_is_not_copilot(gateway: Gateway, tmp_path: Path) -> None:
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".codex").write_text("a file, not the folder")
    assert login(gateway, tmp_path)["platform"] == "generic"


@pytest.mark.parametrize("platform", list(POINTERS))
def test_platform_flag_overrides_detection(gateway: Gateway, tmp_path: Path, platform: str) -> None:
    (tmp_path / ".cursor").mkdir()
    data = login(gateway, tmp_path, "--platform", platform)
    assert data["platform"] == platform
    assert (tmp_path / POINTERS[platform]).is_file()


def test_svc_platform_accepts_every_name(gateway: Gateway, tmp_path: Path) -> None:
    for platform in POINTERS:
        r = svc(
            "login", "--key", gateway.key, cwd=tmp_path, base_url=gateway.url,
            SVC_PLATFORM=platform.upper(),
        )  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["platform"] == platform
    r = svc("login", "--key", gateway.key, cwd=tmp_path, base_url=gateway.url, SVC_PLATFORM="vim")
    assert "copilot" in only_error(r, 1)


def test_login_again_keeps_the_chosen_platform(gateway: Gateway, tmp_path: Path) -> None:
    login(gateway, tmp_path, "--platform", "windsurf")
    (tmp_path / ".claude").mkdir()
    assert login(gateway, tmp_path)["platform"] == "windsurf"  # SVC_PLATFORM from .env
    assert login(gateway, tmp_path, "--platform", "claude")["platform"] == "claude"
    assert "SVC_PLATFORM=claude\n" in (tmp_path / ".env").read_text()


def test_marker_order_decides_when_several_exist(gateway: Gateway, tmp_path: Path) -> None:
    names = list(MARKERS)
    for platform in reversed(names):
        make_marker(tmp_path, MARKERS[platform])
    for platform in names:
        (tmp_path / ".env").unlink(missing_ok=True)  # detection, not the saved choice
        assert login(gateway, tmp_path)["platform"] == platform
        marker = tmp_path / MARKERS[platform]
        shutil.rmtree(marker) if marker.is_dir() else marker.unlink()


def test_a_platform_change_removes_the_pointer_svc_wrote(gateway: Gateway, tmp_path: Path) -> None:
    login(gateway, tmp_path, "--platform", "claude")
    old = tmp_path / POINTERS["claude"]
    assert old.is_file()
    data = login(gateway, tmp_path, "--platform", "cursor")
    assert data["removed_pointer"] == POINTERS["claude"]
    assert not old.exists()
    assert not old.parent.exists()  # the then-empty svc/ folder
    assert (tmp_path / ".claude" / "skills").is_dir()  # nothing above it
    assert (tmp_path / POINTERS["cursor"]).is_file()
    # Codex -> Gemini share .agents/skills: the pointer stays, nothing is removed.
    login(gateway, tmp_path, "--platform", "codex")
    data = login(gateway, tmp_path, "--platform", "gemini")
    assert "removed_pointer" not in data
    assert (tmp_path / POINTERS["gemini"]).is_file()


def test_a_platform_change_keeps_a_skill_md_that_is_not_ours(
    gateway: Gateway, tmp_path: Path
) -> None:
    login(gateway, tmp_path, "--platform", "claude")
    old = tmp_path / POINTERS["claude"]
    theirs = "---\nname: svc\ndescription: my own notes\n---\n"
    old.write_text(theirs)
    assert "removed_pointer" not in login(gateway, tmp_path, "--platform", "windsurf")
    assert old.read_text() == theirs
    # Ours again, with a file of the user's beside it: the pointer goes, the folder stays.
    login(gateway, tmp_path, "--platform", "claude")
    (old.parent / "notes.md").write_text("mine")
    login(gateway, tmp_path, "--platform", "windsurf")
    assert not old.exists()
    assert (old.parent / "notes.md").read_text() == "mine"


def test_invalid_key_writes_nothing(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("login", "--key", "sk_" + "B" * 36, cwd=tmp_path, base_url=gateway.url)
    assert "svc login" in only_error(r, 1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad", ["sk_" + "B" * 36, "sk_bad key", "sk_kéy"])
def test_a_bad_key_message_says_each_thing_once(gateway: Gateway, tmp_path: Path, bad: str) -> None:
    """Refused or malformed, with SVC_API_KEY also set: one hint, no repeated advice."""
    r = svc("login", "--key", bad, cwd=tmp_path, base_url=gateway.url, SVC_API_KEY=gateway.key)
    line = only_error(r, 1)
    assert line.count("SVC_API_KEY") <= 1, line
    assert line.count("svc login") == 1, line
    assert line.endswith("run `svc login --key <key>`")
    assert list(tmp_path.iterdir()) == []


def test_revoked_key_is_refused(gateway: Gateway, tmp_path: Path) -> None:
    key, key_id = gateway.new_key("revoked before login")
    gateway.revoke(key, key_id)
    r = svc("login", "--key", key, cwd=tmp_path, base_url=gateway.url)
    only_error(r, 1)
    assert not (tmp_path / ".env").exists()


def test_key_from_stdin(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("login", "--key", "-", cwd=tmp_path, base_url=gateway.url, input=gateway.key + "\n")
    assert r.returncode == 0, r.stderr
    assert f"SVC_API_KEY={gateway.key}\n" in (tmp_path / ".env").read_text()


def test_dotenv_other_lines_comments_and_quotes_kept(gateway: Gateway, tmp_path: Path) -> None:
    original = (
        "# project settings\n"
        "DATABASE_URL='postgres://u:p@h/db'  \n"
        'GREETING="hello # not a comment"\n'
        "\n"
        'export SVC_API_KEY="sk_old"  # the old key\n'
        "OTHER=1 # trailing comment\n"
        "SVC_PLATFORM=cursor"  # no final newline
    )
    env = tmp_path / ".env"
    env.write_text(original)
    login(gateway, tmp_path, "--platform", "claude")
    assert env.read_text() == (
        "# project settings\n"
        "DATABASE_URL='postgres://u:p@h/db'  \n"
        'GREETING="hello # not a comment"\n'
        "\n"
        f'export SVC_API_KEY="{gateway.key}"  # the old key\n'
        "OTHER=1 # trailing comment\n"
        "SVC_PLATFORM=claude\n"
        f"SVC_BASE_URL={gateway.url}\n"
    )
    assert mode(env) == 0o600


def test_dotenv_crlf_line_endings_kept(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes(b"# windows\r\nA=1\r\nSVC_API_KEY=sk_old\r\nB=2\r\n")
    login(gateway, tmp_path)
    assert env.read_bytes() == (
        b"# windows\r\nA=1\r\n"
        + f"SVC_API_KEY={gateway.key}\r\nB=2\r\n".encode()
        + f"SVC_PLATFORM=generic\r\nSVC_BASE_URL={gateway.url}\r\n".encode()
    )


def test_dotenv_existing_mode_becomes_0600(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("A=1\n")
    env.chmod(0o644)
    login(gateway, tmp_path)
    assert mode(env) == 0o600
    assert env.read_text().startswith("A=1\n")


def test_read_only_dotenv_is_refused_and_left_alone(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("A=1\n")
    env.chmod(0o444)
    r = svc("login", "--key", gateway.key, cwd=tmp_path, base_url=gateway.url)
    line = error_line(r, 1)
    assert "read-only" in line
    assert "chmod" in line
    assert env.read_text() == "A=1\n"
    assert mode(env) == 0o444
    assert not (tmp_path / ".agents").exists()  # no pointer either


def test_gitignore_gets_dotenv_in_a_git_work_tree(gateway: Gateway, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_bytes(b"node_modules/\r\n*.pyc")
    login(gateway, tmp_path)
    assert (tmp_path / ".gitignore").read_bytes() == b"node_modules/\r\n*.pyc\r\n.env\r\n"
    login(gateway, tmp_path)  # idempotent
    assert (tmp_path / ".gitignore").read_bytes().count(b".env") == 1


def test_gitignore_in_a_subdirectory_of_a_work_tree(gateway: Gateway, tmp_path: Path) -> None:
    """No .env on the way up: the git root is the project root (like git finds .git)."""
    (tmp_path / ".git").mkdir()
    sub = tmp_path / "app"
    sub.mkdir()
    data = login(gateway, sub)
    assert data["gitignore_updated"] is True
    assert data["env_file"] == "../.env"
    assert (tmp_path / ".gitignore").read_text() == ".env\n"
    assert (tmp_path / ".env").is_file()
    assert not (sub / ".env").exists()
    assert data["pointer"] == "../" + POINTERS["generic"]


def test_gitignore_left_alone_when_already_ignored_or_not_a_repo(
    gateway: Gateway, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".gitignore").write_text("*.env\n.env*\n")
    login(gateway, repo)
    assert (repo / ".gitignore").read_text() == "*.env\n.env*\n"
    plain = tmp_path / "plain"
    plain.mkdir()
    login(gateway, plain)
    assert not (plain / ".gitignore").exists()


def test_logout_removes_only_the_key(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes(b"# keep\r\nA=1\r\n")
    login(gateway, tmp_path)
    r = svc("logout", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert env.read_bytes() == (
        f"# keep\r\nA=1\r\nSVC_PLATFORM=generic\r\nSVC_BASE_URL={gateway.url}\r\n".encode()
    )
    assert mode(env) == 0o600
    r = svc("status", cwd=tmp_path)
    assert "svc login" in only_error(r, 1)
    again = svc("logout", cwd=tmp_path)
    assert again.returncode == 0
    assert "nothing to remove" in again.stderr


def test_logout_with_read_only_dotenv(gateway: Gateway, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("SVC_API_KEY=sk_x\n")
    env.chmod(0o400)
    r = svc("logout", cwd=tmp_path)
    assert "read-only" in only_error(r, 1)
    assert env.read_text() == "SVC_API_KEY=sk_x\n"
