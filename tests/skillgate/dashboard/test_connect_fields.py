"""The connect form asks for what the integration needs: HTTP Basic's two fields, a
key beside a token, and the connection's variables (`var_<name>`), prefilled from a
terminal's `svc connect --set`; a refused variable is shown on the page, naming it."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from skillgate.catalog.loader import load_catalog
from tests.conftest import bearer, open_harness
from tests.skillgate.dashboard.conftest import Web
from tests.skillgate.hosts_catalog import CLOUD_ID, hosts_catalog
from tests.upstream import Provider, Recorded, Reply, serve_catalog


@pytest.mark.own_app
async def test_basic_credentials_and_a_variable_through_the_form(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    expected = "Basic " + base64.b64encode(b"me@example.com:tok").decode()

    def basic_only(rec: Recorded) -> Reply:
        ok = rec.headers.get("authorization") == expected
        return Reply(200, {"emailAddress": "me@example.com"}) if ok else Reply(401, {})

    provider.reply("GET", f"/ex/jira/{CLOUD_ID}/rest/api/3/myself", basic_only)
    catalog = hosts_catalog(tmp_path, provider.port)
    async with open_harness(database_url, tmp_path / "data", catalog) as harness:
        web = Web(harness.client)
        assert (await web.signup("ada@example.com")).status_code == 303
        page = await web.get("/integrations/site")
        for field in ('name="var_cloudid"', 'name="username"', 'name="token"'):
            assert field in page.text
        assert "Email" in page.text  # the catalog's labels
        assert "API token" in page.text
        form = {"username": "me@example.com", "token": "tok", "var_cloudid": "x/../../y"}
        refused = await web.post("/integrations/site/token", form)
        assert refused.status_code == 400
        assert "Variables.cloudid: &#39;x/../../y&#39; is not a valid Cloud id" in refused.text
        assert provider.requests == []
        ok = await web.post("/integrations/site/token", form | {"var_cloudid": CLOUD_ID})
        assert ok.status_code == 303, ok.text
        shown = await web.get("/integrations/site")
        assert "a username and password" in shown.text
        assert f"<code>{CLOUD_ID}</code>" in shown.text
        assert "tok" not in shown.text.replace("token", "")


@pytest.mark.own_app
async def test_a_terminals_variables_prefill_the_form(
    database_url: str, tmp_path: Path, provider: Provider
) -> None:
    catalog = hosts_catalog(tmp_path, provider.port)
    async with open_harness(database_url, tmp_path / "data", catalog) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        r = await harness.client.post(
            "/v1/connect",
            json={"integration": "site", "variables": {"cloudid": CLOUD_ID}},
            headers=bearer(full),
        )
        assert r.status_code == 201, r.text
        web = Web(harness.client)
        await web.login("ada@example.com")
        page = await web.get(f"/integrations/site?request={r.json()['id']}")
        assert f'name="var_cloudid" required maxlength="100" value="{CLOUD_ID}"' in page.text
        board = await web.get("/integrations/board")
        assert 'name="key"' in board.text  # the key part, beside the token


@pytest.mark.own_app
async def test_twilios_account_sid_may_be_left_to_the_username(
    database_url: str, tmp_path: Path, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `from_username` variable's field is optional: connected with the Account SID as
    the username, the connection stores it as `account_sid` (catalog.fills)."""
    sid = "AC" + "0123456789abcdef" * 2
    catalog = load_catalog()
    serve_catalog(provider, catalog, monkeypatch)
    async with open_harness(database_url, tmp_path / "data", catalog) as harness:
        web = Web(harness.client)
        assert (await web.signup("ada@example.com")).status_code == 303
        page = await web.get("/integrations/twilio")
        assert 'name="var_account_sid" maxlength="100"' in page.text  # not `required`
        form = {"username": sid, "token": "good-token", "var_account_sid": ""}
        ok = await web.post("/integrations/twilio/token", form)
        assert ok.status_code == 303, ok.text
        shown = await web.get("/integrations/twilio")
        assert f"<dt>account_sid</dt><dd><code>{sid}</code></dd>" in shown.text
