"""The opt-in approval webhook end to end, in-process against a real loopback receiver
(the run's provider server, which records what it receives): set on the Approvals page
(CSRF, https only, the secret shown once and stored sealed), an `approval.pending`
event signed per Standard Webhooks (checked here with hmac, independently of the
gateway's code), sent to the owner's URL only, nothing for a user without one, and a
receiver that is down never breaks the held call (retries: test_webhook_delivery.py)."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import re
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import text

from skillgate.catalog.loader import Catalog
from tests.conftest import Harness, bearer, client_for, open_harness, state_of
from tests.skillgate.dashboard.conftest import Web
from tests.upstream import Provider, Recorded, Reply

HOLD = {"rules": [{"match": {"endpoint": "create_issue"}, "action": "approve"}]}
ISSUE = {"owner": "o", "repo": "r", "title": "Bug"}
SECRET = re.compile(r'value="(whsec_[A-Za-z0-9+/=]+)"')


@contextlib.asynccontextmanager
async def driven(database_url: str, data_dir: Path, catalog: Catalog) -> AsyncIterator[Harness]:
    """An app of its own that lets a webhook be a loopback http:// URL (tests only), its
    delivery loop stopped: the test sends what is due with `Webhooks.drain()`, and no
    loop claims an attempt behind its back (the run's shared apps on the same database
    have theirs stopped too: tests/conftest.py, `SessionApps`)."""
    async with open_harness(
        database_url, data_dir, catalog, webhook_allow_loopback=True
    ) as harness:
        await state_of(harness.app).webhooks.close()
        yield harness


@pytest.fixture
async def hooked(
    provider: Provider, database_url: str, tmp_path: Path, test_catalog: Catalog
) -> AsyncIterator[Harness]:
    async with driven(database_url, tmp_path, test_catalog) as harness:
        yield harness


async def _signed_in(harness: Harness, email: str) -> Web:
    await harness.user(email, plan="pro")
    web = Web(harness.client)
    assert (await web.login(email)).status_code == 303
    return web


async def _held_key(harness: Harness, email: str) -> str:
    """An agent key of `email` whose policy holds create_issue, with a connection."""
    full, key = await harness.key(email)
    await harness.connect_token(full)
    token = await harness.token(email)
    r = await harness.client.put(f"/api-keys/{key['id']}/policy", json=HOLD, headers=bearer(token))
    assert r.status_code == 200, r.text
    return full


async def _save(web: Web, url: str) -> str:
    r = await web.post("/approvals/webhook", {"webhook_url": url}, csrf_from="/approvals")
    assert r.status_code == 200, r.text
    found = SECRET.search(r.text)
    assert found is not None
    return found.group(1)


def _verify(secret: str, hook: Recorded) -> None:
    """The Standard Webhooks check a receiver makes."""
    msg_id, stamp = hook.headers["webhook-id"], hook.headers["webhook-timestamp"]
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{stamp}.".encode() + hook.body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    versions = hook.headers["webhook-signature"].split(" ")
    assert f"v1,{expected}" in versions
    assert abs(time.time() - int(stamp)) < 60


def _hooks(provider: Provider) -> list[Recorded]:
    return [r for r in provider.requests if r.path.startswith("/hooks/")]


async def test_a_held_call_is_announced_to_its_owner_only_signed(
    hooked: Harness, provider: Provider
) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    secret = await _save(ada, f"{provider.url}/hooks/ada")
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 24
    page = await ada.get("/approvals")
    assert f"{provider.url}/hooks/ada" in page.text
    assert secret not in page.text  # shown once, at the save
    async with client_for(hooked.app) as browser:  # eve's own browser
        eve = await _signed_in(Harness(hooked.app, browser), "eve@example.com")
        await _save(eve, f"{provider.url}/hooks/eve")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", Reply(204))
    provider.clear()

    held = await hooked.run(full, "sample", "create_issue", **ISSUE)
    assert held.status_code == 202, held.text
    await state_of(hooked.app).webhooks.drain()

    hooks = _hooks(provider)
    assert [(h.method, h.path) for h in hooks] == [("POST", "/hooks/ada")]  # never eve's
    _verify(secret, hooks[0])
    approval = held.json()["approval"]
    event = hooks[0].json()
    assert event["type"] == "approval.pending"
    assert event["data"] == {
        "approval_id": approval["id"],
        "integration": "sample",
        "endpoint": "create_issue",
        "method": "POST",
        "url": approval["request"]["url"],
        "approve_url": approval["approve_url"],
        "expires_at": approval["expires_at"],
    }
    assert "good-token" not in hooks[0].body.decode()  # the credential never leaves
    assert hooks[0].headers["content-type"] == "application/json"
    async with state_of(hooked.app).sessionmaker() as session:
        stored = (await session.execute(text("SELECT secret FROM user_webhooks"))).scalars()
        assert all(secret.encode() not in bytes(blob) for blob in stored)  # sealed


async def test_a_user_without_a_webhook_gets_nothing_and_removing_stops_it(
    hooked: Harness, provider: Provider
) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    full = await _held_key(hooked, "ada@example.com")
    provider.clear()
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    await _save(ada, f"{provider.url}/hooks/ada")
    r = await ada.post("/approvals/webhook/remove", {}, csrf_from="/approvals")
    assert r.status_code == 303
    assert f"{provider.url}/hooks/ada" not in (await ada.get("/approvals")).text
    other = dict(ISSUE, title="Another")
    assert (await hooked.run(full, "sample", "create_issue", **other)).status_code == 202
    await state_of(hooked.app).webhooks.drain()
    assert _hooks(provider) == []


async def test_a_receiver_that_is_down_never_breaks_the_held_call(
    hooked: Harness, provider: Provider, capfd: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ada = await _signed_in(hooked, "ada@example.com")
    secret = await _save(ada, f"http://127.0.0.1:{port}/hook?token=relay-token")
    full = await _held_key(hooked, "ada@example.com")
    held = await hooked.run(full, "sample", "create_issue", **ISSUE)
    assert held.status_code == 202, held.text
    await state_of(hooked.app).webhooks.drain()  # the failure is logged, not raised
    again = await hooked.run(full, "sample", "create_issue", **ISSUE)
    assert again.json()["approval"]["id"] == held.json()["approval"]["id"]
    logged = capfd.readouterr().err
    assert "webhook not delivered" in logged
    assert secret not in logged
    assert secret.removeprefix("whsec_") not in logged
    assert "relay-token" not in logged  # nor the URL's query (a relay's token)


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/approvals",  # not https
        "http://127.0.0.1:9/hook",  # loopback: only when a test allows it
        "https://10.0.0.5/hook",  # a private address
        "https://user:pw@hooks.example.com/x",  # credentials in the URL
        "ntfy.sh/topic",  # not absolute
    ],
)
async def test_the_url_must_be_public_https(harness: Harness, url: str) -> None:
    web = await _signed_in(harness, "ada@example.com")
    r = await web.post("/approvals/webhook", {"webhook_url": url}, csrf_from="/approvals")
    assert r.status_code == 400
    assert "webhook_url" in r.text
    assert "whsec_" not in r.text
    assert "Events go to" not in (await web.get("/approvals")).text


async def test_saving_needs_the_csrf_token(harness: Harness) -> None:
    web = await _signed_in(harness, "ada@example.com")
    r = await web.post("/approvals/webhook", {"webhook_url": "https://ntfy.sh/t"}, csrf_from=None)
    assert r.status_code == 403
    assert "Events go to" not in (await web.get("/approvals")).text
    secret = await _save(web, "https://ntfy.sh/t")  # the same form, with its token
    assert secret.startswith("whsec_")
    assert orjson.dumps(secret) not in (await web.get("/approvals")).content


async def test_a_receiver_that_answers_an_error_is_logged_and_retried_later(
    hooked: Harness, provider: Provider, capfd: pytest.CaptureFixture[str]
) -> None:
    ada = await _signed_in(hooked, "ada@example.com")
    await _save(ada, f"{provider.url}/hooks/ada")
    full = await _held_key(hooked, "ada@example.com")
    provider.reply("POST", "/hooks/ada", Reply(500, {"error": "down"}))
    provider.clear()
    assert (await hooked.run(full, "sample", "create_issue", **ISSUE)).status_code == 202
    await state_of(hooked.app).webhooks.drain()
    await state_of(hooked.app).webhooks.drain()  # the retry is not due yet
    assert len(_hooks(provider)) == 1
    logged = [line for line in capfd.readouterr().err.splitlines() if "webhook refused" in line]
    assert len(logged) == 1
    assert orjson.loads(logged[0])["status"] == 500
    assert orjson.loads(logged[0])["attempt"] == 1
    async with state_of(hooked.app).sessionmaker() as session:
        row = (await session.execute(text("SELECT state, attempts FROM webhook_deliveries"))).one()
    assert tuple(row) == ("pending", 1)  # kept for its retry (test_webhook_delivery.py)
