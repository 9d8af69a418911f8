"""Every command block of README.md, docs/cli.md and docs/execution.md runs as written
(tests/doc_blocks.py says how blocks are read) against a real server, with GitHub,
Gmail and Google Drive played by the loopback provider, and exits as documented.

Placeholders are filled in: `sk_…` (any `sk_` value with `…`) is a real key, the
documented gateway addresses are the test server's, `cf_…` is the token the previous
`confirmation_required` answer gave. `<!-- doc-test: TAGS -->` before a block says how it
runs: `not-connected` (a user with no connections), `terminal` (in a pseudo-terminal,
answering `y`), `exact` (each documented output line without `…` or a `  #` comment is a
line of the real output), `synopsis` (each line's command exists and takes the options it names:
`--help`), `device` (the browser sign-in, approved by the test through the API). A
transcript line ending in `# no key anywhere`, `# not connected` or `# a server that
accepts and never answers` runs in that situation; `make` targets run with `make -n`.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.doc_blocks import ROOT, Command, commands
from tests.process import BIN, clean_env, serve
from tests.upstream import Provider, Recorded, Reply

DOCS = ["README.md", "docs/cli.md", "docs/execution.md"]
DOC_ADDRESSES = ("http://127.0.0.1:8765", "http://127.0.0.1:8766", "http://127.0.0.1:8000")
CONNECTED = ("github", "gmail", "google_drive")
APP = "http://app"  # the dashboard's address, as docs/cli.md names it
ISSUES = [
    {"number": n, "title": f"Crash report {n}", "state": "open", "user": {"login": "octocat"},
     "body": "Steps to reproduce: " + "x" * 200}
    for n in range(1, 301)
]  # fmt: skip


def _issues(rec: Recorded) -> Reply:
    query = dict(rec.query)
    size, page = int(query.get("per_page", 30)), int(query.get("page", 1))
    items = ISSUES[(page - 1) * size : page * size]
    pages = -(-len(ISSUES) // size)
    link = f'<{rec.path}?per_page={size}&page={page + 1}>; rel="next"' if page < pages else ""
    return Reply(200, items, headers={"Link": link} if link else {})


def _script(provider: Provider) -> None:
    provider.reply("GET", "/repos/octocat/hello-world/issues", _issues)
    provider.reply("GET", "/repos/octocat/nope", Reply(404, {"message": "Not Found"}))
    provider.reply(
        "GET", "/repos/octocat/hello-world",
        Reply(200, {"full_name": "octocat/hello-world", "private": False}),
    )  # fmt: skip


@dataclass
class World:
    url: str
    project: Path
    env: dict[str, str]
    key: str
    other_key: str
    password: str
    provider: Provider
    confirm: str = ""
    user_code: str = "BCDF-GHJK"


@contextmanager
def _silent() -> Iterator[str]:
    """A server that accepts connections and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield f"http://127.0.0.1:{s.getsockname()[1]}"


def _fill(text: str, world: World) -> str:
    for address in DOC_ADDRESSES:
        text = text.replace(address, world.url)
    text = re.sub(r"sk_\w*…\w*", world.key, text)
    text = re.sub(r"cf_\w*…", world.confirm, text)
    text = text.replace("BCDF-GHJK", world.user_code)
    return text


def _env(world: World, **extra: str) -> dict[str, str]:
    env = dict(world.env)
    env.update(extra)
    return env


def _in_terminal(script: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    main, sub = pty.openpty()
    proc = subprocess.Popen(
        ["bash", "-c", script], cwd=cwd, env=env, stdin=sub, stdout=sub, stderr=sub
    )
    os.close(sub)
    seen, answered = b"", False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if not answered and b"[y/N]" in seen:
                os.write(main, b"y\n")
                answered = True
        elif proc.poll() is not None:
            break
    os.close(main)
    return proc.wait(timeout=10), seen.decode(errors="replace")


def _device_login(command: Command, world: World, env: dict[str, str]) -> tuple[int, str]:
    """`svc login` without a key: the test approves the code as the user would in the
    browser, then pastes the key it is asked for."""
    proc = subprocess.Popen(
        ["bash", "-c", _fill(command.text, world)], cwd=world.project, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    assert proc.stdin is not None
    first = proc.stderr.readline()
    code = re.search(r"enter the code (\S+)", first)
    assert code, first
    world.user_code = code.group(1)
    token = _post(
        world.url + "/auth/login", {"email": "you@example.com", "password": world.password}
    )
    _post(
        world.url + "/auth/device/authorize", {"user_code": code.group(1)},
        token=token["access_token"],
    )  # fmt: skip
    with proc:
        proc.stdin.write(world.key + "\n")
        proc.stdin.close()
        err = proc.stderr.read()  # the reader of the first line: nothing it buffered is lost
        out = proc.stdout.read() if proc.stdout else ""
    return proc.returncode, first + err + out


def _post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        raw = answer.read()
        return json.loads(raw) if raw else None


def _request(command: Command, world: World) -> tuple[int, str]:
    head, _, body = command.text.partition("\n")
    method, path = head.split()
    headers = {"content-type": "application/json", "authorization": f"Bearer {world.key}"}
    data = json.dumps(json.loads(body)).encode()
    request = urllib.request.Request(world.url + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def _synopsis(command: Command, world: World) -> tuple[int, str]:
    """`skillgate users create --email E [--plan free|pro]`: the command exists and its
    help names every option the line shows (`delete|list`: each of them)."""
    line = command.text.split("#")[0]
    path: list[str] = []
    for word in line.split():
        if word.startswith(("-", "[")) or word.isupper() or "-or-" in word:
            break
        path.append(word)
        if "|" in word:
            break
    options = re.findall(r"(--[a-z][a-z-]*)", line)
    failed, output = 0, ""
    for last in path[-1].split("|"):
        done = subprocess.run(
            [str(BIN / path[0]), *path[1:-1], last, "--help"], cwd=world.project,
            env=world.env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        missing = [o for o in options if o not in done.stdout]
        failed += done.returncode + len(missing)
        output += done.stdout + done.stderr + (f"\nmissing options: {missing}" if missing else "")
    return failed, output


def _run(command: Command, world: World) -> tuple[int, str]:
    if command.kind == "request":
        return _request(command, world)
    if "synopsis" in command.tags:
        return _synopsis(command, world)
    if "device" in command.tags:
        return _device_login(command, world, _env(world, SVC_API_KEY=""))
    script = _fill(command.text, world)
    cwd, env = world.project, _env(world, BASE=world.url, KEY=world.key)
    if script.startswith("make "):
        script = "make -n -C " + str(ROOT) + script[4:]
    if script.rstrip().endswith("# no key anywhere"):
        cwd = world.project.parent / "nokey"
        cwd.mkdir(exist_ok=True)
        (cwd / ".git").mkdir(exist_ok=True)
    if "not-connected" in command.tags or script.rstrip().endswith("# not connected"):
        env["SVC_API_KEY"] = world.other_key
    if "terminal" in command.tags:
        return _in_terminal(script, cwd, env)
    with _silent() as silent:
        if "never answers" in script:
            env["SVC_BASE_URL"] = silent
        if "slow" in command.tags:
            world.provider.reply(
                "POST", "/repos/octocat/hello-world/issues", Reply(201, {"number": 42}, delay=2.5)
            )
        done = subprocess.run(
            ["bash", "-c", script], cwd=cwd, env=env,
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def _check(command: Command, world: World, code: int, output: str) -> str | None:
    """What is wrong with this run, or None."""
    if 'echo "exit $?"' in command.text:
        printed = re.findall(r"^exit (\d+)$", output, re.MULTILINE)
        code = int(printed[-1]) if printed else -1
    if code != command.exit:
        return f"exit {code}, documented {command.exit}"
    first = output.split("\n", 1)[0]
    if command.text.startswith("curl") and first.startswith('{"error"'):
        return "the gateway refused it"
    if "exact" in command.tags:
        actual = {line.rstrip() for line in output.splitlines()}
        for line in command.output:
            shown = _fill(line.rstrip(), world)
            if shown and "…" not in shown and "  #" not in shown and shown not in actual:
                return f"the output has no line {shown!r}"
    if '"confirm":"cf_' in first:
        world.confirm = json.loads(first)["confirm"]
    return None


_SETUP = """
import json, sys
from skillgate.cli.main import cli
from skillgate.cli.catalog import catalog
from skillgate.cli.connections import connections
cli.add_command(catalog)
cli.add_command(connections)
for args in json.loads(sys.argv[1]):
    cli.main(args, prog_name="skillgate", standalone_mode=False)
"""


def _operator(data: Path, env: dict[str, str], *commands: list[str]) -> list[Any]:
    """Several `skillgate` commands in one process (each process loads the catalog)."""
    done = subprocess.run(
        [sys.executable, "-c", _SETUP, json.dumps(commands)], cwd=data, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, provider_server: Provider) -> Iterator[World]:
    provider_server.reset()
    _script(provider_server)
    tmp_path = tmp_path_factory.mktemp("docs")
    data = tmp_path / "data"
    data.mkdir()
    upstreams = {f"SKILLGATE_{slug.upper()}_BASE_URL": provider_server.url for slug in CONNECTED}
    env = clean_env(
        SKILLGATE_LOG_LEVEL="WARNING", SKILLGATE_DATA_DIR=str(data), SKILLGATE_APP_URL=APP,
        **upstreams,
    )  # fmt: skip
    password = "change-me-please"
    users = [["users", "create", "--email", email, "--password", password, "--plan", "pro"]
             for email in ("you@example.com", "bo@example.com")]  # fmt: skip
    keys = [["keys", "create", "--email", email, "--name", "docs"]
            for email in ("you@example.com", "bo@example.com")]  # fmt: skip
    connect = [["connections", "set", "--email", "you@example.com", "--integration", slug,
                "--access-token", "good-token"] for slug in CONNECTED]  # fmt: skip
    printed = _operator(data, env, ["db", "upgrade"], *users, *keys, *connect)
    ada, bo = (p["full_key"] for p in printed if "full_key" in p)
    project = tmp_path / "project"
    for made_dir in (project / ".git", project / ".claude"):
        made_dir.mkdir(parents=True)
    with serve(data, env=env) as server:
        (project / ".env").write_text(f"SVC_API_KEY={ada}\nSVC_BASE_URL={server.url}\n")
        shell = dict(env, PATH=f"{BIN}:{os.environ['PATH']}", SVC_BASE_URL=server.url,
                     SVC_NO_BROWSER="1", NO_COLOR="1")  # fmt: skip
        yield World(server.url, project, shell, ada, bo, password, provider_server)


@pytest.mark.parametrize("doc", DOCS)
@pytest.mark.skipif(shutil.which("jq") is None, reason="the documented commands use jq")
def test_every_documented_command_runs_as_written(doc: str, world: World) -> None:
    found = commands(doc)
    assert found, f"no command blocks in {doc}"
    failures = []
    for command in found:
        code, output = _run(command, world)
        wrong = _check(command, world, code, output)
        if wrong:
            failures.append(f"{command.where}\n  {wrong}\n  " + output[:600].replace("\n", "\n  "))
    assert not failures, "\n".join(failures)
