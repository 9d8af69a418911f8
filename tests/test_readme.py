"""The README's curl walkthroughs run as written against a real server."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process import clean_env, serve
from tests.upstream import Provider

README = Path(__file__).parents[1] / "README.md"


def _walkthroughs() -> list[str]:
    text = README.read_text()
    blocks = []
    for marker in re.finditer(r"<!-- readme-test", text):
        block = re.search(r"```sh\n(.*?)```", text[marker.start() :], re.DOTALL)
        assert block is not None
        blocks.append(block.group(1))
    return blocks


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's examples use jq")
def test_readme_curl_examples_work(tmp_path: Path, provider: Provider) -> None:
    blocks = _walkthroughs()
    assert len(blocks) == 2
    script = "\n".join(blocks)
    assert "BASE=http://127.0.0.1:8000" in script
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parents[1])
    # GitHub is played by the loopback provider, which accepts "good-token".
    env = clean_env(SKILLGATE_GITHUB_BASE_URL=provider.url, GITHUB_TOKEN="good-token")
    with serve(tmp_path, env=env) as server:
        script = script.replace("BASE=http://127.0.0.1:8000", f"BASE={server.url}")
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    me = json.loads(next(line for line in lines if line.startswith('{"id":"usr_')))
    assert me["email"] == "you@example.com"
    assert me["plan"] == "free"
    skills = json.loads(next(line for line in lines if line.startswith('{"integrations"')))
    assert {i["slug"] for i in skills["integrations"]} >= {"github", "slack", "linear"}
    assert any(line.startswith('{"integration":"github"') for line in lines)
    assert any(line.startswith('{"name":"create_issue"') for line in lines)
    assert "204" in lines
    connected = json.loads(
        next(line for line in lines if line.startswith('{"integration":"github","status"'))
    )
    assert connected["status"] == "connected"
    result = json.loads(next(line for line in lines if line.startswith('{"status":')))
    assert result == {"status": 200, "data": {"ok": True, "path": "/repos/octocat/hello-world"}}
    log = json.loads(lines[-1])
    assert [(e["endpoint"], e["status"]) for e in log["executions"]] == [("get_repo", 200)]
    [sent] = [r for r in provider.api_requests() if r.path.startswith("/repos/")]
    assert sent.headers["authorization"] == "Bearer good-token"
