"""What reaches /mcp that is not a well-formed MCP request, over raw HTTP: each answer is
a clear JSON-RPC error or the gateway's HTTP error, never a 500."""

from __future__ import annotations

from typing import Any

import httpx

from tests.skillgate.doors.mcp.conftest import Gateway

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "MCP-Protocol-Version": "2025-06-18"}  # fmt: skip


def post(gateway: Gateway, body: bytes | None = None, key: str | None = "full", **kw: Any) -> Any:
    headers = {**HEADERS, **kw.pop("headers", {})}
    if key is not None:
        headers["Authorization"] = f"Bearer {gateway.keys[key]}"
    return httpx.post(gateway.mcp_url, content=body, headers=headers, timeout=10, **kw)


def call(method: str, params: dict[str, Any] | None = None) -> bytes:
    return httpx.Request("POST", "/", json={"jsonrpc": "2.0", "id": 1, "method": method,
                                             "params": params or {}}).content  # fmt: skip


def test_no_key_or_a_bad_key_is_401_with_www_authenticate(gateway: Gateway) -> None:
    missing = post(gateway, call("tools/list"), key=None)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert missing.json()["error"] == "unauthorized"
    bad = post(gateway, call("tools/list"), key=None,
               headers={"Authorization": "Bearer sk_not_a_real_key"})  # fmt: skip
    assert bad.status_code == 401
    assert bad.headers["www-authenticate"].startswith("Bearer")
    assert "x-request-id" in bad.headers  # inside the request middleware


def test_initialize_then_a_call_without_a_session(gateway: Gateway) -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "raw", "version": "0"}}  # fmt: skip
    init = post(gateway, call("initialize", hello))
    assert init.status_code == 200
    assert init.json()["result"]["protocolVersion"] == "2025-06-18"
    assert "mcp-session-id" not in init.headers  # stateless: any instance answers the next one
    listed = post(gateway, call("tools/list"))
    assert listed.status_code == 200
    assert len(listed.json()["result"]["tools"]) == 5


def test_malformed_jsonrpc(gateway: Gateway) -> None:
    broken = post(gateway, b'{"jsonrpc": "2.0", "id": 1, "method": ')
    assert broken.status_code == 400
    assert broken.json()["error"]["code"] == -32700  # parse error
    not_rpc = post(gateway, b'{"hello": "world"}')
    assert not_rpc.status_code == 400
    assert not_rpc.json()["error"]["code"] in (-32600, -32602)
    assert "jsonrpc" in not_rpc.json()["error"]["message"]


def test_a_batch_is_refused_with_a_jsonrpc_error(gateway: Gateway) -> None:
    batch = post(gateway, b"[" + call("tools/list") + b"," + call("ping") + b"]")
    assert batch.status_code == 400
    error = batch.json()["error"]
    assert error["code"] == -32600
    assert "batches are not supported" in error["message"]


def test_unknown_method_is_method_not_found(gateway: Gateway) -> None:
    answer = post(gateway, call("tools/destroy"))
    assert answer.status_code == 200
    assert answer.json()["error"]["code"] == -32601
    assert answer.json()["id"] == 1


def test_wrong_content_type_is_415(gateway: Gateway) -> None:
    for kind in ("text/plain", "application/x-www-form-urlencoded"):
        answer = post(gateway, b"method=tools/list", headers={"Content-Type": kind})
        assert answer.status_code == 415
        assert answer.json()["error"] == "unsupported_media_type"
        assert "Content-Type: application/json" in answer.json()["message"]


def test_oversized_body_is_the_middleware_413(gateway: Gateway) -> None:
    huge = call("tools/call", {"name": "run_skill", "arguments": {"params": {"x": "a" * 70_000}}})
    answer = post(gateway, huge)
    assert answer.status_code == 413
    assert answer.json()["error"] == "payload_too_large"


def test_get_and_delete_are_405_allow_post(gateway: Gateway) -> None:
    for method in ("GET", "DELETE"):
        answer = httpx.request(method, gateway.mcp_url, headers={
            **HEADERS, "Authorization": f"Bearer {gateway.keys['full']}"})  # fmt: skip
        assert answer.status_code == 405
        assert answer.headers["allow"] == "POST"
        assert answer.json()["error"] == "method_not_allowed"


def test_the_door_fast_path_answers_as_the_sdk_does(gateway: Gateway) -> None:
    """A plain tools/call is answered by the door (door._plain_tool_call); one carrying
    `_meta` goes through the SDK: the two answers are the same JSON."""
    calls = [
        ("run_skill", {"integration": "sample", "endpoint": "get_user",
                       "params": {"username": "q"}}),
        ("run_skill", {"integration": "oauthy", "endpoint": "get_thing",
                       "params": {"thing_id": "t"}}),
        ("get_skill", {"integration": "sample", "endpoint": "get_user"}),
        ("search_skills", {"query": "issues", "integration": "sample", "limit": 2}),
        ("list_integrations", {}),
        ("get_skill", {"integration": "sample"}),
        ("no_such_tool", {}),
    ]  # fmt: skip
    for name, args in calls:
        fast = post(gateway, call("tools/call", {"name": name, "arguments": args}))
        sdk = post(gateway, call("tools/call", {"name": name, "arguments": args,
                                                "_meta": {"progressToken": 7}}))  # fmt: skip
        assert fast.status_code == sdk.status_code == 200
        assert fast.json() == sdk.json(), name
    assert fast.json()["error"]["code"] == -32602
