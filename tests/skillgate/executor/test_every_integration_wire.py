"""Every integration compiled from a pinned source, executed (issue 25, "no wrong wire
request"): its token is checked on the verify path, then each of its curated calls that
only reads is run with its documented example against a loopback upstream, and the
method and path received are the ones the pinned source gives the operation (read from
the stored copy by test_breadth_integrations' own reader, not from the compiled file)."""

from __future__ import annotations

import json
import lzma
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qsl, unquote

import pytest

from skillgate.catalog.auth import sent_credentials
from skillgate.catalog.examples import example_params
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Integration
from skillgate.catalog.sources import read_lock
from tests.conftest import Harness, bearer
from tests.skillgate.executor.conftest import OpenWhole
from tests.skillgate.executor.test_breadth_integrations import SOURCES, _source_call
from tests.upstream import Provider, Recorded

PER_INTEGRATION = 3  # curated reads run per integration


def _matches(template: str, path: str) -> bool:
    """Whether `path` is `template` filled: a `{name}` is one segment or more (Google's
    `{+name}` spans segments; its flat paths name the pieces)."""
    template = re.sub("/+", "/", template.split("?")[0])  # a server URL ending in `/`
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^?]+", re.escape(template))
    return re.fullmatch(pattern, path.split("?")[0]) is not None


@pytest.fixture
async def gateway(open_whole: OpenWhole, database_url: str) -> AsyncIterator[tuple[Harness, str]]:
    if not database_url.startswith("sqlite"):
        pytest.skip("the wire does not depend on the database: SQLite's run covers it")
    async with open_whole() as (harness, full, _):
        yield harness, full


async def test_each_sourced_integration_sends_what_its_source_says(
    gateway: tuple[Harness, str], provider: Provider, whole: Catalog
) -> None:
    harness, full = gateway
    sourced = sorted({s.slug for s in read_lock()})
    checked: dict[str, int] = {}
    for slug in sourced:
        integration = whole.integrations[slug]
        if integration.auth.pasted is None:
            continue  # connected by OAuth only: not here
        provider.clear()
        await harness.connect_pasted(full, integration)
        provider.clear()
        reads = [
            e
            for e in integration.endpoints
            if e.curated and e.operation and not e.mutates and e.base_url is None
        ][:PER_INTEGRATION]
        for endpoint in reads:
            params = {p.name: value for p, value in example_params(endpoint)}
            r = await harness.run(full, slug, endpoint.name, **params)
            assert r.status_code == 200, (slug, endpoint.name, r.text)
            [sent] = provider.api_requests()
            method, template = _source_call(slug, str(endpoint.operation))
            assert sent.method == method, (slug, endpoint.name)
            assert _matches(template, unquote(sent.path)), (slug, endpoint.name, sent.path)
            # Each path value where the source puts one; one the call leaves out is the
            # connection's (catalog.fills: Twilio's AccountSid, as connect_pasted gave it).
            given = {v.name: v.example for v in integration.variables}
            for p in endpoint.parameters:
                if p.location == "path":
                    value = params.get(p.name, given.get(p.from_connection or ""))
                    assert value is not None, (slug, p.name)
                    assert str(value) in unquote(sent.path), (slug, p.name)
            _assert_credential(integration, sent)
            provider.clear()
        checked[slug] = len(reads)
    # Every sourced integration a pasted token connects was called, each at least once.
    assert all(n >= 1 for n in checked.values()), checked
    assert len(checked) >= 34, sorted(set(sourced) - set(checked))
    assert {"jira", "trello", "mailchimp", "twilio"} <= set(checked)


def _assert_credential(integration: Integration, sent: Recorded) -> None:
    """The pasted credential is on the request where the integration's auth puts it."""
    auth = integration.auth.pasted
    assert auth is not None
    for where, name, value in sent_credentials(
        auth, "good-token", "someone@example.com", "app-key"
    ):
        if where == "header":
            assert sent.headers.get(name.lower()) == value, (integration.slug, name)
        elif where == "query":
            assert (name, value) in sent.query, (integration.slug, name)


def _source_body(slug: str, operation: str) -> tuple[str, dict[str, Any]]:
    """(media type, properties) of the operation's request body in the pinned source,
    `$ref`s followed here (not by the importer)."""
    doc = json.loads(lzma.decompress(SOURCES[slug].stored_path.read_bytes()))

    def deref(node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = _pointer(doc, node["$ref"])
        return node

    for item in doc["paths"].values():
        for op in item.values():
            if isinstance(op, dict) and op.get("operationId") == operation:
                [(media, content)] = deref(op["requestBody"])["content"].items()
                return media, deref(content["schema"]).get("properties") or {}
    raise AssertionError(operation)


def _pointer(doc: dict[str, Any], ref: str) -> Any:
    node: Any = doc
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


# A write per integration whose user gives a host or Basic credentials: the curated
# endpoint, its parameters, and what the source's body must then hold.
WRITES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "jira",
        "create_issue",
        {"fields": {"project": {"key": "ENG"}, "issuetype": {"name": "Task"}, "summary": "Hi"}},
    ),
    ("jira", "add_comment", {"issueIdOrKey": "ENG-1", "body": {"type": "doc", "version": 1}}),
    ("jira", "assign_issue", {"issueIdOrKey": "ENG-1", "accountId": None}),  # unassigns
    (
        "twilio",
        "send_sms",
        {"AccountSid": "AC1", "To": "+15558675310", "From": "+15017122661", "Body": "Hi"},
    ),
    (
        "mailchimp",
        "add_member",
        {"list_id": "l1", "email_address": "a@example.com", "status": "subscribed"},
    ),
    ("trello", "create_card", {"idList": "l1", "name": "Draft"}),
]


async def test_writes_send_the_sources_body(
    gateway: tuple[Harness, str], provider: Provider, whole: Catalog
) -> None:
    harness, full = gateway
    for slug in {slug for slug, _, _ in WRITES}:
        await harness.connect_pasted(full, whole.integrations[slug])
    for slug, name, params in WRITES:
        integration = whole.integrations[slug]
        endpoint = next(e for e in integration.endpoints if e.name == name)
        assert endpoint.operation is not None
        provider.clear()
        r = await harness.run(full, slug, name, **params)
        if r.json().get("error") == "confirmation_required":  # send_sms: a send
            assert endpoint.destructive, (slug, name)
            assert provider.api_requests() == [], (slug, name)
            r = await harness.client.post(
                f"/v1/{slug}/{name}",
                json={"params": params, "confirm": r.json()["confirm"]},
                headers=bearer(full),
            )
        assert r.status_code == 200, (slug, name, r.text)
        [sent] = provider.api_requests()
        method, template = _source_call(slug, endpoint.operation)
        assert sent.method == method, (slug, name)
        assert _matches(template, unquote(sent.path)), (slug, name, sent.path)
        _assert_credential(integration, sent)
        media, properties = _source_body(slug, endpoint.operation)
        assert sent.headers["content-type"].split(";")[0] == media, (slug, name)
        body_params = {p.wire_name for p in endpoint.parameters if p.location == "body"}
        given = {k: v for k, v in params.items() if k in body_params}
        if media == "application/x-www-form-urlencoded":
            received: dict[str, Any] = dict(parse_qsl(sent.body.decode()))
        else:
            received = json.loads(sent.body)
        assert received == given, (slug, name, received)
        assert set(received) <= set(properties), (slug, name, sorted(properties))


async def test_jira_search_issues_calls_the_jql_search_that_replaced_the_sources(
    gateway: tuple[Harness, str], provider: Provider, whole: Catalog
) -> None:
    """`search_issues` is hand-written (the pinned source's /rest/api/3/search is gone
    from Jira Cloud): GET /rest/api/3/search/jql with the JQL, fields and page token in
    the query, the site's Basic credential on it."""
    harness, full = gateway
    jira = whole.integrations["jira"]
    await harness.connect_pasted(full, jira)
    provider.clear()
    jql = 'project = ENG AND status = "In Progress" ORDER BY updated DESC'
    r = await harness.run(
        full, "jira", "search_issues", jql=jql, fields="summary,status", nextPageToken="t2"
    )
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert (sent.method, sent.path) == ("GET", "/rest/api/3/search/jql")
    assert dict(sent.query) == {"jql": jql, "fields": "summary,status", "nextPageToken": "t2"}
    _assert_credential(jira, sent)
