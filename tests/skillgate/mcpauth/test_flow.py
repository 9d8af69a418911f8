"""The authorization code flow end to end in-process: register, authorize, consent,
exchange, call /mcp with the token, refresh."""

from __future__ import annotations

from tests.conftest import Harness
from tests.skillgate.mcpauth.conftest import OAuthClient, mcp


async def test_a_consented_client_calls_mcp_with_its_token(
    harness: Harness, oauth: OAuthClient
) -> None:
    tokens = await oauth.tokens()
    assert tokens["token_type"].lower() == "bearer"
    assert tokens["access_token"].startswith("sgo_at_")
    assert tokens["refresh_token"].startswith("sgo_rt_")
    r = await mcp(harness, tokens["access_token"])
    assert r.status_code == 200, r.text
    names = {t["name"] for t in r.json()["result"]["tools"]}
    assert "run_skill" in names
