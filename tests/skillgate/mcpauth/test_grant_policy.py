"""Policies per OAuth grant (issue 28): a connected app's policy, set by the person over
/oauth-grants (or chosen on the consent page), evaluated by the executor for the
app's access tokens on the MCP door exactly as a key's: a deny rule refuses and
sends nothing, a dry run names the rule, an `approve` rule holds the call for the
person, and a refreshed token keeps the policy. Against the loopback upstream that
records what it received, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import event

from skillgate.catalog.loader import Catalog
from tests.conftest import Harness, bearer, open_harness
from tests.skillgate.dashboard.conftest import Web
from tests.skillgate.mcpauth.conftest import OAuthClient, mcp
from tests.upstream import Provider, Reply

ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}
NO_ISSUES = {"rules": [{"name": "no new issues", "match": {"endpoint": "create_issue"},
                        "action": "deny"}]}  # fmt: skip


async def run(harness: Harness, token: str, endpoint: str, **args: Any) -> dict[str, Any]:
    """run_skill / run_skill_write over the door's HTTP, as an MCP client sends it."""
    tool = "run_skill" if endpoint == "get_user" else "run_skill_write"
    arguments = {"integration": "sample", "endpoint": endpoint, **args}
    r = await mcp(harness, token, "tools/call", name=tool, arguments=arguments)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["result"]
    return result


def content(result: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(result["content"][0]["text"])
    return found


async def grant_id(harness: Harness, email: str = "ada@example.com") -> str:
    r = await harness.client.get("/oauth-grants", headers=bearer(await harness.token(email)))
    assert r.status_code == 200, r.text
    return str(r.json()[0]["id"])


async def put_policy(
    harness: Harness, grant: str, policy: Any, email: str = "ada@example.com"
) -> httpx.Response:
    token = await harness.token(email)
    return await harness.client.put(
        f"/oauth-grants/{grant}/policy", json=policy, headers=bearer(token)
    )


async def connected(harness: Harness) -> None:
    full, _ = await harness.key()
    await harness.connect_token(full)


async def test_a_deny_rule_refuses_the_apps_call_and_the_dry_run_names_it(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    await connected(harness)
    token = (await oauth.tokens())["access_token"]
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    assert (await run(harness, token, "create_issue", params=ISSUE))["isError"] is False
    grant = await grant_id(harness)
    r = await put_policy(harness, grant, NO_ISSUES)
    assert r.status_code == 200, r.text
    assert r.json() == {"grant_id": grant, "policy": NO_ISSUES}
    provider.clear()

    # The change applies to the next call at once (this instance dropped the cached token).
    refused = await run(harness, token, "create_issue", params=ISSUE)
    assert refused["isError"] is True
    body = refused["structuredContent"]
    assert body["error"] == "policy_denied"
    assert body["rule"] == {"index": 1, "name": "no new issues"}
    assert body["message"].startswith(
        "Rule 1 ('no new issues') of this connected app's policy denies sample create_issue."
    )
    assert "the person who allowed this app" in body["message"]  # the grant's steps
    dry = await run(harness, token, "create_issue", params=ISSUE, dry_run=True)
    assert dry["isError"] is False, dry
    assert content(dry)["policy"] == {
        "action": "deny",
        "rule": {"index": 1, "name": "no new issues"},
    }
    assert provider.api_requests() == []
    # What the rule does not match goes as before.
    assert (await run(harness, token, "get_user", params={"username": "u"}))["isError"] is False
    assert [r.path for r in provider.api_requests()] == ["/users/u"]


async def test_consent_with_approval_for_changes_holds_the_call_for_the_person(
    harness: Harness, oauth: OAuthClient, provider: Provider, signed_in: Web
) -> None:
    await connected(harness)
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 7}))
    token = (await oauth.tokens(policy_preset="approve_writes"))["access_token"]
    grant = await grant_id(harness)
    shown = await harness.client.get(
        f"/oauth-grants/{grant}/policy", headers=bearer(await harness.token())
    )
    assert shown.json()["policy"]["rules"][0]["action"] == "approve"
    provider.clear()

    held = await run(harness, token, "create_issue", params=ISSUE)
    assert held["isError"] is True
    pending = held["structuredContent"]
    assert pending["error"] == "approval_pending"
    approval = pending["approval"]
    assert "this connected app's policy" in pending["message"]
    assert "Send the same call again to learn its outcome." in pending["message"]
    assert "Poll GET" not in pending["message"]  # the app's token calls /mcp only
    assert (await run(harness, token, "create_issue", params=ISSUE))["structuredContent"][
        "approval"
    ]["id"] == approval["id"]  # the retry pattern: the same approval
    assert provider.api_requests() == []  # nothing sent while it waits
    # Reads are not held.
    assert (await run(harness, token, "get_user", params={"username": "u"}))["isError"] is False
    provider.clear()

    page = await signed_in.get(f"/approvals/{approval['id']}")
    assert page.status_code == 200
    assert "create_issue" in page.text
    r = await signed_in.post(
        f"/approvals/{approval['id']}/approve", {}, csrf_from=f"/approvals/{approval['id']}"
    )
    assert r.status_code == 200, r.text
    sent = [(q.method, q.path) for q in provider.api_requests()]
    assert sent == [("POST", "/repos/o/r/issues")]  # once, as shown
    outcome = await run(harness, token, "create_issue", params=ISSUE)
    assert outcome["isError"] is False, outcome
    assert outcome["structuredContent"]["status"] == 201
    assert len(provider.api_requests()) == 1  # the answer was the stored one
    await harness.executions.flush()
    activity = (await signed_in.get("/activity")).text
    assert "Test Client (app)" in activity  # the app's calls, named on the Activity page
    assert "approved by session:ada@example.com" in activity


async def test_the_app_cannot_approve_its_own_held_call(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    await connected(harness)
    token = (await oauth.tokens(policy_preset="approve_writes"))["access_token"]
    held = await run(harness, token, "create_issue", params=ISSUE)
    approval_id = held["structuredContent"]["approval"]["id"]
    provider.clear()
    for verb in ("approve", "deny"):  # the agent API refuses the app's token outright
        r = await harness.client.post(f"/v1/approvals/{approval_id}/{verb}", headers=bearer(token))
        assert r.status_code == 401, r.text
    dry = await run(harness, token, "create_issue", params=ISSUE, confirm="anything")
    assert dry["structuredContent"]["error"] == "approval_pending"
    assert provider.api_requests() == []


async def test_another_users_grant_policy_is_404_and_an_api_key_is_refused(
    harness: Harness, oauth: OAuthClient
) -> None:
    await oauth.tokens()
    grant = await grant_id(harness)
    await harness.user("eve@example.com")
    eve = await harness.token("eve@example.com")
    path = f"/oauth-grants/{grant}/policy"
    assert (await harness.client.get(path, headers=bearer(eve))).status_code == 404
    r = await harness.client.put(path, json=NO_ISSUES, headers=bearer(eve))
    assert r.status_code == 404
    assert (await harness.client.delete(path, headers=bearer(eve))).status_code == 404
    assert (await harness.client.get("/oauth-grants", headers=bearer(eve))).json() == []
    ada = await harness.token()
    assert (await harness.client.get(path, headers=bearer(ada))).json()["policy"] is None
    full, _ = await harness.key()
    app_token = (await oauth.tokens())["access_token"]
    for credential in (full, app_token):  # an agent's key, the app's own token
        for method in ("GET", "PUT", "DELETE"):
            r = await harness.client.request(
                method, path, json=NO_ISSUES, headers=bearer(credential)
            )
            assert r.status_code == 401, (method, r.text)
    r = await harness.client.put(
        path, json={"rules": [{"match": {"integration": "githib"}, "action": "deny"}]},
        headers=bearer(ada),
    )  # fmt: skip
    assert r.status_code == 400
    assert "policy.rules[1].match.integration: no integration 'githib'" in r.text
    assert (await harness.client.get(path, headers=bearer(ada))).json()["policy"] is None
    # The dashboard's editor: the same 404 for another's app.
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=harness.app), base_url="http://testserver"
    ) as browser:
        other = Web(browser)
        assert (await other.login("eve@example.com")).status_code == 303
        assert (await other.get(f"/keys/apps/{grant}/policy")).status_code == 404


async def test_a_refreshed_token_keeps_the_policy(
    harness: Harness, oauth: OAuthClient, provider: Provider
) -> None:
    await connected(harness)
    first = await oauth.tokens()
    grant = await grant_id(harness)
    assert (await put_policy(harness, grant, NO_ISSUES)).status_code == 200
    r = await oauth.refresh(first["refresh_token"])
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["access_token"] != first["access_token"]
    provider.clear()
    refused = await run(harness, second["access_token"], "create_issue", params=ISSUE)
    assert refused["structuredContent"]["error"] == "policy_denied"
    assert provider.api_requests() == []
    # Removing it lets the call through.
    r = await harness.client.delete(
        f"/oauth-grants/{grant}/policy", headers=bearer(await harness.token())
    )
    assert r.status_code == 204
    provider.reply("POST", "/repos/o/r/issues", Reply(201, {"number": 8}))
    assert (await run(harness, second["access_token"], "create_issue", params=ISSUE))[
        "isError"
    ] is False


async def test_the_apps_policy_is_edited_on_connected_apps(
    harness: Harness, oauth: OAuthClient, signed_in: Web
) -> None:
    await oauth.tokens()
    grant = await grant_id(harness)
    keys = await signed_in.get("/keys")
    assert f'href="/keys/apps/{grant}/policy">Add policy' in keys.text
    path = f"/keys/apps/{grant}/policy"
    bad = await signed_in.post(path, {"policy": "rules: [{action: maybe}]"}, csrf_from=path)
    assert bad.status_code == 400
    assert "Policy: rules.0.action" in bad.text
    assert "Test Client" in bad.text
    assert "action: maybe" in bad.text  # the text kept in the editor
    text = (
        "rules:\n  - name: no new issues\n    match: {endpoint: create_issue}\n    action: deny\n"
    )
    ok = await signed_in.post(path, {"policy": text}, csrf_from=path)
    assert ok.status_code == 303
    assert ok.headers["location"] == "/keys?notice=app_policy"
    api = await harness.client.get(
        f"/oauth-grants/{grant}/policy", headers=bearer(await harness.token())
    )
    assert api.json()["policy"] == NO_ISSUES
    assert f'href="/keys/apps/{grant}/policy">Edit policy' in (await signed_in.get("/keys")).text
    gone = await signed_in.post(path + "/remove", {}, csrf_from=path)
    assert gone.status_code == 303
    assert (await harness.client.get(
        f"/oauth-grants/{grant}/policy", headers=bearer(await harness.token())
    )).json()["policy"] is None  # fmt: skip


async def test_a_grant_policy_costs_no_database_query_per_call(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    """Compiled with the token's cache entry: a call under a policy reads the database
    no more than one without."""
    from tests.skillgate.dashboard.conftest import Web as Browser

    async with open_harness(database_url, tmp_path, test_catalog, key_cache_ttl=60) as harness:
        await harness.user()
        browser = Browser(harness.client)
        assert (await browser.login("ada@example.com")).status_code == 303
        client = OAuthClient(harness.client, browser)
        assert (await client.register()).status_code == 201
        await connected(harness)
        token = (await client.tokens())["access_token"]
        grant = await grant_id(harness)
        policy = {"rules": [{"match": {"endpoint": "get_user"}, "action": "allow",
                             "params": {"username": {"one_of": ["u"]}}}]}  # fmt: skip
        assert (await put_policy(harness, grant, policy)).status_code == 200
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(str(args[2]))

        await run(harness, token, "get_user", params={"username": "u"})  # warm the caches
        engine = harness.engine.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            for _ in range(3):
                ok = await run(harness, token, "get_user", params={"username": "u"})
                assert ok["isError"] is False, ok
        finally:
            event.remove(engine, "before_cursor_execute", count)
        assert [s for s in statements if s.lstrip().upper().startswith("SELECT")] == []
        refused = await run(harness, token, "get_user", params={"username": "x"})
        assert refused["structuredContent"]["error"] == "policy_denied"  # in force


async def test_the_consent_page_offers_the_policies_and_refuses_another(
    harness: Harness, oauth: OAuthClient
) -> None:
    page = await oauth.consent_page()
    assert 'name="policy_preset"' in page.text
    assert "Changes wait for my approval" in page.text
    r = await oauth.answer(page, policy_preset="allow_everything_forever")
    assert r.status_code == 400
    assert "Policy: choose one of the offered policies." in r.text
    grants = await harness.client.get("/oauth-grants", headers=bearer(await harness.token()))
    assert grants.json() == []  # nothing was granted
    r = await oauth.answer(await oauth.consent_page(), policy_preset="deny_destructive")
    assert r.status_code == 303
    grant = await grant_id(harness)
    shown = await harness.client.get(
        f"/oauth-grants/{grant}/policy", headers=bearer(await harness.token())
    )
    assert shown.json()["policy"] == {
        "rules": [
            {"name": "no destructive calls", "match": {"class": "destructive"}, "action": "deny"}
        ]
    }


async def test_a_grant_policy_change_reaches_another_instance_within_the_key_ttl(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    """Two instances on one database: the one that changes an app's policy applies it
    at once, the other once its cached token is older than SKILLGATE_KEY_CACHE_TTL."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with (
        open_harness(database_url, tmp_path / "a", test_catalog, key_cache_ttl=0.5) as one,
        open_harness(database_url, tmp_path / "b", test_catalog, key_cache_ttl=0.5) as two,
    ):
        await one.user()
        browser = Web(one.client)
        assert (await browser.login("ada@example.com")).status_code == 303
        client = OAuthClient(one.client, browser)
        assert (await client.register()).status_code == 201
        await connected(one)
        token = (await client.tokens())["access_token"]
        ok = await run(two, token, "get_user", params={"username": "u"})
        assert ok["isError"] is False, ok  # verified and cached on two
        grant = await grant_id(one)
        deny_all = {"rules": [], "default": "deny"}
        assert (await put_policy(one, grant, deny_all)).status_code == 200
        here = await run(one, token, "get_user", params={"username": "u"})
        assert here["structuredContent"]["error"] == "policy_denied"  # at once here
        await asyncio.sleep(0.6)
        there = await run(two, token, "get_user", params={"username": "u"})
        assert there["structuredContent"]["error"] == "policy_denied"
        assert there["structuredContent"]["rule"] == "default"
