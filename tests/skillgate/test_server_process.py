"""The real server process with no configuration (what `make run` starts), the operator
CLI on the same embedded database, and what reaches the logs."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx

from tests.process import clean_env, new_data_dir, run_cli, serve

PASSWORD = "s3cret-passphrase-for-logs"


def test_no_config_server_and_cli_share_one_database(tmp_path: Path) -> None:
    new_data_dir(tmp_path)  # operator commands need a database (test_operator_datadir.py)
    created = run_cli(
        "skillgate",
        "users",
        "create",
        "--email",
        "op@example.com",
        "--password",
        PASSWORD,
        "--plan",
        "pro",
        "--display-name",
        "Op",
        cwd=tmp_path,
    )
    assert created.returncode == 0, created.stderr
    user = json.loads(created.stdout)
    assert user["plan"] == "pro"
    assert user["display_name"] == "Op"
    key = run_cli(
        "skillgate", "keys", "create", "--email", "op@example.com", "--name", "ci", cwd=tmp_path
    )
    assert key.returncode == 0, key.stderr
    full_key = json.loads(key.stdout)["full_key"]
    assert (tmp_path / "skillgate.db").exists()
    assert (tmp_path / ".skillgate-secrets.json").stat().st_mode & 0o777 == 0o600

    with serve(tmp_path) as server:
        me = httpx.get(server.url + "/v1/me", headers={"Authorization": f"Bearer {full_key}"})
        assert me.status_code == 200
        assert me.json()["email"] == "op@example.com"
        setp = run_cli(
            "skillgate",
            "users",
            "set-plan",
            "--email",
            "op@example.com",
            "--plan",
            "unlimited",
            cwd=tmp_path,
        )
        assert setp.returncode == 0, setp.stderr
        listed = run_cli("skillgate", "users", "list", cwd=tmp_path)
        assert [u["plan"] for u in json.loads(listed.stdout)] == ["unlimited"]


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    dup = [
        run_cli(
            "skillgate",
            "users",
            "create",
            "--email",
            "x@example.com",
            "--password",
            PASSWORD,
            cwd=tmp_path,
        )
        for _ in range(2)
    ]
    assert dup[0].returncode == 0
    assert dup[1].returncode == 1
    assert dup[1].stderr.strip().count("\n") == 0
    assert "already exists" in dup[1].stderr
    missing = run_cli(
        "skillgate", "keys", "create", "--email", "no@example.com", "--name", "k", cwd=tmp_path
    )
    assert missing.returncode == 1
    assert "Traceback" not in missing.stderr


def test_production_without_secrets_refuses_to_serve(tmp_path: Path) -> None:
    r = run_cli("skillgate", "serve", cwd=tmp_path, env=clean_env(SKILLGATE_ENV="production"))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "production mode needs explicit" in r.stderr


def test_secrets_never_reach_the_logs_and_10mb_is_413(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    run_cli(
        "skillgate",
        "users",
        "create",
        "--email",
        "log@example.com",
        "--password",
        PASSWORD,
        "--plan",
        "pro",
        cwd=tmp_path,
    )
    with (
        serve(tmp_path, env=clean_env(SKILLGATE_LOG_LEVEL="DEBUG")) as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        token = client.post(
            "/auth/login", json={"email": "log@example.com", "password": PASSWORD}
        ).json()["access_token"]
        auth = {"Authorization": f"Bearer {token}"}
        created = client.post("/api-keys", json={"name": "k"}, headers=auth).json()
        full_key = created["full_key"]
        assert client.get("/v1/me", headers={"Authorization": f"Bearer {full_key}"}).is_success
        client.post(
            "/auth/login", json={"email": "log@example.com", "password": "wrong-" + PASSWORD}
        )
        client.get("/v1/me?api_key=" + full_key)

        # A 10 MB body is refused with 413 and the server keeps serving.
        big = client.post(
            "/api-keys",
            content=b"{" + b" " * 10_000_000 + b"}",
            headers={**auth, "content-type": "application/json"},
        )
        assert big.status_code == 413
        assert big.json()["error"] == "payload_too_large"
        # A client that never finishes its oversized body does not stall the server either.
        with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1]))) as raw:
            raw.sendall(b"POST /api-keys HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")
        assert client.get("/healthz").status_code == 200
        # Dot segments sent as-is (httpx would resolve them) never route anywhere.
        for raw_path in (b"/v1/skills/../me", b"/v1/skills/sample/..", b"/v1/%2e%2e/download"):
            with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1]))) as raw:
                raw.sendall(
                    b"GET " + raw_path + b" HTTP/1.1\r\nHost: x\r\n"
                    b"Authorization: Bearer " + full_key.encode() + b"\r\n"
                    b"Connection: close\r\n\r\n"
                )
                answer = b""
                while chunk := raw.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 404"), answer[:200]
            assert b'"error":"not_found"' in answer
        assert client.get("/v1/me", headers={"Authorization": f"Bearer {full_key}"}).is_success
        logs = server.logs()
    assert '"path": "/v1/me"' in logs or '"path":"/v1/me"' in logs  # the access log is there
    for secret in (PASSWORD, full_key, token, full_key[8:], token.split(".")[2]):
        assert secret not in logs
