"""The integrations pages: status, connect by token (verified upstream), OAuth link,
reconnect, disconnect, the outcome of a browser connect and a terminal's request."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from skillgate.connections.models import Connection
from skillgate.db.session import commit
from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web, full_key_of
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


async def _skills_status(harness: Harness, key: str) -> str:
    skills = (await harness.client.get("/v1/skills", headers=bearer(key))).json()
    statuses = {i["slug"]: i["status"] for i in skills["integrations"]}
    return statuses["sample"]


async def test_list_shows_every_integration_with_status(harness: Harness, signed_in: Web) -> None:
    page = await signed_in.get("/integrations")
    assert page.status_code == 200
    for name in ("Sample", "OAuthy"):
        assert name in page.text
    assert page.text.count("Not connected") == 2


async def test_connect_by_token_then_disconnect(
    harness: Harness, signed_in: Web, provider: Provider
) -> None:
    key = full_key_of((await signed_in.create_key("agent")).text)
    page = await signed_in.get("/integrations/sample")
    assert "API key" in page.text  # the catalog's token label
    # The catalog's token help, rendered from Markdown (issue 23.10): links and code,
    # raw HTML escaped.
    assert 'Create one at <a href="https://sample.test/keys"' in page.text
    assert "with the <code>read</code> scope" in page.text
    assert '<a href="https://sample.test/docs">the guide</a>' in page.text
    assert "&lt;b&gt;now&lt;/b&gt;" in page.text

    wrong = await signed_in.post("/integrations/sample/token", {"token": "wrong"})
    assert wrong.status_code == 400
    assert "did not accept this token" in wrong.text
    assert await _skills_status(harness, key) == "not_connected"

    ok = await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    assert ok.status_code == 303
    assert ok.headers["location"] == "/integrations/sample?connected=1"
    shown = await signed_in.get(ok.headers["location"])
    assert "Sample is connected." in shown.text
    assert 'id="status">Connected<' in shown.text
    assert "octo-user" in shown.text  # the account the upstream reported
    assert "good-token" not in shown.text
    assert await _skills_status(harness, key) == "connected"
    assert "Connected" in (await signed_in.get("/integrations")).text

    out = await signed_in.post("/integrations/sample/disconnect", {})
    assert out.status_code == 303
    assert out.headers["location"] == "/integrations/sample?notice=disconnected"
    assert await _skills_status(harness, key) == "not_connected"
    again = await signed_in.post("/integrations/sample/disconnect", {})
    assert again.status_code == 404
    assert "Sample is not connected." in again.text


async def test_forms_need_csrf(harness: Harness, signed_in: Web) -> None:
    r = await signed_in.post("/integrations/sample/token", {"token": "good-token"}, csrf_from=None)
    assert r.status_code == 403
    assert "Not connected" in (await signed_in.get("/integrations/sample")).text
    await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    r = await signed_in.post("/integrations/sample/disconnect", {}, csrf_from=None)
    assert r.status_code == 403
    assert 'id="status">Connected<' in (await signed_in.get("/integrations/sample")).text


async def test_oauth_integration_links_to_the_browser_flow(
    harness: Harness, signed_in: Web
) -> None:
    page = await signed_in.get("/integrations/oauthy")
    assert 'href="/connect/oauthy"' in page.text
    assert 'action="/integrations/oauthy/token"' not in page.text  # OAuth only


async def test_oauth_outcome_messages_are_shown_escaped(harness: Harness, signed_in: Web) -> None:
    page = await signed_in.get("/integrations/oauthy", params={"error": "<script>x</script>"})
    assert "Connecting failed: &lt;script&gt;x&lt;/script&gt;" in page.text
    assert "<script>x" not in page.text


async def test_reconnect_when_the_provider_refused(harness: Harness, signed_in: Web) -> None:
    await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    async with harness.sessionmaker() as s:
        await s.execute(update(Connection).values(status="reconnect_required"))
        await commit(s)
    page = await signed_in.get("/integrations/sample")
    assert "Reconnect needed" in page.text
    assert "Save new token" in page.text
    listing = await signed_in.get("/integrations")
    assert "Reconnect needed" in listing.text
    ok = await signed_in.post("/integrations/sample/token", {"token": "good-token"})
    assert ok.status_code == 303
    assert 'id="status">Connected<' in (await signed_in.get("/integrations/sample")).text


async def test_a_terminals_connect_request_completes_from_the_token_form(
    harness: Harness, signed_in: Web
) -> None:
    key = full_key_of((await signed_in.create_key("agent")).text)
    started = await harness.client.post(
        "/v1/connect", json={"integration": "sample"}, headers=bearer(key)
    )
    assert started.status_code == 201
    request_id = started.json()["id"]
    # The CLI's connect_url goes through /connect/sample, which sends token integrations here.
    hop = await signed_in.get(f"/connect/sample?request={request_id}")
    assert hop.status_code == 303
    assert hop.headers["location"].endswith(f"/integrations/sample?request={request_id}")
    page = await signed_in.get(f"/integrations/sample?request={request_id}")
    assert "waiting for you to connect" in page.text
    assert f'name="request" value="{request_id}"' in page.text
    done = await signed_in.post(
        "/integrations/sample/token", {"token": "good-token", "request": request_id}
    )
    assert done.headers["location"] == f"/integrations/sample?connected=1&request={request_id}"
    shown = await signed_in.get(done.headers["location"])
    assert "sees the connection now" in shown.text
    status = await harness.client.get(f"/v1/connect/{request_id}", headers=bearer(key))
    assert status.json()["status"] == "connected"


async def test_someone_elses_request_id_is_not_shown(
    harness: Harness, signed_in: Web, other_web: Web
) -> None:
    await other_web.signup("eve@example.com")
    key = full_key_of((await other_web.create_key("eve")).text)
    started = await harness.client.post(
        "/v1/connect", json={"integration": "sample"}, headers=bearer(key)
    )
    page = await signed_in.get(f"/integrations/sample?request={started.json()['id']}")
    assert "not valid for your account" in page.text
    assert 'name="request"' not in page.text


async def test_unknown_integration_is_an_html_404(harness: Harness, signed_in: Web) -> None:
    r = await signed_in.get("/integrations/nope")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Unknown integration" in r.text
    r = await signed_in.post("/integrations/nope/token", {"token": "x"})
    assert r.status_code == 404
