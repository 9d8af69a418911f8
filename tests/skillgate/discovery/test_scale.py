"""Discovery that stays small for an agent: `?category=`, and a SKILL.md that lists
categories and how to search instead of a thousand rows (the pulled bundle still
has every endpoint's file)."""

from __future__ import annotations

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.bundle import COMMON, LARGE, bundle, skill_md
from skillgate.discovery.documents import visible_endpoints
from tests import skill_format
from tests.conftest import Harness, bearer


async def test_category_filter_keeps_the_shape_and_the_status(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills/sample?category=users", headers=bearer(full))
    assert r.status_code == 200
    assert r.json() == {
        "integration": "sample",
        "name": "Sample",
        "description": "A sample integration used by the test suite.",
        "categories": [
            {
                "name": "users",
                "endpoints": [
                    {
                        "name": "get_user",
                        "method": "GET",
                        "description": "Get a user's public profile.",
                    }
                ],
            }
        ],
        "status": "not_connected",
    }


async def test_category_filter_follows_a_read_only_key(harness: Harness) -> None:
    await harness.user()
    read, _ = await harness.key(scopes=["sample:read"])
    r = await harness.client.get("/v1/skills/sample?category=issues", headers=bearer(read))
    assert r.status_code == 200
    names = [e["name"] for c in r.json()["categories"] for e in c["endpoints"]]
    assert names == ["list_issues"]  # create_issue changes data


async def test_unknown_or_bad_category_is_a_clear_4xx(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills/sample?category=isues", headers=bearer(full))
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    assert "Unknown category 'isues' for 'sample'; did you mean 'issues'?" in r.json()["message"]
    r = await harness.client.get("/v1/skills/sample?category=a%01b", headers=bearer(full))
    assert r.status_code == 400
    assert r.json()["message"].startswith("category")
    r = await harness.client.get("/v1/skills/sample?category=" + "x" * 65, headers=bearer(full))
    assert r.status_code == 400


def test_a_large_integration_skill_md_lists_categories_and_how_to_search() -> None:
    github = load_catalog().get("github")
    assert github is not None
    endpoints = visible_endpoints(github, read_only=False)
    assert len(endpoints) > LARGE
    text = skill_md(github, endpoints)
    assert skill_format.problems(text, "svc-github") == []
    assert 'svc skills --search "what you want to do" --integration github' in text
    assert "svc skills github --category <category>" in text
    for category in {e.category for e in endpoints}:
        count = sum(1 for e in endpoints if e.category == category)
        assert f"| {category} | {count} | " in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "endpoints/" in line]
    assert len(rows) == COMMON  # the common endpoints, not every one
    assert "`create_issue`" in text  # curated endpoints come first
    assert len(text) < 40_000
    files = bundle(github, endpoints)["files"]
    assert len(files) == len(endpoints) + 1  # svc pull still writes every endpoint's file


def test_a_small_integration_keeps_every_row() -> None:
    slack = load_catalog().get("slack")
    assert slack is not None
    endpoints = visible_endpoints(slack, read_only=False)
    assert len(endpoints) <= LARGE
    text = skill_md(slack, endpoints)
    assert "## Endpoints" in text
    assert "## Finding an endpoint" not in text
    for e in endpoints:
        assert f"`{e.name}`" in text
