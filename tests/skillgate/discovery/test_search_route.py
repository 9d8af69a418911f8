"""GET /v1/skills/search through the real app (the test catalog: `sample` and `oauthy`)."""

from __future__ import annotations

import httpx
import pytest

from skillgate.connections.models import Connection
from skillgate.db.session import commit
from tests.conftest import Harness, bearer

CREATE_ISSUE = {
    "integration": "sample",
    "name": "create_issue",
    "method": "POST",
    "path": "/repos/{owner}/{repo}/issues",
    "category": "issues",
    "description": "Open a new issue in a repository.",
}
DELETE_ISSUE = {
    "integration": "sample",
    "name": "delete_issue",
    "method": "DELETE",
    "path": "/repos/{owner}/{repo}/issues/{number}",
    "category": "issues",
    "description": "Delete an issue for good (destructive, derived from the method).",
}
LIST_ISSUES = {
    "integration": "sample",
    "name": "list_issues",
    "method": "GET",
    "path": "/repos/{owner}/{repo}/issues",
    "category": "issues",
    "description": "List the issues of a repository, newest first.",
}


async def _search(harness: Harness, key: str, **params: str) -> httpx.Response:
    return await harness.client.get("/v1/skills/search", params=params, headers=bearer(key))


async def test_results_best_first_with_the_callers_status(harness: Harness) -> None:
    user = await harness.user()
    full, _ = await harness.key()
    r = await _search(harness, full, q="open a new issue")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert int(r.headers["content-length"]) == len(r.content)
    body = r.json()
    # Each result's `match` (0 to 1) and the answer's `no_match` (issue 26), then the rest.
    matches = [x.pop("match") for x in body["results"]]
    assert all(isinstance(m, float) and 0 <= m <= 1 for m in matches), matches
    assert body.pop("no_match") is False
    assert body == {
        "query": "open a new issue",
        "results": [
            # "open a new ..." creates (idioms.py): a call named for reading comes after
            # one named for changing (discovery/kinds.py).
            {**CREATE_ISSUE, "status": "not_connected"},
            {**DELETE_ISSUE, "status": "not_connected"},
            {**LIST_ISSUES, "status": "not_connected"},
        ],
    }
    async with harness.sessionmaker() as s:
        s.add(
            Connection(user_id=user.id, integration="sample", auth_type="token", credentials=b"x")
        )
        await commit(s)
    harness.statuses.forget(user.id)
    results = (await _search(harness, full, q="open a new issue")).json()["results"]
    assert [x["status"] for x in results] == ["connected", "connected", "connected"]


async def test_the_query_is_echoed_as_sent(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    text = 'Ünïcode "quotes" & <tags> — one thing by its id'
    r = await _search(harness, full, q=text)
    assert r.status_code == 200
    assert r.json()["query"] == text
    assert r.json()["results"][0]["name"] == "get_thing"
    nothing = await _search(harness, full, q="zebra quantum")
    assert nothing.json() == {"query": "zebra quantum", "results": [], "no_match": True}


async def test_integration_filter_and_limit(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    everywhere = (await _search(harness, full, q="get search", limit="50")).json()["results"]
    assert {x["integration"] for x in everywhere} == {"sample", "oauthy"}
    only = (await _search(harness, full, q="get search", integration="oauthy")).json()["results"]
    assert [x["integration"] for x in only] == ["oauthy"] * len(only)
    assert only == [x for x in everywhere if x["integration"] == "oauthy"]
    one = (await _search(harness, full, q="get search", limit="1")).json()["results"]
    assert one == everywhere[:1]


async def test_scopes_and_read_only_keys(harness: Harness) -> None:
    await harness.user(plan="pro")
    ro, _ = await harness.key(scopes=["sample:read"])
    names = [x["name"] for x in (await _search(harness, ro, q="issue")).json()["results"]]
    assert names == ["list_issues"]  # not create_issue: it changes data
    # A `slug:read` key on an integration whose POST endpoint does not change data.
    oauthy_ro, _ = await harness.key(scopes=["oauthy:read"])
    r = await _search(harness, oauthy_ro, q="search things")
    assert [x["name"] for x in r.json()["results"]] == ["search", "get_thing"]
    r = await _search(harness, ro, q="search things")
    # oauthy is out of this key's scopes ("things", a plural, also asks for listings).
    assert [x["name"] for x in r.json()["results"]] == ["list_issues"]
    r = await _search(harness, ro, q="issue", integration="oauthy")
    assert r.status_code == 403
    assert r.json()["error"] == "scope_not_allowed"
    assert "oauthy" in r.json()["message"]


async def test_unknown_integration_is_404_with_the_closest(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await _search(harness, full, q="issue", integration="sampel")
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    assert "did you mean 'sample'" in r.json()["message"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "q: Field required"),
        ({"q": ""}, "q: String should have at least 1 non-blank character"),
        ({"q": "   "}, "q: String should have at least 1 non-blank character"),
        ({"q": "x" * 201}, "q: String should have at most 200 characters"),
        ({"q": "line\nbreak"}, "q: must not contain control characters"),
        ({"q": "nul\x00"}, "q: must not contain control characters"),
        ({"q": "issue", "limit": "0"}, "limit: Input should be greater than or equal to 1"),
        ({"q": "issue", "limit": "51"}, "limit: Input should be less than or equal to 50"),
        ({"q": "issue", "limit": "ten"}, "limit: Input should be a valid integer"),
        ({"q": "issue", "integration": ""}, "integration: String should have at least 1"),
        ({"q": "issue", "integration": "a" * 41}, "integration: String should have at most 40"),
    ],
)
async def test_bad_input_is_400_naming_the_field(
    harness: Harness, params: dict[str, str], field: str
) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await _search(harness, full, **params)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert r.json()["message"].startswith(field), r.json()["message"]


async def test_a_query_of_the_maximum_length_is_fine(harness: Harness) -> None:
    await harness.user()
    full, _ = await harness.key()
    r = await _search(harness, full, q=("issue " * 40)[:200])
    assert r.status_code == 200
    assert r.json()["results"][0]["name"] in ("list_issues", "create_issue")


async def test_search_needs_an_api_key(harness: Harness) -> None:
    r = await harness.client.get("/v1/skills/search", params={"q": "issue"})
    assert r.status_code == 401
    assert r.json()["error"] == "unauthorized"


async def test_openapi_describes_the_route(harness: Harness) -> None:
    paths = (await harness.client.get("/openapi.json")).json()["paths"]
    doc = paths["/v1/skills/search"]["get"]
    params = {p["name"]: p for p in doc["parameters"]}
    assert set(params) == {"q", "integration", "limit"}
    assert params["q"]["required"] is True
    assert params["limit"]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 50,
        "default": 10,
    }
    schema = doc["responses"]["200"]["content"]["application/json"]["schema"]
    item = schema["properties"]["results"]["items"]["properties"]
    assert set(item) == {
        "integration",
        "name",
        "method",
        "path",
        "category",
        "description",
        "match",
        "status",
    }
    assert schema["properties"]["no_match"] == {"type": "boolean"}


async def test_repeated_query_strings_answer_as_the_first_time(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The route keeps the checked values of recent query strings: the same string
    gives the same answer, a bad one is refused every time, and the bound holds."""
    import skillgate.doors.agent.discovery as door

    await harness.user(plan="pro")
    full, _ = await harness.key()
    first = await _search(harness, full, q="open a new issue", limit="2")
    assert [x["name"] for x in first.json()["results"]] == ["create_issue", "delete_issue"]
    again = await _search(harness, full, q="open a new issue", limit="2")
    assert again.content == first.content
    one = await _search(harness, full, q="open a new issue", limit="1")
    assert len(one.json()["results"]) == 1
    for _ in range(2):
        bad = await _search(harness, full, q="issue", limit="0")
        assert bad.status_code == 400
        assert bad.json()["message"].startswith("limit:")
    # A scope-limited key asking the same string gets its own answer, not a kept one.
    read_only, _ = await harness.key(scopes=["sample:read"])
    narrow = await _search(harness, read_only, q="open a new issue", limit="2")
    assert [x["name"] for x in narrow.json()["results"]] == ["list_issues"]
    monkeypatch.setattr(door, "MAX_ASKED", 1)
    for text in ("list issues", "delete an issue", "list issues"):
        r = await _search(harness, full, q=text, limit="1")
        assert r.json()["query"] == text
    assert r.json()["results"][0]["name"] == "list_issues"


async def test_the_callers_connected_integration_comes_first(harness: Harness) -> None:
    """Issue 26: a request naming no product puts the caller's connected integrations
    first among near-equal matches ("get": sample's get_user and oauthy's get_thing)."""
    user = await harness.user()
    full, _ = await harness.key()
    before = [x["integration"] for x in (await _search(harness, full, q="get")).json()["results"]]
    assert before == ["sample", "oauthy"]
    async with harness.sessionmaker() as s:
        s.add(
            Connection(user_id=user.id, integration="oauthy", auth_type="token", credentials=b"x")
        )
        await commit(s)
    harness.statuses.forget(user.id)
    after = (await _search(harness, full, q="get")).json()["results"]
    assert [(x["integration"], x["status"]) for x in after] == [
        ("oauthy", "connected"),
        ("sample", "not_connected"),
    ]


async def test_letters_unicode_folds_to_shorthand_are_no_server_error(harness: Harness) -> None:
    """ "pl\u017f" matches the shorthand "pls" case-insensitively ("\u017f" folds to "s") but is no
    key of the table: the request is searched as written, not answered with a 500."""
    await harness.user()
    key, _ = await harness.key()
    r = await _search(harness, key, q="pl\u017f open a new issue")
    assert r.status_code == 200
    assert r.json()["results"][0]["name"] == "create_issue"
