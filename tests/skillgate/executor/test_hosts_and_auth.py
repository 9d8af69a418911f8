"""Several hosts per integration, per-connection hosts, HTTP Basic and two-part keys,
through the real app and a loopback upstream that records what it received.

- an endpoint with its own `base_url` (GitHub's uploads.github.com) is sent there, the
  others to the integration's host: the Host header each request arrived with;
- a connection variable (Jira's cloud id in `api.atlassian.com/ex/jira/{cloudid}`) is
  given with the pasted credentials, stored with the connection (GET /v1/connections
  shows it), and filled into the verification request and every call;
- HTTP Basic: `Authorization: Basic base64(username:password)` exactly, never shown
  in a dry run; a two-part key and token (Trello) both in the query;
- a value that would leave the provider's domain is a 400 naming the field, and
  nothing is sent.
"""

from __future__ import annotations

import base64
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.loader import load_catalog
from tests.conftest import FIXTURES, Harness, bearer, open_harness
from tests.skillgate.hosts_catalog import CLOUD_ID, hosts_catalog
from tests.upstream import Provider, Recorded, Reply


def _echo(rec: Recorded) -> Reply:
    return Reply(200, {"login": "someone", "host": rec.headers.get("host"), "path": rec.path})


def _harness(
    database_url: str, tmp_path: Path, provider: Provider
) -> AbstractAsyncContextManager[Harness]:
    catalog = hosts_catalog(tmp_path, provider.port)
    return open_harness(database_url, tmp_path / "data", catalog)


async def _dry_run(
    harness: Harness, full: str, slug: str, endpoint: str, **params: str
) -> dict[str, Any]:
    r = await harness.client.post(
        f"/v1/{slug}/{endpoint}", json={"params": params, "dry_run": True}, headers=bearer(full)
    )
    assert r.status_code == 200, r.text
    request: dict[str, Any] = r.json()["request"]
    return request


@pytest.mark.own_app
async def test_each_endpoint_goes_to_its_own_host(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    for path in ("/api/me", "/api/things", "/uploads/assets"):
        provider.reply("GET" if path != "/uploads/assets" else "POST", path, _echo)
    async with _harness(database_url, tmp_path, provider) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        await harness.connect_token(full, "multi")
        provider.clear()
        listed = await harness.run(full, "multi", "list_things")
        uploaded = await harness.run(full, "multi", "upload_asset", name="a.zip")
        assert listed.status_code == 200, listed.text
        assert uploaded.status_code == 200, uploaded.text
        first, second = provider.requests
        assert (first.path, first.headers["host"]) == ("/api/things", f"127.0.0.1:{provider.port}")
        assert (second.path, second.headers["host"]) == (
            "/uploads/assets",
            f"localhost:{provider.port}",
        )
        assert second.json() == {"name": "a.zip"}
        assert second.headers["authorization"] == "Bearer good-token"


@pytest.mark.own_app
async def test_a_connection_variable_and_basic_auth_reach_the_upstream(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    expected = "Basic " + base64.b64encode(b"me@example.com:s3cr3t:x").decode()
    seen: list[Recorded] = []

    def basic_only(rec: Recorded) -> Reply:
        seen.append(rec)
        if rec.headers.get("authorization") != expected:
            return Reply(401, {"message": "bad credentials"})
        return Reply(200, {"emailAddress": "me@example.com", "path": rec.path})

    provider.reply("GET", f"/ex/jira/{CLOUD_ID}/rest/api/3/myself", basic_only)
    provider.reply("GET", f"/ex/jira/{CLOUD_ID}/rest/api/3/issue/A-1", basic_only)
    async with _harness(database_url, tmp_path, provider) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        body = {
            "username": "me@example.com",
            "token": "s3cr3t:x",
            "variables": {"cloudid": CLOUD_ID},
        }
        r = await harness.client.put("/v1/connections/site", json=body, headers=bearer(full))
        assert r.status_code == 200, r.text
        assert r.json()["auth_type"] == "basic"
        assert r.json()["variables"] == {"cloudid": CLOUD_ID}
        assert r.json()["account"] == "me@example.com"
        assert "s3cr3t" not in r.text
        listed = await harness.client.get("/v1/connections", headers=bearer(full))
        (conn,) = [c for c in listed.json()["connections"] if c["integration"] == "site"]
        assert conn["variables"] == {"cloudid": CLOUD_ID}
        r = await harness.run(full, "site", "get_issue", key="A-1")
        assert r.status_code == 200, r.text
        verify, call = seen
        assert verify.path == f"/ex/jira/{CLOUD_ID}/rest/api/3/myself"
        assert call.path == f"/ex/jira/{CLOUD_ID}/rest/api/3/issue/A-1"
        assert call.headers["authorization"] == expected
        shown = await _dry_run(harness, full, "site", "get_issue", key="A-1")
        assert shown["url"] == f"{provider.url}/ex/jira/{CLOUD_ID}/rest/api/3/issue/A-1"
        assert shown["headers"]["Authorization"] == "Basic [redacted]"
        # SKILL.md tells the agent what the user gives when connecting.
        bundle = await harness.client.get("/v1/site/download", headers=bearer(full))
        skill = bundle.json()["files"][0]["content"]
        assert "Connect Site with Email and API token (HTTP Basic)." in skill
        assert "- `cloudid`: Cloud id (e.g. `0f6c3e2a-8a6b-4d35-9d0c-6c3f7f1b2a10`)." in skill


@pytest.mark.own_app
async def test_refused_variables_and_fields_are_400s_naming_them(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    async with _harness(database_url, tmp_path, provider) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        base = {"username": "me@example.com", "token": "t"}
        cases = {
            "variables.cloudid: '../../admin' is not a valid Cloud id": {"cloudid": "../../admin"},
            "variables.cloudid: required: Cloud id": {},
            "variables.site: not a variable of this integration": {
                "cloudid": CLOUD_ID,
                "site": "x",
            },
        }
        for message, variables in cases.items():
            r = await harness.client.put(
                "/v1/connections/site", json=base | {"variables": variables}, headers=bearer(full)
            )
            assert r.status_code == 400, r.text
            assert r.json()["error"] == "bad_request"
            assert message in r.json()["message"]
        r = await harness.client.put(
            "/v1/connections/multi", json={"token": "t", "username": "u"}, headers=bearer(full)
        )
        assert r.status_code == 400
        assert r.json()["message"].startswith("username: Multi does not take one")
        r = await harness.client.post(
            "/v1/connect",
            json={"integration": "site", "variables": {"cloudid": "evil.com/x"}},
            headers=bearer(full),
        )
        assert r.status_code == 400
        assert "variables.cloudid" in r.json()["message"]
        assert provider.requests == []  # nothing was sent anywhere


@pytest.mark.own_app
async def test_a_key_and_a_token_both_go_in_the_query(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    def both(rec: Recorded) -> Reply:
        if ("key", "k-1") not in rec.query or ("token", "t-1") not in rec.query:
            return Reply(401, {"message": "invalid key"})
        return Reply(200, {"username": "member", "query": rec.query})

    provider.reply("GET", "/1/members/me", both)
    provider.reply("GET", "/1/boards/b1", both)
    async with _harness(database_url, tmp_path, provider) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        missing = await harness.client.put(
            "/v1/connections/board", json={"token": "t-1"}, headers=bearer(full)
        )
        assert missing.status_code == 400
        assert missing.json()["message"].startswith("key: paste it exactly")
        r = await harness.client.put(
            "/v1/connections/board", json={"token": "t-1", "key": "k-1"}, headers=bearer(full)
        )
        assert r.status_code == 200, r.text
        provider.clear()
        r = await harness.run(full, "board", "get_board", id="b1")
        assert r.status_code == 200, r.text
        (sent,) = provider.requests
        assert sent.query == [("key", "k-1"), ("token", "t-1")]
        assert "authorization" not in sent.headers
        shown = await _dry_run(harness, full, "board", "get_board", id="b1")
        assert shown["url"] == f"{provider.url}/1/boards/b1?key=[redacted]&token=[redacted]"


SITED = """\
slug: sited
name: Sited
description: An OAuth API on a path per tenant, like api.atlassian.com/ex/jira/{{cloudid}}.
base_url: http://127.0.0.1:{port}/t/{{tenant}}
allow_private_network: true
variables:
  - {{name: tenant, label: Tenant, help: Your tenant's id., pattern: "[a-z]{{2,20}}"}}
auth:
  oauth2:
    authorize_url: http://127.0.0.1:{port}/oauth/authorize
    token_url: http://127.0.0.1:{port}/oauth/token
    scopes: [read]
verify: {{path: /me}}
endpoints:
  - name: get_thing
    method: GET
    path: /things/{{id}}
    category: things
    description: Get one thing by its id.
    parameters:
      - {{name: id, type: string, in: path, required: true, description: The id., example: t1}}
    errors: [{{code: 404, cause: Not found., fix: Check it.}}]
"""


@pytest.mark.own_app
async def test_oauth_keeps_the_variables_the_connect_form_gave(
    database_url: str, tmp_path: Path, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    from urllib.parse import parse_qs, urlsplit

    from tests.skillgate.dashboard.conftest import Web

    monkeypatch.setenv("SKILLGATE_SITED_CLIENT_ID", "client-1")
    monkeypatch.setenv("SKILLGATE_SITED_CLIENT_SECRET", "secret-1")
    catalog_dir = tmp_path / "sited"
    catalog_dir.mkdir()
    (catalog_dir / "sited.yaml").write_text(SITED.format(port=provider.port))
    catalog = load_catalog([FIXTURES / "catalog", catalog_dir], shipped=False)
    async with open_harness(database_url, tmp_path / "data", catalog) as harness:
        web = Web(harness.client)
        assert (await web.signup("ada@example.com")).status_code == 303
        refused = await web.get("/connect/sited", params={"var_tenant": "a/../b"})
        assert refused.status_code == 303
        assert (
            "variables.tenant" in parse_qs(urlsplit(refused.headers["location"]).query)["error"][0]
        )
        r = await web.get("/connect/sited", params={"var_tenant": "acme"})
        assert r.status_code == 303, r.text
        q = {k: v[0] for k, v in parse_qs(urlsplit(r.headers["location"]).query).items()}
        code = provider.issue_code(q["code_challenge"])
        back = await web.get("/connect/sited/callback", params={"code": code, "state": q["state"]})
        assert back.headers["location"].endswith("/integrations/sited?connected=1")
        full, _ = await harness.key()
        provider.clear()
        ran = await harness.run(full, "sited", "get_thing", id="t1")
        assert ran.status_code == 200, ran.text
        (sent,) = provider.api_requests()
        assert sent.path == "/t/acme/things/t1"
        assert sent.headers["authorization"].startswith("Bearer at-")
