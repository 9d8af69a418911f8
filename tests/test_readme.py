"""The README's curl walkthrough runs as written against a real server."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process import clean_env, serve

README = Path(__file__).parents[1] / "README.md"


def _walkthrough() -> str:
    text = README.read_text()
    marker = text.index("<!-- readme-test")
    block = re.search(r"```sh\n(.*?)```", text[marker:], re.DOTALL)
    assert block is not None
    return block.group(1)


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's examples use jq")
def test_readme_curl_examples_work(tmp_path: Path) -> None:
    script = _walkthrough()
    assert "BASE=http://127.0.0.1:8000" in script
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parents[1])
    with serve(tmp_path) as server:
        script = script.replace("BASE=http://127.0.0.1:8000", f"BASE={server.url}")
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    me = json.loads(next(line for line in lines if line.startswith('{"id"')))
    assert me["email"] == "you@example.com"
    assert me["plan"] == "free"
    skills = json.loads(next(line for line in lines if line.startswith('{"integrations"')))
    assert {i["slug"] for i in skills["integrations"]} >= {"github", "slack", "linear"}
    assert any(line.startswith('{"integration":"github"') for line in lines)
    assert any(line.startswith('{"name":"create_issue"') for line in lines)
    assert lines[-1] == "204"
