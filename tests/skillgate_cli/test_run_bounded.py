"""Bounded output (issue 15): a piped `svc run` whose answer is larger than --max-output
saves the full JSON and prints a summary; a terminal, or a small answer, gets it all."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from skillgate_cli.bounded import PREVIEW_BYTES, count_items, preview
from skillgate_cli.gitignore import ignores_dir
from tests.skillgate_cli.conftest import Gateway, mode, only_error, svc, svc_process
from tests.skillgate_cli.fakes import FakeGateway, Reply
from tests.skillgate_cli.terminal import run_in_pty

ISSUES = "/repos/o/r/issues"
LIST = ("run", "github", "list_issues", "--owner", "o", "--repo", "r")


def issues(n: int) -> list[dict[str, Any]]:
    return [
        {"number": i, "title": f"Issue {i}: " + "x" * 60, "user": {"login": f"u{i}"}}
        for i in range(1, n + 1)
    ]


def project(tmp_path: Path, skills: str | None = ".claude/skills") -> Path:
    """A git work tree; with `skills`, that platform's skill directory exists."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    if skills:
        (root / skills).mkdir(parents=True)
    return root


def run(gateway: Gateway, cwd: Path, *args: str) -> Any:
    return svc(*args, cwd=cwd, base_url=gateway.url, key=gateway.runner_key)


def test_a_large_piped_answer_is_saved_and_summarised(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    body = issues(1000)
    upstream.on("GET", ISSUES, Reply(200, body))
    root = project(tmp_path)
    r = run(gateway, root, *LIST)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    summary = json.loads(r.stdout)
    assert set(summary) == {"status", "saved_to", "bytes", "items", "preview"}
    assert summary["status"] == 200
    assert summary["items"] == 1000
    saved = root / summary["saved_to"]
    assert saved.parent == root / ".claude/skills/out"
    assert saved.name.startswith("github-list_issues-")
    assert saved.suffix == ".json"
    assert json.loads(saved.read_text()) == {"status": 200, "data": body}
    assert summary["bytes"] == len(saved.read_bytes()) - 1  # the file ends with a newline
    assert summary["bytes"] > 65536
    assert mode(saved) == 0o600
    assert len(json.dumps(summary["preview"], separators=(",", ":"))) <= PREVIEW_BYTES
    assert summary["preview"][0] == body[0]  # the first items, whole when they fit
    assert len(r.stdout) < 3 * PREVIEW_BYTES
    assert (root / ".gitignore").read_text() == "/.claude/skills/out/\n"

    # From a subdirectory: the same out/, shown relative to it, .gitignore unchanged.
    sub = root / "src"
    sub.mkdir()
    again = json.loads(run(gateway, sub, *LIST).stdout)
    assert again["saved_to"].startswith("../.claude/skills/out/github-list_issues-")
    assert (sub / again["saved_to"]).resolve() != saved.resolve()
    assert json.loads((sub / again["saved_to"]).read_text())["data"] == body
    assert (root / ".gitignore").read_text() == "/.claude/skills/out/\n"


def test_the_exit_code_is_the_full_answers(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    error = {"message": "Validation Failed", "errors": [{"field": f"f{i}"} for i in range(6000)]}
    upstream.on("GET", ISSUES, Reply(422, error))
    root = project(tmp_path)
    r = run(gateway, root, *LIST)
    assert "the service refused (422): Validation Failed" in only_error(r, 1)
    summary = json.loads(r.stdout)
    assert (summary["status"], summary["items"]) == (422, None)
    assert json.loads((root / summary["saved_to"]).read_text()) == {"status": 422, "error": error}
    assert summary["preview"]["message"] == "Validation Failed"


def test_small_answers_and_max_output_0_print_in_full(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    root = project(tmp_path)
    upstream.on("GET", ISSUES, Reply(200, issues(3)))
    r = run(gateway, root, *LIST)
    assert json.loads(r.stdout) == {"status": 200, "data": issues(3)}
    upstream.on("GET", ISSUES, Reply(200, issues(1000)))
    r = run(gateway, root, *LIST, "--max-output", "0")
    assert json.loads(r.stdout) == {"status": 200, "data": issues(1000)}
    # A lower bound than the default: 30 issues (~3 KB) are saved.
    upstream.on("GET", ISSUES, Reply(200, issues(30)))
    r = run(gateway, root, *LIST, "--max-output", "1024")
    summary = json.loads(r.stdout)
    assert summary["items"] == 30
    assert summary["bytes"] > 1024
    assert list((root / ".claude/skills/out").iterdir()) == [root / summary["saved_to"]]


def test_without_a_skill_directory_the_file_goes_to_the_temp_dir(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("GET", ISSUES, Reply(200, issues(1000)))
    root = project(tmp_path, skills=None)
    temp = tmp_path / "tmp"
    temp.mkdir()
    r = svc_process(*LIST, cwd=root, base_url=gateway.url, key=gateway.runner_key, TMPDIR=str(temp))
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    saved = Path(summary["saved_to"])
    assert saved.is_absolute()
    assert saved.parent == temp
    assert saved.name.startswith("svc-github-list_issues-")
    assert mode(saved) == 0o600
    assert json.loads(saved.read_text())["data"] == issues(1000)
    assert not (root / ".gitignore").exists()


def test_a_terminal_gets_the_whole_answer(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("GET", ISSUES, Reply(200, issues(1000)))
    root = project(tmp_path)
    out, code = run_in_pty(list(LIST), cwd=root, base_url=gateway.url, key=gateway.runner_key)
    assert code == 0
    assert json.loads(out) == {"status": 200, "data": issues(1000)}
    assert os.listdir(root / ".claude/skills") == []


def test_an_existing_gitignore_rule_is_kept(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    upstream.on("GET", ISSUES, Reply(200, issues(1000)))
    root = project(tmp_path, skills=".agents/skills")
    (root / ".gitignore").write_text(".env\n.agents/\n")
    summary = json.loads(run(gateway, root, *LIST).stdout)
    assert summary["saved_to"].startswith(".agents/skills/out/")
    assert (root / ".gitignore").read_text() == ".env\n.agents/\n"


@pytest.mark.parametrize(
    ("document", "items"),
    [
        ({"status": 200, "data": [1, 2, 3]}, 3),
        ({"status": 200, "data": {"ok": True, "messages": [{}, {}], "has_more": False}}, 2),
        ({"status": 200, "data": {"a": [1], "b": [2]}}, None),
        ({"status": 200, "data": "text"}, None),
        ({"error": "x", "message": "y"}, None),
    ],
)
def test_items_count_the_data(document: Any, items: int | None) -> None:
    assert count_items(document) == items


def test_the_preview_stays_within_its_bytes() -> None:
    wide = {"status": 200, "data": {f"key{i}": "v" * 300 for i in range(500)}}
    deep: Any = "leaf"
    for _ in range(50):
        deep = {"next": [deep, "x" * 1000]}
    long_text = {"status": 200, "data": "é" * 100000}
    for doc in (wide, {"status": 200, "data": deep}, long_text):
        cut = preview(doc)
        assert len(json.dumps(cut, ensure_ascii=False, separators=(",", ":")).encode()) <= (
            PREVIEW_BYTES
        )
    assert preview(long_text).startswith("é" * 100)
    assert list(preview(wide))[:3] == ["key0", "key1", "key2"]


@pytest.mark.parametrize(
    ("lines", "ignored"),
    [
        ([], False),
        (["/.claude/skills/out/"], True),
        ([".claude/skills/out"], True),
        (["out/"], True),  # any directory named out
        ([".claude/"], True),  # a parent
        (["/.claude/skills/*"], True),
        (["skills/out/"], False),  # anchored: only at the root
        (["*.json", ".env"], False),
        ([".claude/", "!.claude/"], False),
        (["# /.claude/skills/out/"], False),
    ],
)
def test_which_gitignore_lines_cover_out(lines: list[str], ignored: bool) -> None:
    assert ignores_dir(lines, ".claude/skills/out") is ignored
