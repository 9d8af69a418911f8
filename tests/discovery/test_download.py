"""GET /v1/:integration/download: SKILL.md plus one file per endpoint."""

from __future__ import annotations

import yaml

from skillgate.discovery.bundle import catalog_version
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
        "endpoints/users/get_user.md",
    ]
    assert all(set(f) == {"file_path", "content"} for f in body["files"])
    skill = body["files"][0]["content"]
    assert skill.startswith("---\n")
    front = yaml.safe_load(skill.split("---\n")[1])
    integration = harness.state.catalog.get("sample")
    assert front["name"] == "svc-sample"
    assert front["version"] == catalog_version(integration)
    assert "A sample integration used by the test suite." in front["description"]
    assert "| issues | `create_issue` | POST |" in skill
    assert "svc run sample <endpoint>" in skill
    assert "The stored key was revoked." in skill  # common errors


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
