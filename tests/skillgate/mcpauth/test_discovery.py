"""Discovery (RFC 9728, RFC 8414) and the 401 that starts it: the hints only when no
credential was sent; API keys unchanged."""

from __future__ import annotations

from tests.conftest import Harness, bearer
from tests.skillgate.mcpauth.conftest import RESOURCE, mcp

ISSUER = "http://127.0.0.1:8000"
PRM = ISSUER + "/.well-known/oauth-protected-resource/mcp"


async def test_protected_resource_metadata_at_both_paths(harness: Harness) -> None:
    for path in (
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ):
        r = await harness.client.get(path)
        assert r.status_code == 200, (path, r.text)
        doc = r.json()
        assert doc["resource"] == RESOURCE
        assert doc["authorization_servers"] == [ISSUER]
        assert doc["bearer_methods_supported"] == ["header"]


async def test_authorization_server_metadata(harness: Harness) -> None:
    r = await harness.client.get("/.well-known/oauth-authorization-server")
    assert r.status_code == 200
    doc = r.json()
    assert doc["issuer"] == ISSUER
    assert doc["authorization_endpoint"] == ISSUER + "/oauth/authorize"
    assert doc["token_endpoint"] == ISSUER + "/oauth/token"
    assert doc["registration_endpoint"] == ISSUER + "/oauth/register"
    assert doc["revocation_endpoint"] == ISSUER + "/oauth/revoke"
    assert doc["code_challenge_methods_supported"] == ["S256"]
    assert doc["response_types_supported"] == ["code"]
    assert doc["client_id_metadata_document_supported"] is True
    assert doc["authorization_response_iss_parameter_supported"] is True
    assert "none" in doc["token_endpoint_auth_methods_supported"]
    assert set(doc["grant_types_supported"]) == {"authorization_code", "refresh_token"}


async def test_mcp_without_a_credential_points_at_the_metadata(harness: Harness) -> None:
    r = await mcp(harness, None)
    assert r.status_code == 401
    assert r.headers.get_list("www-authenticate") == [
        f'Bearer realm="skillgate", resource_metadata="{PRM}"'
    ]
    assert r.json()["error"] == "unauthorized"


async def test_a_sent_credential_gets_no_discovery_hint(harness: Harness) -> None:
    await harness.user()
    for headers in (
        bearer("sk_not_a_real_key"),
        bearer("sgo_at_not-a-real-token"),
        {"Authorization": "Basic dXNlcjpwYXNz"},
    ):
        r = await harness.client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={"Accept": "application/json, text/event-stream", **headers},
        )
        assert r.status_code == 401, headers
        challenge = r.headers["www-authenticate"]
        assert "resource_metadata" not in challenge, (headers, challenge)


async def test_api_keys_keep_working_on_mcp(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await mcp(harness, full)
    assert r.status_code == 200, r.text
    assert r.json()["result"]["tools"]
