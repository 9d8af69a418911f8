"""A key's policy on the dashboard: edited as YAML by its signed-in owner (CSRF on every
form), an error shown in the editor naming the field, another user's key 404, and the
saved policy in force on the next call of the key."""

from __future__ import annotations

import pytest

from tests.conftest import Harness, bearer
from tests.skillgate.dashboard.conftest import Web
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")
POLICY = """\
rules:
  - name: no deletes
    match: {class: destructive}
    action: deny
"""


async def _key(harness: Harness, web: Web) -> tuple[str, str]:
    await harness.user("ada@example.com", plan="pro")
    assert (await web.login("ada@example.com")).status_code == 303
    full, key = await harness.key("ada@example.com")
    await harness.connect_token(full)
    return full, key["id"]


async def test_the_owner_saves_a_yaml_policy_that_the_next_call_meets(
    harness: Harness, web: Web, provider: Provider
) -> None:
    full, key_id = await _key(harness, web)
    page = await web.get(f"/keys/{key_id}/policy")
    assert page.status_code == 200
    assert "Add policy" in (await web.get("/keys")).text
    # Without the CSRF token: refused, nothing saved.
    r = await web.post(f"/keys/{key_id}/policy", {"policy": POLICY}, csrf_from=None)
    assert r.status_code == 403
    r = await web.post(f"/keys/{key_id}/policy", {"policy": POLICY}, csrf_from="/keys")
    assert r.status_code == 303, r.text
    assert r.headers["location"] == "/keys?notice=key_policy"
    assert "Edit policy" in (await web.get("/keys")).text
    assert "name: no deletes" in (await web.get(f"/keys/{key_id}/policy")).text
    provider.clear()
    denied = await harness.run(full, "sample", "delete_issue", owner="o", repo="r", number=7)
    assert denied.status_code == 403
    assert denied.json()["rule"] == {"index": 1, "name": "no deletes"}
    assert provider.api_requests() == []
    # The API reads what the dashboard saved.
    token = await harness.token("ada@example.com")
    api = await harness.client.get(f"/api-keys/{key_id}/policy", headers=bearer(token))
    assert api.json()["policy"] == {
        "rules": [{"name": "no deletes", "match": {"class": "destructive"}, "action": "deny"}]
    }
    # Removed: the call goes again.
    r = await web.post(f"/keys/{key_id}/policy/remove", {}, csrf_from="/keys")
    assert r.status_code == 303
    provider.reply("DELETE", "/repos/o/r/issues/7", Reply(204))
    ok = await harness.run(full, "sample", "delete_issue", owner="o", repo="r", number=7)
    assert ok.status_code == 409  # back to the key's confirmation, as without a policy
    assert ok.json()["error"] == "confirmation_required"


async def test_a_bad_policy_is_shown_again_with_the_field_named(harness: Harness, web: Web) -> None:
    _, key_id = await _key(harness, web)
    bad = "rules:\n  - match: {integration: sampel}\n    action: deny\n"
    r = await web.post(f"/keys/{key_id}/policy", {"policy": bad}, csrf_from="/keys")
    assert r.status_code == 400
    assert "Policy.rules[1].match.integration: no integration &#39;sampel&#39;." in r.text
    assert "integration: sampel" in r.text  # the text kept in the editor
    r = await web.post(f"/keys/{key_id}/policy", {"policy": "rules: [\n"}, csrf_from="/keys")
    assert r.status_code == 400
    assert "Policy: not YAML or JSON" in r.text
    token = await harness.token("ada@example.com")
    api = await harness.client.get(f"/api-keys/{key_id}/policy", headers=bearer(token))
    assert api.json()["policy"] is None


async def test_another_users_key_is_not_found(harness: Harness, web: Web, other_web: Web) -> None:
    _, key_id = await _key(harness, web)
    await harness.user("eve@example.com", plan="pro")
    assert (await other_web.login("eve@example.com")).status_code == 303
    assert (await other_web.get(f"/keys/{key_id}/policy")).status_code == 404
    r = await other_web.post(f"/keys/{key_id}/policy", {"policy": "rules: []"})
    assert r.status_code == 404
    r = await other_web.post(f"/keys/{key_id}/policy/remove", {})
    assert r.status_code == 404
