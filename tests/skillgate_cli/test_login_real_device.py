"""`svc login` through the device flow against the real server (no browser: the approval
is the real browser authorize call, made with an access token)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import httpx

from tests.process import BIN, clean_env, new_data_dir, run_cli, serve


def test_svc_login_device_flow_with_a_key_for_the_device(tmp_path: Path) -> None:
    server_dir = tmp_path / "server"
    server_dir.mkdir()
    new_data_dir(server_dir)
    made = run_cli(
        "skillgate",
        "users",
        "create",
        "--email",
        "dev@example.com",
        "--password",
        "password123",
        "--plan",
        "pro",
        cwd=server_dir,
    )
    assert made.returncode == 0, made.stderr
    project = tmp_path / "project"
    project.mkdir()
    with serve(server_dir) as server:
        env = clean_env(SVC_BASE_URL=server.url, SVC_NO_BROWSER="1")
        login = subprocess.Popen(
            [str(BIN / "svc"), "login", "--platform", "generic"], cwd=project, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert login.stderr is not None
            code = None
            deadline = time.monotonic() + 20
            while code is None and time.monotonic() < deadline:
                line = login.stderr.readline()
                found = re.search(r"enter the code ([A-Z]{4}-[A-Z]{4})", line)
                code = found.group(1) if found else None
            assert code is not None, "svc login did not show a user code"
            with httpx.Client(base_url=server.url) as client:
                token = client.post(
                    "/auth/login", json={"email": "dev@example.com", "password": "password123"}
                ).json()
                approved = client.post(
                    "/auth/device/authorize",
                    json={"user_code": code.lower(), "create_api_key": True},
                    headers={"Authorization": f"Bearer {token['access_token']}"},
                )
            assert approved.json() == {"status": "authorized"}
            out, err = login.communicate(timeout=30)
        finally:
            if login.poll() is None:
                login.kill()
    assert login.returncode == 0, err
    result = json.loads(out)
    assert result["user"]["email"] == "dev@example.com"
    env_text = (project / ".env").read_text()
    key = re.search(r"SVC_API_KEY=(sk_[0-9A-Za-z]+)", env_text)
    assert key is not None
    assert oct(os.stat(project / ".env").st_mode & 0o777) == "0o600"
    assert (project / ".agents" / "skills" / "svc" / "SKILL.md").exists()


def test_svc_login_free_plan_with_its_one_key_is_told_how_to_go_on(tmp_path: Path) -> None:
    """The real server: a free user whose one key exists approves without a new key;
    svc says how to go on (paste, or revoke at the API keys page, or replace)."""
    server_dir = tmp_path / "server"
    server_dir.mkdir()
    new_data_dir(server_dir)  # operator commands refuse to start an empty database
    for args in (
        ("users", "create", "--email", "free@example.com", "--password", "password123"),
        ("keys", "create", "--email", "free@example.com", "--name", "the one"),
    ):
        made = run_cli("skillgate", *args, cwd=server_dir)
        assert made.returncode == 0, made.stderr
    project = tmp_path / "project"
    project.mkdir()
    with serve(server_dir) as server:
        env = clean_env(SVC_BASE_URL=server.url, SVC_NO_BROWSER="1")
        login = subprocess.Popen(
            [str(BIN / "svc"), "login"], cwd=project, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert login.stderr is not None
            code = None
            deadline = time.monotonic() + 20
            while code is None and time.monotonic() < deadline:
                found = re.search(r"enter the code ([A-Z]{4}-[A-Z]{4})", login.stderr.readline())
                code = found.group(1) if found else None
            assert code is not None, "svc login did not show a user code"
            with httpx.Client(base_url=server.url) as client:
                token = client.post(
                    "/auth/login", json={"email": "free@example.com", "password": "password123"}
                ).json()
                approved = client.post(
                    "/auth/device/authorize",
                    json={"user_code": code},
                    headers={"Authorization": f"Bearer {token['access_token']}"},
                )
            assert approved.json() == {"status": "authorized"}
            out, err = login.communicate(timeout=30)
        finally:
            if login.poll() is None:
                login.kill()
    said = " ".join(err.split())
    assert "If your plan allows no more active keys: paste one you have" in said
    assert re.search(r"or revoke one at http://\S+/keys and create a new one", said), said
    assert "replace my existing key" in said
    assert login.returncode == 1  # nothing pasted (stdin is empty)
    assert "no API key was pasted" in said
    assert out == ""
    assert not (project / ".env").exists()
