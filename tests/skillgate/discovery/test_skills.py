"""Discovery against the spec, field for field (whole objects compared)."""

from __future__ import annotations

import urllib.parse

import httpx
import pytest

from skillgate.connections.models import Connection
from skillgate.db.session import commit
from tests.conftest import Harness, bearer

SAMPLE_CATEGORIES = [
    {
        "name": "issues",
        "endpoints": [
            {
                "name": "list_issues",
                "method": "GET",
                "description": "List the issues of a repository, newest first.",
            },
            {
                "name": "create_issue",
                "method": "POST",
                "description": "Open a new issue in a repository.",
            },
            {
                "name": "delete_issue",
                "method": "DELETE",
                "description": "Delete an issue for good (destructive, derived from the method).",
                "destructive": True,  # only on destructive rows
            },
        ],
    },
    {
        "name": "users",
        "endpoints": [
            {"name": "get_user", "method": "GET", "description": "Get a user's public profile."}
        ],
    },
]


async def _connect(harness: Harness, user_id: str, slug: str) -> None:
    async with harness.sessionmaker() as s:
        s.add(Connection(user_id=user_id, integration=slug, auth_type="token", credentials=b"x"))
        await commit(s)
    harness.statuses.forget(user_id)


async def test_list_integrations(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills", headers=bearer(full))
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {
        "integrations": [
            {
                "slug": "oauthy",
                "name": "OAuthy",
                "status": "not_connected",
                "endpoints": 3,
                "description": "An OAuth integration used by the test suite.",
            },
            {
                "slug": "sample",
                "name": "Sample",
                "status": "not_connected",
                "endpoints": 4,
                "description": "A sample integration used by the test suite.",
            },
        ]
    }


async def test_status_follows_the_users_connection(harness: Harness) -> None:
    user = await harness.user()
    full, _ = await harness.key()
    await _connect(harness, user.id, "sample")
    listed = (await harness.client.get("/v1/skills", headers=bearer(full))).json()
    status = {i["slug"]: i["status"] for i in listed["integrations"]}
    assert status == {"oauthy": "not_connected", "sample": "connected"}
    detail = (await harness.client.get("/v1/skills/sample", headers=bearer(full))).json()
    assert detail["status"] == "connected"
    for path, status in (
        ("/v1/skills/sample/get_user", "connected"),
        ("/v1/skills/oauthy/search", "not_connected"),
    ):
        doc = (await harness.client.get(path, headers=bearer(full))).json()
        assert doc["status"] == status, path
        assert doc["name"] == path.rsplit("/", 1)[1]
    # Another user sees their own (absent) connection.
    await harness.user("bo@example.com")
    other, _ = await harness.key("bo@example.com")
    theirs = (await harness.client.get("/v1/skills", headers=bearer(other))).json()
    assert {i["status"] for i in theirs["integrations"]} == {"not_connected"}


async def test_integration_endpoints_grouped_by_category(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills/sample", headers=bearer(full))
    assert r.status_code == 200
    assert r.json() == {
        "integration": "sample",
        "name": "Sample",
        "description": "A sample integration used by the test suite.",
        "status": "not_connected",
        "categories": SAMPLE_CATEGORIES,
    }


async def test_endpoint_documentation(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills/sample/list_issues", headers=bearer(full))
    assert r.status_code == 200
    assert r.json() == {
        "name": "list_issues",
        "method": "GET",
        "category": "issues",
        "description": "List the issues of a repository, newest first.",
        "parameters": [
            {
                "name": "owner",
                "type": "string",
                "required": True,
                "description": "Account that owns the repository.",
                "in": "path",
            },
            {
                "name": "repo",
                "type": "string",
                "required": True,
                "description": "Repository name.",
                "in": "path",
            },
            {
                "name": "state",
                "type": "string",
                "required": False,
                "description": "Filter by state.",
                "in": "query",
                "enum": ["open", "closed", "all"],
                "default": "open",
            },
            {
                "name": "labels",
                "type": "array",
                "required": False,
                "description": "Only issues with all these labels.",
                "in": "query",
                "items": "string",
            },
            {
                "name": "per_page",
                "type": "number",
                "required": False,
                "description": "Results per page (max 100).",
                "in": "query",
            },
            {
                "name": "page",
                "type": "number",
                "required": False,
                "description": "Page number of the results (from 1).",
                "in": "query",
            },
        ],
        "example": "svc run sample list_issues --owner octocat --repo hello-world",
        "errors": [
            {"code": 404, "cause": "The repository does not exist.", "fix": "Check owner and repo."}
        ],
        "integration": "sample",
        "path": "/repos/{owner}/{repo}/issues",
        "changes_data": False,
        "destructive": False,
        "pagination": {"style": "page", "param": "page", "size_param": "per_page", "max_size": 100},
        "status": "not_connected",
    }


async def test_example_includes_optional_params_with_examples(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    doc = (await harness.client.get("/v1/skills/sample/create_issue", headers=bearer(full))).json()
    assert doc["example"] == (
        "svc run sample create_issue --owner octocat --repo hello-world "
        '--title "Found a bug, sadly" --labels "bug,ui"'
    )


async def test_unknown_names_are_404_with_closest_match(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await harness.client.get("/v1/skills/sampel", headers=bearer(full))
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    assert "did you mean 'sample'" in r.json()["message"]
    r = await harness.client.get("/v1/skills/sample/create_isue", headers=bearer(full))
    assert r.status_code == 404
    assert "did you mean 'create_issue'" in r.json()["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/skills/..",
        "/v1/skills/..%2Fme",
        "/v1/skills/sample/%2E%2E",
        "/v1/skills/sample%5Ccreate_issue",
        "/v1/skills/sample/../../api-keys",
        "/v1/skills/sample%2Fcreate_issue",
        "/v1/skills/sample/create_issue%2F..",
        "/v1/skills/%2e%2e",
        "/v1/skills/" + "a" * 1000,
        "/v1/skills/sample/" + "b" * 1000,
        "/v1/skills/s\u0430mple",  # Cyrillic a
        "/v1/skills/sample/create_\u0456ssue",  # Ukrainian i
        "/v1/skills/SAMPLE",
        "/v1/skills/sample%00",
        "/v1/%2e%2e/download",
        "/v1/" + "c" * 1000 + "/download",
    ],
)
async def test_hostile_names_are_404_never_500(harness: Harness, path: str) -> None:
    await harness.user()
    full, _ = await harness.key()
    # A raw path: httpx would otherwise resolve `..` before sending.
    raw = urllib.parse.quote(path, safe="/%").encode("ascii")
    url = httpx.URL("http://testserver").copy_with(raw_path=raw)
    r = await harness.client.get(url, headers=bearer(full))
    assert r.status_code == 404, (path, r.text)
    assert r.json()["error"] == "not_found"
    assert len(r.text) < 600


async def test_scopes_filter_what_a_key_sees(harness: Harness, test_catalog: object) -> None:
    await harness.user(plan="pro")
    token = await harness.token()
    # A key scoped to nothing visible: an integration slug that exists but is not sample.
    r = await harness.client.post(
        "/api-keys", json={"name": "ro", "scopes": ["sample:read"]}, headers=bearer(token)
    )
    ro = r.json()["full_key"]
    listed = (await harness.client.get("/v1/skills", headers=bearer(ro))).json()
    assert [(i["slug"], i["endpoints"]) for i in listed["integrations"]] == [("sample", 2)]
    detail = (await harness.client.get("/v1/skills/sample", headers=bearer(ro))).json()
    names = [e["name"] for c in detail["categories"] for e in c["endpoints"]]
    assert names == ["list_issues", "get_user"]
    r = await harness.client.get("/v1/skills/sample/create_issue", headers=bearer(ro))
    assert r.status_code == 403
    assert r.json()["error"] == "scope_not_allowed"
    bundle = (await harness.client.get("/v1/sample/download", headers=bearer(ro))).json()
    assert "endpoints/issues/create_issue.md" not in {f["file_path"] for f in bundle["files"]}


async def test_out_of_scope_integration_is_403(harness: Harness) -> None:
    harness.rendered.by_slug  # the fixture catalog has only `sample`
    await harness.user(plan="pro")
    full, key = await harness.key()
    # Narrow the cached identity to another slug, as a key scoped to `github` would be.
    from sqlalchemy import update

    from skillgate.api_keys.models import ApiKey

    async with harness.sessionmaker() as s, s.begin():
        await s.execute(update(ApiKey).where(ApiKey.id == key["id"]).values(scopes=["github"]))
    harness.verifier.forget_key(key["id"])
    assert (await harness.client.get("/v1/skills", headers=bearer(full))).json() == {
        "integrations": []
    }
    for path in ("/v1/skills/sample", "/v1/skills/sample/list_issues", "/v1/sample/download"):
        r = await harness.client.get(path, headers=bearer(full))
        assert r.status_code == 403, path
        assert r.json()["error"] == "scope_not_allowed"


async def test_discovery_needs_an_api_key(harness: Harness) -> None:
    for path in (
        "/v1/skills",
        "/v1/skills/sample",
        "/v1/skills/sample/list_issues",
        "/v1/sample/download",
    ):
        r = await harness.client.get(path)
        assert r.status_code == 401
        assert r.json()["error"] == "unauthorized"
