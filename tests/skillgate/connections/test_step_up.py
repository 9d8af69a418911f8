"""Scope sets and step-up (issue 25.4): an endpoint whose scope the connection was not
granted is offered, answers 403 insufficient_scope naming the scope, and its action_url
adds the scope set at the provider; once granted, the call runs. On the loopback OAuth
provider, which grants what the authorization asked for."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import Harness, bearer
from tests.skillgate.connections.test_connect import _browser
from tests.upstream import Provider

pytestmark = pytest.mark.usefixtures("provider")


async def _authorize(harness: Harness, provider: Provider, path: str) -> dict[str, str]:
    """Follow a browser connect link to the provider, allow what it asks, come back."""
    r = await harness.client.get(path)
    assert r.status_code == 303, r.text
    to_provider = urlsplit(r.headers["location"])
    assert f"{to_provider.scheme}://{to_provider.netloc}" == provider.url
    asked = {k: v[0] for k, v in parse_qs(to_provider.query).items()}
    code = provider.issue_code(asked["code_challenge"], scope=asked["scope"])
    r = await harness.client.get(
        "/connect/oauthy/callback", params={"code": code, "state": asked["state"]}
    )
    assert r.status_code == 303
    assert r.headers["location"].endswith("/integrations/oauthy?connected=1")
    return asked


async def test_a_missing_scope_set_is_asked_for_then_the_call_runs(
    harness: Harness, provider: Provider
) -> None:
    user = await harness.user()
    full, _ = await harness.key()
    await _browser(harness, user.id)
    try:
        asked = await _authorize(harness, provider, "/connect/oauthy")
        assert asked["scope"] == "read write"  # a scope set is not asked for at connect

        doc = await harness.client.get("/v1/skills/oauthy/archive_thing", headers=bearer(full))
        assert doc.json()["scope_set"] == {
            "name": "admin",
            "description": "archive and restore things",
        }
        assert (await harness.run(full, "oauthy", "get_thing", thing_id="t1")).status_code == 200
        before = len(provider.api_requests())
        r = await harness.run(full, "oauthy", "archive_thing", thing_id="t1")
        assert r.status_code == 403
        body = r.json()
        assert body["error"] == "insufficient_scope"
        assert body["scopes"] == ["admin"]
        assert body["scope_set"] == "admin"
        assert "needs admin" in body["message"]
        assert body["action_url"].endswith("/connect/oauthy?add=admin")
        dry = await harness.client.post(
            "/v1/oauthy/archive_thing",
            json={"params": {"thing_id": "t1"}, "dry_run": True},
            headers=bearer(full),
        )
        assert dry.json()["error"] == "insufficient_scope"
        assert len(provider.api_requests()) == before  # nothing was sent

        action = urlsplit(body["action_url"])
        asked = await _authorize(harness, provider, f"{action.path}?{action.query}")
        assert asked["scope"] == "read write admin"  # what it had, and the set
    finally:
        harness.client.cookies.clear()
    r = await harness.run(full, "oauthy", "archive_thing", thing_id="t1")
    assert r.status_code == 200, r.text
    assert provider.api_requests()[-1].path.endswith("/things/t1/archive")
    assert (await harness.run(full, "oauthy", "get_thing", thing_id="t1")).status_code == 200


async def test_an_unknown_scope_set_is_a_400_naming_it(harness: Harness) -> None:
    user = await harness.user()
    await _browser(harness, user.id)
    try:
        r = await harness.client.get("/connect/oauthy?add=root")
    finally:
        harness.client.cookies.clear()
    assert r.status_code == 400
    assert "add: 'root' is not a scope set of this integration (admin)" in r.text
