"""A parameter the connection fills (catalog.fills), through the real app and a loopback
upstream: Twilio's `AccountSid`, the account the user gave when connecting.

- connecting with the Account SID as the Basic username stores it as the connection's
  `account_sid`; an API key's SID (SK...) needs it given, checked against its pattern;
- `send_sms` without AccountSid reaches POST /2010-04-01/Accounts/<that SID>/Messages.json,
  with one given (a subaccount) that one; `get_account` alone gets the connected account;
- a dry run shows the filled value; a connection without it is a 400 naming the
  parameter, and nothing is sent;
- what the agent is told: the endpoint's documented and MCP `required` lists leave it
  out, its description says where its default comes from, the example does not pass it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qsl

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.connections import stored
from skillgate.connections.credentials import Credentials
from skillgate.db.session import commit
from skillgate.doors.mcp.schemas import endpoint_tool
from tests.conftest import Harness, bearer
from tests.skillgate.executor.conftest import OpenWhole
from tests.upstream import Provider

SID = "AC" + "0123456789abcdef" * 2
SUBACCOUNT = "AC" + "fedcba9876543210" * 2
KEY_SID = "SK" + "0123456789abcdef" * 2
TEXT = {"To": "+15558675310", "From": "+15017122661", "Body": "Your order has whole."}
NOTE = "Defaults to the connected account's Account SID."


@pytest.fixture
async def gateway(open_whole: OpenWhole) -> AsyncIterator[tuple[Harness, str, Any]]:
    """The shipped catalog pointed at the loopback provider; a pro user and a key that
    needs no confirmation (send_sms is a send)."""
    async with open_whole(confirm="never") as opened:
        yield opened


@pytest.fixture
def wire(gateway: tuple[Harness, str, Any], database_url: str) -> tuple[Harness, str, Any]:
    """The gateway on SQLite only: what is sent does not depend on the database."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the wire does not depend on the database: SQLite's run covers it")
    return gateway


async def _connect(harness: Harness, full: str, **body: Any) -> Any:
    return await harness.client.put(
        "/v1/connections/twilio", json={"token": "good-token", **body}, headers=bearer(full)
    )


async def _store(harness: Harness, user_id: str, username: str) -> None:
    """A Twilio connection as one made before Twilio had `account_sid`: no variables."""
    async with harness.sessionmaker() as session:
        creds = Credentials(access_token="good-token", username=username)
        await stored.store(session, harness.vault, user_id, "twilio", "basic", creds)
        await commit(session)
    harness.connection_changed(user_id, "twilio")


async def test_connecting_takes_the_account_sid_from_the_username_or_as_given(
    gateway: tuple[Harness, str, Any],
) -> None:
    harness, full, _ = gateway
    r = await _connect(harness, full, username=SID)
    assert r.status_code == 200, r.text
    assert r.json()["variables"] == {"account_sid": SID}
    # An API key's SID is not the account's: then it must be given, and be one.
    r = await _connect(harness, full, username=KEY_SID)
    assert r.status_code == 400, r.text
    assert "variables.account_sid: required: Account SID" in r.json()["message"]
    r = await _connect(harness, full, username=KEY_SID, variables={"account_sid": "AC12"})
    assert r.status_code == 400, r.text
    assert "variables.account_sid: 'AC12' is not a valid Account SID" in r.json()["message"]
    r = await _connect(harness, full, username=KEY_SID, variables={"account_sid": SUBACCOUNT})
    assert r.status_code == 200, r.text
    listed = await harness.client.get("/v1/connections", headers=bearer(full))
    [twilio] = [c for c in listed.json()["connections"] if c["integration"] == "twilio"]
    assert twilio["variables"] == {"account_sid": SUBACCOUNT}


async def test_calls_act_in_the_connected_account_unless_they_name_another(
    wire: tuple[Harness, str, Any], provider: Provider
) -> None:
    harness, full, _ = wire
    assert (await _connect(harness, full, username=SID)).status_code == 200
    provider.clear()

    r = await harness.run(full, "twilio", "send_sms", **TEXT)
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", f"/2010-04-01/Accounts/{SID}/Messages.json")
    assert dict(parse_qsl(sent.body.decode())) == TEXT

    provider.clear()  # one given is sent as given: a subaccount
    r = await harness.run(full, "twilio", "send_sms", AccountSid=SUBACCOUNT, **TEXT)
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert sent.path == f"/2010-04-01/Accounts/{SUBACCOUNT}/Messages.json"

    provider.clear()  # a parameter that names its variable itself: get_account's Sid
    r = await harness.run(full, "twilio", "get_account")
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("GET", f"/2010-04-01/Accounts/{SID}.json")

    provider.clear()  # a dry run shows the value that would be sent, and sends nothing
    r = await harness.client.post(
        "/v1/twilio/list_messages", json={"params": {}, "dry_run": True}, headers=bearer(full)
    )
    assert r.status_code == 200, r.text
    assert r.json()["request"]["url"].endswith(f"/2010-04-01/Accounts/{SID}/Messages.json")
    assert provider.api_requests() == []


async def test_a_connection_without_the_account_sid_is_a_400_naming_the_parameter(
    wire: tuple[Harness, str, Any], provider: Provider
) -> None:
    harness, full, user = wire
    await _store(harness, user.id, KEY_SID)  # an API key, no account_sid stored
    provider.clear()
    r = await harness.run(full, "twilio", "send_sms", **TEXT)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    message = r.json()["message"]
    assert message.startswith("AccountSid: not given, and this Twilio connection has no ")
    assert "Account SID (variables.account_sid)" in message
    assert provider.api_requests() == []
    r = await harness.run(full, "twilio", "send_sms", AccountSid=SID, **TEXT)
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert sent.path == f"/2010-04-01/Accounts/{SID}/Messages.json"

    # Connected with the Account SID as the username before the variable existed: the
    # username is the account (it matches the variable's pattern).
    await _store(harness, user.id, SID)
    provider.clear()
    r = await harness.run(full, "twilio", "list_messages")
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert sent.path == f"/2010-04-01/Accounts/{SID}/Messages.json"


async def test_the_agent_is_told_it_may_leave_it_out(
    wire: tuple[Harness, str, Any], whole: Catalog
) -> None:
    harness, full, _ = wire
    doc = (await harness.client.get("/v1/skills/twilio/send_sms", headers=bearer(full))).json()
    params = {p["name"]: p for p in doc["parameters"]}
    assert params["AccountSid"]["required"] is False
    assert params["AccountSid"]["from_connection"] == "account_sid"
    assert params["AccountSid"]["description"].endswith(NOTE)
    assert [p["name"] for p in doc["parameters"] if p["required"]] == ["To"]
    assert "AccountSid" not in doc["example"]
    # The skill files `svc pull` writes: the parameter table and SKILL.md's connecting part.
    files = (await harness.client.get("/v1/twilio/download", headers=bearer(full))).json()
    by_path = {f["file_path"]: f["content"] for f in files["files"]}
    row = next(
        line
        for line in by_path["endpoints/messages/send_sms.md"].splitlines()
        if line.startswith("| `AccountSid` |")
    )
    assert row.startswith("| `AccountSid` | string | no | path |")
    assert NOTE in row
    assert "A call that leaves out `AccountSid` gets this value." in by_path["SKILL.md"]
    # The MCP tool's input schema.
    twilio = whole.integrations["twilio"]
    filled = [(p.name, e.name) for e in twilio.endpoints for p in e.parameters if p.from_connection]
    assert len([1 for name, _ in filled if name == "AccountSid"]) == 190  # docs/catalog.md
    assert ("Sid", "get_account") in filled
    send = next(e for e in twilio.endpoints if e.name == "send_sms")
    schema = endpoint_tool(twilio, send).input_schema
    assert schema["required"] == ["To"]
    assert schema["properties"]["AccountSid"]["description"].endswith(NOTE)
