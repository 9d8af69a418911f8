"""The shipped integrations compiled from official descriptions (Stripe, Asana, Box,
SendGrid),
each with its overlay, execute against a loopback upstream: the token is checked on
the overlay's `verify` path, and one compiled endpoint sends the method, path, auth
header and body its source document describes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, load_catalog
from skillgate.doors.mcp.schemas import endpoint_tool
from tests.conftest import Harness, bearer, open_harness
from tests.upstream import Provider

SLUGS = ("stripe", "asana", "box", "sendgrid")


@pytest.fixture(scope="module")
def compiled_catalog() -> Catalog:
    return load_catalog([SHIPPED_DIR / f"{slug}.yaml" for slug in SLUGS], shipped=False)


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    compiled_catalog: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    # Each base URL keeps the real one's path, so the paths below are the wire's.
    monkeypatch.setenv("SKILLGATE_STRIPE_BASE_URL", provider.url)
    monkeypatch.setenv("SKILLGATE_ASANA_BASE_URL", provider.url + "/api/1.0")
    monkeypatch.setenv("SKILLGATE_BOX_BASE_URL", provider.url + "/2.0")
    monkeypatch.setenv("SKILLGATE_SENDGRID_BASE_URL", provider.url + "/v3")
    async with open_harness(database_url, tmp_path, compiled_catalog) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        yield harness, full


async def _connect(harness: Harness, provider: Provider, full: str, slug: str, verify: str) -> None:
    provider.clear()
    await harness.connect_token(full, slug)
    [checked] = provider.api_requests()
    assert (checked.method, checked.path) == ("GET", verify)
    assert checked.headers["authorization"] == "Bearer good-token"
    provider.clear()


async def test_stripe_form_body_and_bracketed_expand(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "stripe", "/v1/balance")

    r = await harness.run(
        full,
        "stripe",
        "create_payment_intent",
        amount=2000,
        currency="usd",
        capture_method="manual",
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/v1/payment_intents")
    assert sent.headers["authorization"] == "Bearer good-token"
    assert sent.headers["content-type"] == "application/x-www-form-urlencoded"
    assert dict(parse_qsl(sent.body.decode())) == {
        "amount": "2000",
        "currency": "usd",
        "capture_method": "manual",
    }

    provider.clear()
    r = await harness.run(
        full, "stripe", "list_customers", limit=3, expand=["data.default_source", "data.tax"]
    )
    assert r.json()["status"] == 200
    [listed] = provider.api_requests()
    assert (listed.method, listed.path) == ("GET", "/v1/customers")
    assert listed.query == [
        ("expand[]", "data.default_source"),
        ("expand[]", "data.tax"),
        ("limit", "3"),
    ]


async def test_asana_fields_go_inside_the_data_envelope(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "asana", "/api/1.0/users/me")

    r = await harness.run(
        full,
        "asana",
        "create_task",
        name="Write the report",  # curated names (asana.yaml) for data.name, ...
        workspace="1200",
        projects=["1201", "1202"],
        opt_fields="name,permalink_url",
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/api/1.0/tasks")
    assert sent.query == [("opt_fields", "name,permalink_url")]
    assert sent.headers["authorization"] == "Bearer good-token"
    assert sent.json() == {
        "data": {"name": "Write the report", "workspace": "1200", "projects": ["1201", "1202"]}
    }


async def test_box_shared_link_operation_without_its_fragment(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "box", "/2.0/users/me")

    r = await harness.run(
        full,
        "box",
        "add_shared_link_to_file",
        file_id="12345",
        fields="shared_link",
        shared_link={"access": "open"},
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("PUT", "/2.0/files/12345")
    assert sent.query == [("fields", "shared_link")]
    assert sent.headers["authorization"] == "Bearer good-token"
    assert sent.json() == {"shared_link": {"access": "open"}}


async def test_sendgrid_mail_send_json_body(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "sendgrid", "/v3/scopes")

    message = {
        "personalizations": [{"to": [{"email": "ada@example.com"}]}],
        "from": {"email": "team@example.com", "name": "Team"},
        "subject": "Build passed",
        "content": [{"type": "text/plain", "value": "All green."}],
    }
    # An irreversible send: the key (default policy) is asked to confirm it first.
    r = await harness.run(full, "sendgrid", "send_mail", **message)
    assert r.status_code == 409
    assert r.json()["preview"]["body"] == message
    assert provider.api_requests() == []
    r = await harness.client.post(
        "/v1/sendgrid/send_mail",
        json={"params": message, "confirm": r.json()["confirm"]},
        headers={"Authorization": f"Bearer {full}"},
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/v3/mail/send")
    assert sent.headers["authorization"] == "Bearer good-token"
    assert sent.headers["content-type"] == "application/json"
    assert sent.json() == message


async def test_a_read_only_key_cannot_update_a_stripe_value_list_on_any_door(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    """Stripe's POST /v1/radar/value_lists/{value_list} ("Updates a value list") was
    compiled as a read (its id ends in "List"): a `stripe:read` key could call it."""
    harness, full = gateway
    await _connect(harness, provider, full, "stripe", "/v1/balance")
    read_only, _ = await harness.key(scopes=["stripe:read"])
    name = "post_radar_value_lists_value_list"
    params = {"value_list": "rsl_1", "name": "blocked emails"}

    r = await harness.run(read_only, "stripe", name, **params)
    assert r.status_code == 403
    assert r.json()["error"] == "scope_not_allowed"
    assert "read-only" in r.json()["message"]

    mcp = await harness.client.post(
        "/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "run_skill",
            "arguments": {"integration": "stripe", "endpoint": name, "params": params},
        }},
        headers={"Authorization": f"Bearer {read_only}", "Content-Type": "application/json",
                 "Accept": "application/json, text/event-stream",
                 "MCP-Protocol-Version": "2025-11-25"},
    )  # fmt: skip
    assert mcp.status_code == 200, mcp.text
    result = mcp.json()["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["error"] == "scope_not_allowed"
    assert provider.api_requests() == []  # nothing reached Stripe on either door

    # The full key sees it documented as a write (what the MCP tool's readOnlyHint follows).
    doc = await harness.client.get(f"/v1/skills/stripe/{name}", headers=bearer(full))
    assert doc.json()["changes_data"] is True
    stripe = harness.catalog.get("stripe")
    endpoint = harness.catalog.endpoint("stripe", name)
    assert stripe is not None
    assert endpoint is not None
    hints = endpoint_tool(stripe, endpoint).annotations
    assert hints is not None
    assert hints.read_only_hint is False
    r = await harness.run(full, "stripe", name, **params)
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/v1/radar/value_lists/rsl_1")
