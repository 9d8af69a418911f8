"""Every form a source accepts for a field is accepted and sent as it is (issue 25.1):
a union (`oneOf`/`anyOf`, a type list) takes each of its types, and a nullable body
field takes `null`, sent as JSON null (GitHub's `milestone: null` clears it). Checked
on the wire against a loopback upstream, with the shipped GitHub and Stripe files."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from skillgate.catalog.loader import SHIPPED_DIR, Catalog, load_catalog
from skillgate.doors.mcp.schemas import endpoint_tool
from skillgate_cli.params import parse_args
from tests.conftest import Harness, open_harness
from tests.upstream import Provider


@pytest.fixture(scope="module")
def two() -> Catalog:
    files = [SHIPPED_DIR / f"{slug}.yaml" for slug in ("github", "stripe")]
    return load_catalog(files, shipped=False)


@pytest.fixture
async def gateway(
    database_url: str,
    tmp_path: Path,
    two: Catalog,
    provider: Provider,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[Harness, str]]:
    monkeypatch.setenv("SKILLGATE_GITHUB_BASE_URL", provider.url)
    monkeypatch.setenv("SKILLGATE_STRIPE_BASE_URL", provider.url)
    async with open_harness(database_url, tmp_path, two) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        await harness.connect_token(full, "github")
        await harness.connect_token(full, "stripe")
        provider.clear()
        yield harness, full


async def _sent_json(
    harness: Harness, provider: Provider, full: str, slug: str, name: str, **params: object
) -> dict[str, object]:
    provider.clear()
    r = await harness.run(full, slug, name, **params)
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    body = json.loads(sent.body)
    assert isinstance(body, dict)
    return body


async def test_github_unions_take_each_documented_form(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    issue = {"owner": "octo", "repo": "web", "issue_number": 7}
    body = await _sent_json(harness, provider, full, "github", "update_issue", **issue, type="Epic")
    assert body == {"type": "Epic"}  # a string or an object: the name as it is
    body = await _sent_json(
        harness, provider, full, "github", "update_issue", **issue, type={"name": "Epic"}
    )
    assert body == {"type": {"name": "Epic"}}
    body = await _sent_json(harness, provider, full, "github", "update_issue", **issue, milestone=3)
    assert body == {"milestone": 3}
    files = {"a.txt": {"content": "hi"}}
    for public in (True, "true"):
        body = await _sent_json(
            harness, provider, full, "github", "gists_create", files=files, public=public
        )
        assert body == {"files": files, "public": public}


async def test_null_clears_a_nullable_field_and_is_sent(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    issue = {"owner": "octo", "repo": "web", "issue_number": 7}
    body = await _sent_json(
        harness, provider, full, "github", "update_issue", **issue, milestone=None, title="x"
    )
    assert body == {"milestone": None, "title": "x"}
    # A field the source does not let be null: null still means "not given".
    body = await _sent_json(
        harness, provider, full, "github", "update_issue", **issue, state=None, title="x"
    )
    assert body == {"title": "x"}


async def test_stripe_off_session_as_a_boolean(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    provider.clear()
    r = await harness.run(
        full, "stripe", "create_payment_intent", amount=2000, currency="usd", off_session=True
    )
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert dict(parse_qsl(sent.body.decode()))["off_session"] == "true"


async def test_a_form_outside_the_union_is_refused_naming_every_type(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    provider.clear()
    r = await harness.run(
        full, "github", "gists_create", files={"a.txt": {"content": "hi"}}, public=[1]
    )
    assert r.status_code == 400
    assert "public: expected a string or a boolean, got an array" in r.text
    assert provider.api_requests() == []


async def test_the_agent_is_told_every_form_on_http_and_mcp(
    gateway: tuple[Harness, str], two: Catalog
) -> None:
    """The endpoint's documentation and its MCP tool schema say what the executor takes."""
    harness, full = gateway
    r = await harness.client.get(
        "/v1/skills/github/update_issue", headers={"Authorization": f"Bearer {full}"}
    )
    assert r.status_code == 200, r.text
    params = {p["name"]: p for p in r.json()["parameters"]}
    assert params["milestone"]["type"] == "number"
    assert params["milestone"]["also"] == ["string"]
    assert params["milestone"]["nullable"] is True
    assert "also" not in params["owner"]
    assert "nullable" not in params["owner"]
    github = two.integrations["github"]
    update = next(e for e in github.endpoints if e.name == "update_issue")
    schema = endpoint_tool(github, update).input_schema["properties"]
    assert schema["milestone"]["type"] == ["number", "string", "null"]
    assert schema["type"]["type"] == ["object", "string", "null"]
    assert schema["state_reason"]["enum"][-1] is None  # null is one of its values too
    assert schema["owner"]["type"] == "string"


async def test_the_text_null_clears_a_nullable_field_that_takes_no_string(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    """`svc run ... --field null` sends JSON null where the field cannot be a string:
    parsed so by svc when it knows the types, and by the gateway when it does not."""
    harness, full = gateway
    team = {"org": "octo", "team_slug": "web"}
    declared = {"parent_team_id": ("number", None)}
    params, _ = parse_args(["--parent-team-id", "null"], declared)
    assert params == {"parent_team_id": None}
    for value in (None, "null"):  # svc with the types pulled, and without them
        body = await _sent_json(
            harness, provider, full, "github", "teams_update_in_org", **team, parent_team_id=value
        )
        assert body == {"parent_team_id": None}
    # Where a string is one of its types, the text `null` stays text.
    issue = {"owner": "o", "repo": "r", "issue_number": 1}
    body = await _sent_json(harness, provider, full, "github", "update_issue", **issue, type="null")
    assert body == {"type": "null"}
