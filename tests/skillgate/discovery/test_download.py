"""GET /v1/:integration/download: SKILL.md plus one file per endpoint."""

from __future__ import annotations

import yaml

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.bundle import catalog_version, skill_description, skill_md
from skillgate.discovery.documents import visible_endpoints
from skillgate_cli.platforms import docs_folder
from tests import skill_format
from tests.conftest import Harness, bearer


async def test_bundle_files_and_skill_md(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/sample/download", headers=bearer(full))
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"slug", "files"}
    assert body["slug"] == "sample"
    paths = [f["file_path"] for f in body["files"]]
    assert paths == [
        "SKILL.md",
        "endpoints/issues/list_issues.md",
        "endpoints/issues/create_issue.md",
        "endpoints/issues/delete_issue.md",
        "endpoints/users/get_user.md",
    ]
    assert all(set(f) == {"file_path", "content"} for f in body["files"])
    skill = body["files"][0]["content"]
    assert skill.startswith("---\n")
    front = yaml.safe_load(skill.split("---\n")[1])
    integration = harness.catalog.get("sample")
    assert front["name"] == "svc-sample"
    assert front["metadata"]["version"] == catalog_version(integration)
    assert front["metadata"]["integration"] == "sample"
    assert skill_format.problems(skill, "svc-sample") == []
    assert "A sample integration used by the test suite." in front["description"]
    assert "| issues | `create_issue` | POST |" in skill
    assert "svc run sample <endpoint>" in skill
    assert "The stored key was revoked." in skill  # common errors
    # When to preview, confirm, page and select fields; destructive endpoints named.
    assert "| issues | `delete_issue` | DELETE |" in skill
    assert "**Destructive.**" in skill.split("| `delete_issue` |")[1].split("\n")[0]
    assert "**Destructive.**" not in skill.split("`create_issue` |")[1].split("\n")[0]
    safe = skill.split("## Safe and economical calls")[1].split("\n## ")[0]
    for option in ("--dry-run", "--confirm", "--all", "--fields", "--retry"):
        assert option in safe
    assert "`delete_issue`" in safe


async def test_endpoint_file_holds_the_whole_documentation(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    body = (await harness.client.get("/v1/sample/download", headers=bearer(full))).json()
    doc = (await harness.client.get("/v1/skills/sample/list_issues", headers=bearer(full))).json()
    md = next(f["content"] for f in body["files"] if f["file_path"].endswith("list_issues.md"))
    assert doc["description"] in md
    assert doc["example"] in md
    assert "`GET`" in md
    assert "category `issues`" in md
    for p in doc["parameters"]:
        assert f"`{p['name']}`" in md
        assert p["description"] in md
    assert 'One of: `open`, `closed`, `all`. Default: `"open"`.' in md
    for e in doc["errors"]:
        assert f"| {e['code']} | {e['cause']} | {e['fix']} |" in md
    assert "pass `--page` for the next page" in md


def test_every_shipped_skill_md_is_a_valid_agent_skill() -> None:
    """name = the folder `svc pull` writes (`svc-google-calendar`), description <= 1,024,
    the version under `metadata`, for every shipped integration and access."""
    catalog = load_catalog()
    assert "google_calendar" in catalog.integrations
    for slug, integration in catalog.integrations.items():
        for read_only in (False, True):
            text = skill_md(integration, visible_endpoints(integration, read_only=read_only))
            assert skill_format.problems(text, docs_folder(slug)) == [], slug
            front = skill_format.front_matter(text)
            assert front["metadata"]["version"] == catalog_version(integration)
    front = skill_format.front_matter(
        skill_md(catalog.get("google_calendar"), [])  # type: ignore[arg-type]
    )
    assert front["name"] == "svc-google-calendar"
    assert front["metadata"]["integration"] == "google_calendar"


def test_a_long_description_is_cut_to_1024() -> None:
    integration = load_catalog().get("github")
    assert integration is not None
    long = integration.model_copy(update={"description": "Words and more words. " * 100})
    description = skill_description(long)
    assert len(description) == 1024
    assert description.endswith("the gateway holds the credentials.")
    assert "…" in description
    assert skill_format.problems(skill_md(long, []), "svc-github") == []


def test_validator_catches_what_the_format_forbids() -> None:
    good = '---\nname: svc-a\ndescription: x\nmetadata:\n  version: "1"\n---\n'
    assert skill_format.problems(good, "svc-a") == []
    bad = {
        "---\nname: svc-a\ndescription: x\n---\n": "folder",
        "---\nname: svc_b\ndescription: x\n---\n": "no leading",
        "---\nname: svc--b\ndescription: x\n---\n": "no leading",
        "---\nname: svc-b\ndescription: x\nversion: 1\n---\n": "unknown top-level",
        "---\nname: svc-b\ndescription: " + "x" * 1025 + "\n---\n": "description",
        "---\nname: svc-b\ndescription: x\nmetadata:\n  v: 1\n---\n": "metadata",
    }
    for text, fragment in bad.items():
        assert any(fragment in p for p in skill_format.problems(text, "svc-b")), text
