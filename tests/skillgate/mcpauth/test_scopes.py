"""The scope matrix holds for OAuth tokens: what the user chose on the consent page is
what the token may see and run, through the same checks as an API key (read-only,
out of scope, confirmation of destructive calls), and the upstream sees nothing else."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import Harness
from tests.skillgate.mcpauth.conftest import OAuthClient, mcp
from tests.upstream import Provider


async def _run(harness: Harness, token: str, endpoint: str, **params: Any) -> dict[str, Any]:
    args = {"integration": "sample", "endpoint": endpoint, "params": params}
    tool = "run_skill" if endpoint == "get_user" else "run_skill_write"  # a write: docs/mcp.md
    r = await mcp(harness, token, "tools/call", name=tool, arguments=args)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["result"]
    return result


def _error(result: dict[str, Any]) -> str:
    assert result["isError"] is True, result
    code: str = json.loads(result["content"][0]["text"])["error"]
    return code


async def test_a_read_only_grant_reads_and_cannot_write(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    full, _ = await harness.key()
    await harness.connect_token(full)
    token = (await oauth.tokens(access="some", scope_sample="read"))["access_token"]
    provider.clear()
    ok = await _run(harness, token, "get_user", username="octo")
    assert ok["isError"] is False, ok
    assert ok["structuredContent"]["status"] == 200
    assert [r.path for r in provider.api_requests()] == ["/users/octo"]
    write = await _run(harness, token, "create_issue", owner="o", repo="r", title="t")
    assert _error(write) == "scope_not_allowed"
    assert len(provider.api_requests()) == 1, "the refused write never left the gateway"
    listed = (await mcp(harness, token)).json()["result"]["tools"]
    names = [t["name"] for t in listed]
    assert "run_skill" in names
    assert "run_skill_write" not in names  # a read-only grant is offered no write tool


async def test_an_integration_left_out_is_out_of_scope(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    token = (await oauth.tokens(access="some", scope_oauthy="full"))["access_token"]
    result = await _run(harness, token, "get_user", username="octo")
    assert _error(result) == "scope_not_allowed"
    r = await mcp(harness, token, "tools/call", name="list_integrations", arguments={})
    listed = r.json()["result"]["structuredContent"]["integrations"]
    assert [i["slug"] for i in listed] == ["oauthy"]


async def test_the_chosen_confirmation_policy_applies(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    full, _ = await harness.key()
    await harness.connect_token(full)
    token = (await oauth.tokens(access="all", confirm="writes"))["access_token"]
    provider.clear()
    result = await _run(harness, token, "create_issue", owner="o", repo="r", title="t")
    assert _error(result) == "confirmation_required"
    assert provider.api_requests() == []


async def test_no_integration_chosen_is_asked_again(oauth: OAuthClient) -> None:
    page = await oauth.consent_page()
    r = await oauth.answer(page, access="some")
    assert r.status_code == 400
    assert "choose at least one integration" in r.text
    assert "Test Client" in r.text  # the same consent page, with the error


@pytest.mark.usefixtures("steady_clock")
async def test_a_users_apps_share_one_rate_budget(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    """Apps do not count toward the plan's key limit (free: 1 key), so two of them share
    the plan's one budget (free: 30 calls a minute) instead of getting one each."""
    full, _ = await harness.key()
    await harness.connect_token(full)
    first = (await oauth.tokens())["access_token"]
    second = OAuthClient(harness.client, oauth.web)
    assert (await second.register(client_name="Second")).status_code == 201
    other = (await second.tokens())["access_token"]
    results = [
        await _run(harness, (first, other)[i % 2], "get_user", username="u") for i in range(31)
    ]
    assert all(r["isError"] is False for r in results[:30])
    assert _error(results[30]) == "rate_limited"
