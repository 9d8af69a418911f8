"""Issue 23.1: the links the server hands out name the server they came from.

A real `skillgate serve --port <random>` without SKILLGATE_BASE_URL: the device
flow's verification_uri and api_keys_url, a connect link and a "not connected"
action_url name that port; X-Forwarded-Host/-Proto are honoured from a trusted
proxy (SKILLGATE_TRUSTED_PROXIES, loopback by default) and ignored from any other peer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.process import Server, fixture_env, new_data_dir, run_cli, serve

FORWARDED = {"X-Forwarded-Host": "gw.example.com", "X-Forwarded-Proto": "https"}


@pytest.fixture
def server_dir(tmp_path: Path) -> Path:
    new_data_dir(tmp_path)
    made = run_cli(
        "skillgate", "users", "create", "--email", "dev@example.com",
        "--password", "password123", "--plan", "pro", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return tmp_path


def _start(server: Server, **headers: str) -> dict[str, object]:
    r = httpx.post(server.url + "/auth/device/code", json={}, headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    return body


def _device_key(client: httpx.Client, headers: dict[str, str]) -> dict[str, object]:
    """The whole device flow (approved with a new key); the poll carries `headers`."""
    started = client.post("/auth/device/code", json={}).json()
    token = client.post(
        "/auth/login", json={"email": "dev@example.com", "password": "password123"}
    ).json()["access_token"]
    approved = client.post(
        "/auth/device/authorize",
        json={"user_code": started["user_code"], "create_api_key": True},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert approved.status_code == 200, approved.text
    done = client.post(
        "/auth/device/token", json={"device_code": started["device_code"]}, headers=headers
    )
    assert done.status_code == 200, done.text
    polled: dict[str, object] = done.json()
    assert polled["status"] == "complete"
    return polled


def _mcp_action_url(client: httpx.Client, key: str, headers: dict[str, str], sdk: bool) -> str:
    """run_skill over MCP on the unconnected integration: the tool error's action_url.
    `sdk`: with `_meta`, which the door hands to the MCP SDK's own tasks."""
    params: dict[str, object] = {
        "name": "run_skill",
        "arguments": {"integration": "sample", "endpoint": "get_user", "params": {"username": "x"}},
    }
    if sdk:
        params["_meta"] = {"progressToken": 1}
    r = client.post(
        "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params},
        headers={
            "Authorization": f"Bearer {key}",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
            **headers,
        },
    )
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["isError"] is True
    return str(result["structuredContent"]["action_url"])


def _links(server: Server, headers: dict[str, str]) -> Iterator[str]:
    """api_keys_url, a connect link and a "not connected" action_url on the HTTP API and
    on MCP (the door's own answer and the SDK's), each asked for with `headers`."""
    with httpx.Client(base_url=server.url) as client:
        done = _device_key(client, headers)
        yield str(done["api_keys_url"])
        auth = {"Authorization": f"Bearer {done['api_key']}", **headers}
        connect = client.post("/v1/connect", json={"integration": "sample"}, headers=auth)
        assert connect.status_code == 201, connect.text
        yield connect.json()["connect_url"]
        run = client.post("/v1/sample/get_user", json={"params": {"username": "x"}}, headers=auth)
        assert run.status_code == 403, run.text
        assert run.json()["error"] == "integration_not_connected"
        yield run.json()["action_url"]
        for sdk in (False, True):
            yield _mcp_action_url(client, str(done["api_key"]), headers, sdk)


def test_links_name_the_port_served_on_and_a_trusted_proxys_host(server_dir: Path) -> None:
    env = fixture_env("http://127.0.0.1:9")  # no SKILLGATE_BASE_URL
    with serve(server_dir, env) as server:
        started = _start(server)
        assert started["verification_uri"] == f"{server.url}/device"
        assert str(started["verification_uri_complete"]).startswith(f"{server.url}/device?")
        api_keys, connect, *actions = _links(server, {})
        assert api_keys == f"{server.url}/keys"
        assert connect.startswith(f"{server.url}/connect/sample?request=")
        assert actions == [f"{server.url}/integrations/sample"] * 3
        # The test client is on loopback, a trusted proxy by default.
        assert _start(server, **FORWARDED)["verification_uri"] == "https://gw.example.com/device"
        api_keys, connect, *actions = _links(server, FORWARDED)
        assert api_keys == "https://gw.example.com/keys"
        assert connect.startswith("https://gw.example.com/connect/sample?request=")
        assert actions == ["https://gw.example.com/integrations/sample"] * 3


def test_an_untrusted_peers_forwarded_headers_are_ignored(server_dir: Path) -> None:
    """Trusted proxies elsewhere: this loopback client's X-Forwarded-* change nothing.
    The server listens on every address (0.0.0.0): links name the Host the client used."""
    env = fixture_env("http://127.0.0.1:9", SKILLGATE_TRUSTED_PROXIES="10.9.8.7")
    with serve(server_dir, env, host="0.0.0.0") as server:
        port = server.url.rsplit(":", 1)[1]
        assert _start(server, **FORWARDED)["verification_uri"] == f"{server.url}/device"
        local = f"http://localhost:{port}"
        assert _start(server, Host=f"localhost:{port}")["verification_uri"] == f"{local}/device"
        api_keys, connect, *actions = _links(server, FORWARDED)
        assert api_keys == f"{server.url}/keys"
        assert connect.startswith(f"{server.url}/connect/sample?request=")
        assert actions == [f"{server.url}/integrations/sample"] * 3
