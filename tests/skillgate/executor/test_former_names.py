"""A call renamed (`Endpoint.aliases`: the importer's cut name said shorter) is still
reached by its former name on every door, and is shown, logged and ruled on by its name
today: the sample integration's `create_issue` was `open_issue`."""

from __future__ import annotations

import pytest

from tests.conftest import bearer
from tests.skillgate.executor.paged import Caller
from tests.skillgate.executor.test_policy import ISSUE, mcp_run, put_policy, with_policy
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


async def test_a_former_name_calls_the_endpoint_and_the_log_says_its_name(
    caller: Caller, provider: Provider
) -> None:
    provider.clear()
    r = await caller.sample("open_issue", ISSUE)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/repos/o/r/issues")
    assert await caller.log("integration", "endpoint") == [("sample", "create_issue")]
    result = await mcp_run(caller.harness, caller.full, "open_issue", ISSUE)
    assert not result.get("isError"), result
    assert len(provider.api_requests()) == 2


async def test_a_former_name_is_documented_under_its_name_and_never_listed(
    caller: Caller,
) -> None:
    client, headers = caller.harness.client, bearer(caller.full)
    doc = await client.get("/v1/skills/sample/open_issue", headers=headers)
    assert doc.status_code == 200, doc.text
    assert doc.json()["name"] == "create_issue"
    listing = await client.get("/v1/skills/sample?category=issues", headers=headers)
    assert listing.status_code == 200, listing.text
    assert "create_issue" in listing.text
    assert "open_issue" not in listing.text
    found = await client.get("/v1/skills/search", params={"q": "open an issue"}, headers=headers)
    assert "open_issue" not in found.text
    unknown = await client.get("/v1/skills/sample/open_issu", headers=headers)
    assert unknown.status_code == 404
    assert "open_issue" not in unknown.text  # the closest names offered are today's


async def test_a_rule_naming_a_former_name_rules_the_call_by_either_name(
    caller: Caller, provider: Provider
) -> None:
    rule = {"name": "no new issues", "match": {"endpoint": "open_issue"}, "action": "deny"}
    await with_policy(caller, {"rules": [rule]})
    provider.clear()
    for name in ("create_issue", "open_issue"):
        r = await caller.sample(name, ISSUE)
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "policy_denied"
        assert "denies sample create_issue" in r.json()["message"]
    assert provider.api_requests() == []
    bad = await put_policy(caller, {"rules": [{**rule, "match": {"endpoint": "opn_issue"}}]})
    assert bad.status_code == 400
    assert "no endpoint 'opn_issue'" in bad.text
