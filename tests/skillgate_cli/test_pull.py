"""`svc pull` against the real gateway; hostile bundles against a fake one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillgate_cli import typecache
from tests import skill_format
from tests.skillgate_cli.conftest import Gateway, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply


def pull(gateway: Gateway, cwd: Path, slug: str = "github", **extra: str) -> dict[str, object]:
    r = svc("pull", slug, cwd=cwd, base_url=gateway.url, key=gateway.key, **extra)
    assert r.returncode == 0, r.stderr
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_pull_writes_exactly_the_bundle(gateway: Gateway, tmp_path: Path) -> None:
    bundle = gateway.get("/v1/github/download")
    data = pull(gateway, tmp_path)
    assert data == {
        "slug": "github",
        "files": len(bundle["files"]),
        "path": ".agents/skills/svc-github",
    }
    target = tmp_path / ".agents/skills/svc-github"
    for f in bundle["files"]:
        assert (target / f["file_path"]).read_text() == f["content"]
    written = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()}
    assert written == {f["file_path"] for f in bundle["files"]} | {".svc-types.json"}


@pytest.mark.parametrize(
    ("marker", "where"),
    [
        (".claude", ".claude/skills/svc-slack"),
        (".cursor", ".cursor/skills/svc-slack"),
        (".windsurf", ".windsurf/skills/svc-slack"),
        (".codex", ".agents/skills/svc-slack"),
        (".gemini", ".agents/skills/svc-slack"),
    ],
)
def test_pull_goes_where_the_platform_looks(
    gateway: Gateway, tmp_path: Path, marker: str, where: str
) -> None:
    (tmp_path / marker).mkdir()
    assert pull(gateway, tmp_path, "slack")["path"] == where
    assert (tmp_path / where / "SKILL.md").read_text().startswith("---\nname: svc-slack\n")


def test_pull_folder_is_the_skill_name(gateway: Gateway, tmp_path: Path) -> None:
    """`google_calendar` lands in `svc-google-calendar/`, its SKILL.md's `name`."""
    data = pull(gateway, tmp_path, "google_calendar")
    assert data["path"] == ".agents/skills/svc-google-calendar"
    text = (tmp_path / data["path"] / "SKILL.md").read_text()  # type: ignore[operator]
    assert skill_format.problems(text, "svc-google-calendar") == []
    # `svc run google_calendar ...` reads its declared types from that folder.
    listing = gateway.get("/v1/skills/google_calendar")
    endpoint = listing["categories"][0]["endpoints"][0]["name"]
    doc = gateway.get(f"/v1/skills/google_calendar/{endpoint}")
    types = typecache.load(tmp_path / ".agents/skills", "google_calendar", endpoint)
    assert types == {p["name"]: (p["type"], p.get("items")) for p in doc["parameters"]}


def test_pull_follows_svc_platform_from_dotenv(gateway: Gateway, tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".env").write_text("SVC_PLATFORM=windsurf\n")
    assert pull(gateway, tmp_path, "slack")["path"] == ".windsurf/skills/svc-slack"


def test_pull_types_cache_matches_the_endpoint_docs(gateway: Gateway, tmp_path: Path) -> None:
    """For every integration: the cache `run` reads holds each endpoint's declared
    (type, items) exactly as GET /v1/skills/:integration/:endpoint documents it."""
    for item in gateway.get("/v1/skills")["integrations"]:
        slug = item["slug"]
        pull(gateway, tmp_path, slug)
        folder = tmp_path / ".agents/skills" / ("svc-" + slug.replace("_", "-"))
        cache = json.loads((folder / ".svc-types.json").read_text())
        assert (
            cache["version"]
            == skill_format.front_matter((folder / "SKILL.md").read_text())["metadata"]["version"]
        )
        assert cache["version"]
        listing = gateway.get(f"/v1/skills/{slug}")
        names = [e["name"] for c in listing["categories"] for e in c["endpoints"]]
        assert sorted(cache["endpoints"]) == sorted(names)
        for name in names:
            doc = gateway.get(f"/v1/skills/{slug}/{name}")
            declared = {p["name"]: [p["type"], p.get("items")] for p in doc["parameters"]}
            assert cache["endpoints"][name] == declared, (slug, name)


def test_pull_again_replaces_stale_files(gateway: Gateway, tmp_path: Path) -> None:
    pull(gateway, tmp_path)
    target = tmp_path / ".agents/skills/svc-github"
    stale = target / "endpoints/old/removed.md"
    stale.parent.mkdir(parents=True)
    stale.write_text("gone")
    pull(gateway, tmp_path)
    assert not stale.exists()
    assert (target / "SKILL.md").exists()
    assert [p.name for p in target.parent.iterdir()] == ["svc-github"]  # no leftovers


def test_pull_unknown_integration_exit_1(gateway: Gateway, tmp_path: Path) -> None:
    r = svc("pull", "nope", cwd=tmp_path, base_url=gateway.url, key=gateway.key)
    assert "nope" in only_error(r, 1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "bad",
    ["/etc/passwd", "../outside.md", "endpoints/../../x.md", "a/./b.md", "a\\b.md", "", "C:x"],
)
def test_pull_refuses_unsafe_paths(fake: FakeGateway, tmp_path: Path, bad: str) -> None:
    files = [{"file_path": "SKILL.md", "content": "ok"}, {"file_path": bad, "content": "evil"}]
    fake.on("GET", "/v1/sample/download", Reply(200, {"slug": "sample", "files": files}))
    r = svc("pull", "sample", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert "unsafe file path" in only_error(r, 2)
    assert list(tmp_path.iterdir()) == []  # nothing written, not even SKILL.md
    assert not (tmp_path.parent / "outside.md").exists()


def test_pull_refuses_an_unsafe_slug(fake: FakeGateway, tmp_path: Path) -> None:
    files = [{"file_path": "SKILL.md", "content": "ok"}]
    fake.on("GET", "/v1/sample/download", Reply(200, {"slug": "../x", "files": files}))
    r = svc("pull", "sample", cwd=tmp_path, base_url=fake.url, key="sk_x")
    assert "unsafe integration slug" in only_error(r, 2)
    assert list(tmp_path.iterdir()) == []
