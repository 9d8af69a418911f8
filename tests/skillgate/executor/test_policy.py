"""Policies per key (issue 28 item 1): set by a person over the account API, evaluated
by the executor on the HTTP and MCP doors, against the loopback upstream that records
what it received, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event, update

from skillgate.api_keys.models import ApiKey
from skillgate.catalog.loader import Catalog
from tests.conftest import Harness, bearer, open_harness
from tests.skillgate.executor.paged import Caller, ready
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}
DELETE = {"owner": "o", "repo": "r", "number": 7}


async def key_id(caller: Caller) -> str:
    me = await caller.harness.client.get("/v1/me", headers=bearer(caller.full))
    return str(me.json()["api_key"]["id"])


async def put_policy(caller: Caller, policy: Any, email: str = "ada@example.com") -> httpx.Response:
    token = await caller.harness.token(email)
    return await caller.harness.client.put(
        f"/api-keys/{await key_id(caller)}/policy", json=policy, headers=bearer(token)
    )


async def with_policy(caller: Caller, policy: dict[str, Any]) -> None:
    r = await put_policy(caller, policy)
    assert r.status_code == 200, r.text


READS = ("get_user", "list_issues")  # the rest change data: run_skill_write (docs/mcp.md)


async def mcp_run(harness: Harness, key: str, endpoint: str, params: Any) -> dict[str, Any]:
    r = await harness.client.post(
        "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "run_skill" if endpoint in READS else "run_skill_write",
            "arguments": {"integration": "sample", "endpoint": endpoint, "params": params},
        }},
        headers={**bearer(key), "Accept": "application/json, text/event-stream",
                 "MCP-Protocol-Version": "2025-11-25"},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["result"]
    return result


async def test_no_policy_is_null_and_changes_nothing(caller: Caller, provider: Provider) -> None:
    token = await caller.harness.token()
    r = await caller.harness.client.get(
        f"/api-keys/{await key_id(caller)}/policy", headers=bearer(token)
    )
    assert r.json() == {"key_id": await key_id(caller), "policy": None}
    provider.clear()
    r = await caller.sample("create_issue", ISSUE)
    assert r.json()["status"] == 200
    dry = await caller.sample("create_issue", ISSUE, dry_run=True)
    assert "policy" not in dry.json()  # no policy, nothing to show
    assert len(provider.api_requests()) == 1


async def test_a_deny_rule_refuses_on_http_and_mcp_and_sends_nothing(
    caller: Caller, provider: Provider
) -> None:
    provider.reply("DELETE", "/repos/o/r/issues/7", Reply(204))
    await with_policy(
        caller,
        {"rules": [{"name": "no deletes", "match": {"class": "destructive"}, "action": "deny"}]},
    )
    provider.clear()
    r = await caller.sample("delete_issue", DELETE)
    assert r.status_code == 403, r.text
    body = r.json()
    assert body["error"] == "policy_denied"
    assert body["rule"] == {"index": 1, "name": "no deletes"}
    assert body["message"].startswith(
        "Rule 1 ('no deletes') of this API key's policy denies sample delete_issue."
    )
    assert "the key's owner can change its policy" in body["message"]  # the key's steps
    result = await mcp_run(caller.harness, caller.full, "delete_issue", DELETE)
    assert result["isError"] is True
    assert result["structuredContent"]["error"] == "policy_denied"
    assert result["structuredContent"]["rule"] == {"index": 1, "name": "no deletes"}
    assert provider.api_requests() == []
    # What the rule does not match goes as before (default allow).
    assert (await caller.sample("create_issue", ISSUE)).json()["status"] == 200
    assert len(provider.api_requests()) == 1
    assert (await caller.log("endpoint", "error"))[-2:] == [
        ("delete_issue", "policy_denied"),
        ("delete_issue", "policy_denied"),
    ]


async def test_first_matching_rule_wins_and_the_dry_run_names_it(
    caller: Caller, provider: Provider
) -> None:
    await with_policy(
        caller,
        {
            "rules": [
                {"match": {"endpoint": "list_issues"}, "action": "allow"},
                {"name": "issues off", "match": {"category": "issues"}, "action": "deny"},
            ],
            "default": "deny",
        },
    )
    provider.clear()
    dry = await caller.sample("create_issue", ISSUE, dry_run=True)
    assert dry.status_code == 200, dry.text
    assert dry.json()["policy"] == {"action": "deny", "rule": {"index": 2, "name": "issues off"}}
    dry = await caller.sample("list_issues", {"owner": "o", "repo": "r"}, dry_run=True)
    assert dry.json()["policy"] == {"action": "allow", "rule": {"index": 1, "name": None}}
    dry = await caller.sample("get_user", {"username": "u"}, dry_run=True)
    assert dry.json()["policy"] == {"action": "deny", "rule": "default"}
    r = await caller.sample("get_user", {"username": "u"})
    assert r.status_code == 403
    assert r.json()["rule"] == "default"
    assert "The policy's default of this API key's policy denies" in r.json()["message"]
    assert provider.api_requests() == []
    assert (await caller.sample("list_issues", {"owner": "o", "repo": "r"})).status_code == 200
    assert len(provider.api_requests()) == 1


async def test_an_allow_list_refuses_another_repository_owner(
    caller: Caller, provider: Provider
) -> None:
    await with_policy(
        caller,
        {
            "rules": [
                {
                    "name": "our repositories",
                    "match": {"integration": "sample"},
                    "action": "allow",
                    "params": {"owner": {"one_of": ["o", "team"]}, "weight": {"max": 5}},
                }
            ]
        },
    )
    provider.clear()
    r = await caller.sample("create_issue", {**ISSUE, "owner": "evil"})
    assert r.status_code == 403, r.text
    assert "owner: 'evil' is not one of ['o', 'team']" in r.json()["message"]
    r = await caller.sample("create_issue", {**ISSUE, "weight": 6})
    assert r.status_code == 403
    assert "weight: 6 is beyond the max 5" in r.json()["message"]
    result = await mcp_run(caller.harness, caller.full, "create_issue", {**ISSUE, "owner": "x"})
    assert result["structuredContent"]["error"] == "policy_denied"
    dry = await caller.sample("create_issue", {**ISSUE, "owner": "evil"}, dry_run=True)
    assert dry.json()["policy"]["violation"] == "owner: 'evil' is not one of ['o', 'team']"
    assert provider.api_requests() == []
    ok = await caller.sample("create_issue", {**ISSUE, "owner": "team", "weight": 5})
    assert ok.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.path == "/repos/team/r/issues"


async def test_a_pinned_value_is_filled_in_and_cannot_be_changed(
    caller: Caller, provider: Provider
) -> None:
    await with_policy(
        caller,
        {
            "rules": [
                {
                    "match": {"integration": "sample", "endpoint": "create_issue"},
                    "action": "allow",
                    "params": {"repo": {"pin": "sandbox"}},
                }
            ]
        },
    )
    provider.clear()
    r = await caller.sample("create_issue", {"owner": "o", "title": "T"})  # no repo
    assert r.json()["status"] == 200, r.text
    dry = await caller.sample("create_issue", {"owner": "o", "title": "T"}, dry_run=True)
    assert dry.json()["request"]["url"].endswith("/repos/o/sandbox/issues")
    r = await caller.sample("create_issue", {**ISSUE, "repo": "prod"})
    assert r.status_code == 403
    assert "repo must be 'sandbox' (pinned), not 'prod'" in r.json()["message"]
    [sent] = provider.api_requests()
    assert sent.path == "/repos/o/sandbox/issues"


async def test_policies_are_a_persons_to_change_and_checked(caller: Caller) -> None:
    harness, kid = caller.harness, await key_id(caller)
    # An API key cannot read or change a policy, not even its own.
    for method in ("GET", "PUT", "DELETE"):
        r = await harness.client.request(
            method, f"/api-keys/{kid}/policy", json={"rules": []}, headers=bearer(caller.full)
        )
        assert r.status_code in (401, 403), (method, r.text)
    # Another user's key is not found, with the body an unknown key gets.
    await harness.user("eve@example.com", plan="pro")
    other = await put_policy(caller, {"rules": []}, email="eve@example.com")
    assert other.status_code == 404
    token = await harness.token("eve@example.com")
    unknown = await harness.client.put(
        "/api-keys/key_unknown/policy", json={"rules": []}, headers=bearer(token)
    )
    assert unknown.json() == other.json()
    # Misspelt names and shapes are 400 naming the field.
    cases = [
        ({"rules": [{"match": {"integration": "sampel"}, "action": "deny"}]},
         "policy.rules[1].match.integration: no integration 'sampel'."),
        ({"rules": [{"match": {"endpoint": "drop_issue"}, "action": "deny"}]},
         "policy.rules[1].match.endpoint: no endpoint 'drop_issue'."),
        ({"rules": [{"match": {"endpoint": "create_issue"}, "action": "allow",
                     "params": {"titel": {"pin": "x"}}}]},
         "policy.rules[1].params.titel: create_issue takes no such parameter."),
        ({"rules": [{"match": {"class": "reads"}, "action": "deny"}]}, "rules.0.match.class"),
        ({"rules": [{"action": "block"}]}, "rules.0.action"),
        ({"rules": [], "mode": "strict"}, "mode: unknown field"),
    ]  # fmt: skip
    for policy, message in cases:
        r = await put_policy(caller, policy)
        assert r.status_code == 400, r.text
        assert message in r.json()["message"], r.json()
    # Stored as given; removed with DELETE.
    document = {"rules": [{"match": {"class": ["write", "destructive"]}, "action": "deny"}]}
    assert (await put_policy(caller, document)).json()["policy"] == document
    assert (await caller.sample("create_issue", ISSUE)).status_code == 403
    token = await harness.token()
    r = await harness.client.delete(f"/api-keys/{kid}/policy", headers=bearer(token))
    assert r.status_code == 204
    assert (await caller.sample("create_issue", ISSUE)).json()["status"] == 200


async def test_a_key_under_a_policy_makes_keys_under_it(caller: Caller) -> None:
    document = {"rules": [{"match": {"class": "destructive"}, "action": "deny"}]}
    await with_policy(caller, document)
    r = await caller.harness.client.post(
        "/api-keys", json={"name": "child"}, headers=bearer(caller.full)
    )
    assert r.status_code == 201, r.text
    child = r.json()["full_key"]
    denied = await caller.harness.run(child, "sample", "delete_issue", **DELETE)
    assert denied.status_code == 403
    assert denied.json()["error"] == "policy_denied"


async def test_a_stored_policy_this_server_cannot_read_refuses_every_call(
    caller: Caller,
) -> None:
    async with caller.harness.sessionmaker() as session, session.begin():
        await session.execute(
            update(ApiKey)
            .where(ApiKey.id == await key_id(caller))
            .values(policy={"rules": [{"action": "escalate"}]})
        )
    caller.harness.verifier.forget_key(await key_id(caller))
    r = await caller.sample("list_issues", {"owner": "o", "repo": "r"})
    assert r.status_code == 403
    assert r.json()["rule"] == "default"


async def test_a_policy_costs_no_database_query_per_call(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    """The policy is compiled with the key when the key cache fills: a call under a
    policy reads the database no more than one without (the cache outlives the test)."""
    async with open_harness(database_url, tmp_path, test_catalog, key_cache_ttl=60) as harness:
        plain = await ready(harness)
        ruled = await ready(harness, "bob@example.com")
        r = await put_policy(
            ruled,
            {"rules": [{"match": {"endpoint": "create_issue"}, "action": "allow",
                        "params": {"owner": {"one_of": ["o"]}}}]},
            email="bob@example.com",
        )  # fmt: skip
        assert r.status_code == 200, r.text
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(str(args[2]))

        async def selects(caller: Caller) -> list[str]:
            await caller.sample("create_issue", ISSUE)  # warm: key and connection cached
            statements.clear()
            for _ in range(3):
                assert (await caller.sample("create_issue", ISSUE)).json()["status"] == 200
            return [s for s in statements if s.lstrip().upper().startswith("SELECT")]

        engine = harness.engine.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            assert await selects(ruled) == await selects(plain) == []
        finally:
            event.remove(engine, "before_cursor_execute", count)
        denied = await ruled.sample("create_issue", {**ISSUE, "owner": "x"})
        assert denied.json()["error"] == "policy_denied"  # the policy was in force


async def test_a_policy_change_reaches_another_instance_within_the_key_ttl(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    """Two instances on one database: the one that changes a policy applies it at once,
    the other once its cached key is older than SKILLGATE_KEY_CACHE_TTL (as a revocation)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with (
        open_harness(database_url, tmp_path / "a", test_catalog, key_cache_ttl=0.5) as one,
        open_harness(database_url, tmp_path / "b", test_catalog, key_cache_ttl=0.5) as two,
    ):
        caller = await ready(one)
        other = Caller(two, caller.full)
        get_user = {"username": "u"}
        assert (await other.sample("get_user", get_user)).status_code == 200  # cached on two
        await with_policy(caller, {"rules": [], "default": "deny"})
        assert (await caller.sample("get_user", get_user)).status_code == 403  # at once here
        await asyncio.sleep(0.6)
        r = await other.sample("get_user", get_user)
        assert r.status_code == 403, r.text
        assert r.json()["rule"] == "default"
