"""A client nobody on this project wrote: the MCP Inspector's CLI
(`@modelcontextprotocol/inspector-cli` 1.0.3, TypeScript SDK) against a real server.
Installed from the npm registry into a temporary directory once per session; skipped,
with the reason, where Node or the package is not available."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.skillgate.doors.mcp.conftest import Gateway

PACKAGE = "@modelcontextprotocol/inspector-cli@1.0.3"


@pytest.fixture(scope="session")
def inspector(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed")
    prefix = tmp_path_factory.mktemp("inspector")
    done = subprocess.run(
        [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", PACKAGE],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    entry = prefix / "node_modules/@modelcontextprotocol/inspector-cli/build/index.js"
    if done.returncode != 0 or not entry.exists():
        pytest.skip(f"npm could not install {PACKAGE}: {done.stderr.strip()[-300:]}")
    return [node, str(entry)]


def _inspect(inspector: list[str], gateway: Gateway, key: str, *args: str) -> dict:
    done = subprocess.run(
        [*inspector, gateway.mcp_url, "--transport", "http",
         "--header", f"Authorization: Bearer {gateway.keys[key]}", *args],
        # 1.0.3 finds its package.json relative to the working directory: run it from build/.
        capture_output=True, text=True, timeout=60, check=False, cwd=Path(inspector[1]).parent,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    return dict(json.loads(done.stdout))


def test_the_inspector_lists_and_calls_tools(inspector: list[str], gateway: Gateway) -> None:
    listed = _inspect(inspector, gateway, "full", "--method", "tools/list")
    tools = {t["name"]: t for t in listed["tools"]}
    assert sorted(tools) == [
        "get_skill", "list_integrations", "run_skill", "run_skill_write", "search_skills"
    ]  # fmt: skip
    assert tools["run_skill"]["annotations"]["readOnlyHint"] is True
    assert tools["run_skill_write"]["annotations"]["destructiveHint"] is True
    assert tools["run_skill"]["outputSchema"]["type"] == "object"
    found = _inspect(
        inspector, gateway, "scoped", "--method", "tools/call",
        "--tool-name", "search_skills", "--tool-arg", "query=user profile",
    )  # fmt: skip
    assert found["structuredContent"]["results"][0]["name"] == "get_user"
    refused = _inspect(inspector, gateway, "scoped", "--method", "tools/call",
                       "--tool-name", "get_skill", "--tool-arg", "integration=oauthy",
                       "endpoint=get_thing")  # fmt: skip
    assert refused["isError"] is True
    assert json.loads(refused["content"][0]["text"])["error"] == "scope_not_allowed"
