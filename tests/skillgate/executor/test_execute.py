"""POST /v1/:integration/:endpoint against a real loopback upstream."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest

from skillgate.catalog.loader import Catalog
from skillgate.connections import stored
from skillgate.connections.credentials import Credentials
from skillgate.db.session import commit
from skillgate.kit.public import DEFAULT_BASE_URL
from tests.conftest import Harness, bearer, open_harness
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")


async def _ready(harness: Harness, plan: str = "pro", **key: object) -> str:
    await harness.user(plan=plan)
    full, _ = await harness.key(**key)
    await harness.connect_token(full)
    return full


async def test_builds_one_correct_request_and_wraps_the_answer(
    harness: Harness, provider: Provider
) -> None:
    full = await _ready(harness)
    provider.clear()
    r = await harness.client.post(
        "/v1/sample/create_issue",
        json={
            "params": {
                "owner": "octo cat",
                "repo": "hello-world",
                "title": "Bug",
                "labels": ["bug", "ui"],
                "draft": True,
                "weight": 2.5,
                "meta": {"a": 1},
            }
        },
        headers={**bearer(full), "X-Forward-Me": "secret", "Cookie": "session=abc"},
    )
    assert r.status_code == 200
    assert r.headers["x-upstream-status"] == "200"
    assert r.json() == {
        "status": 200,
        "data": {"ok": True, "path": "/repos/octo%20cat/hello-world/issues"},
    }
    [sent] = provider.api_requests()
    assert sent.method == "POST"
    assert sent.path == "/repos/octo%20cat/hello-world/issues"
    assert sent.headers["authorization"] == "Bearer good-token"
    assert sent.headers["accept"] == "application/json"
    assert sent.headers["content-type"] == "application/json"
    assert "x-forward-me" not in sent.headers
    assert "cookie" not in sent.headers
    assert full not in str(sent.headers)
    assert sent.json() == {
        "title": "Bug",
        "labels": ["bug", "ui"],
        "draft": True,
        "weight": 2.5,
        "meta": {"a": 1},
    }


async def test_query_parameters_and_defaults_not_sent(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    provider.clear()
    r = await harness.run(
        full, "sample", "list_issues", owner="o", repo="r", labels=["a", "b c"], per_page="50"
    )
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.query == [("labels", "a"), ("labels", "b c"), ("per_page", "50")]
    assert "state" not in dict(sent.query)  # the catalog default is the upstream's to apply


async def test_graphql_variables_nest_by_maps_to(harness: Harness, provider: Provider) -> None:
    from tests.skillgate.connections.test_refresh import connect_oauth

    await harness.user(plan="pro")
    full, _ = await harness.key()
    await connect_oauth(harness, provider, expired=False)
    provider.clear()
    r = await harness.run(full, "oauthy", "search", name="widget", first=5)
    assert r.json()["status"] == 200
    [sent] = provider.api_requests()
    assert sent.path == "/v2/graphql"
    body = sent.json()
    assert body["query"].startswith("query Search")
    assert body["variables"] == {"filter": {"name": {"eq": "widget"}}, "first": 5}


async def test_upstream_errors_and_non_json_pass_through(
    harness: Harness, provider: Provider
) -> None:
    full = await _ready(harness)
    provider.reply(
        "GET",
        "/users/ghost",
        Reply(404, {"message": "Not Found", "documentation_url": "https://docs.example/users"}),
    )
    r = await harness.run(full, "sample", "get_user", username="ghost")
    assert r.status_code == 200
    assert r.headers["x-upstream-status"] == "404"
    assert r.json() == {
        "status": 404,
        "error": {"message": "Not Found", "documentation_url": "https://docs.example/users"},
    }
    provider.reply("GET", "/users/text", Reply(200, "plain words", {"Set-Cookie": "a=b"}))
    r = await harness.run(full, "sample", "get_user", username="text")
    assert r.json() == {"status": 200, "data": "plain words"}
    assert "set-cookie" not in r.headers
    provider.reply(
        "GET", "/users/boom", Reply(503, "<html>down</html>", {"Content-Type": "text/html"})
    )
    r = await harness.run(full, "sample", "get_user", username="boom")
    # A non-JSON error body is an object carrying the raw text as `message` (DESIGN).
    assert r.json() == {"status": 503, "error": {"message": "<html>down</html>"}}


async def test_an_upstream_401_says_where_to_reconnect(
    harness: Harness, provider: Provider
) -> None:
    """The provider refused the stored token: the envelope carries the dashboard page
    where the user reconnects (issue 23.9); other errors do not."""
    full = await _ready(harness)
    provider.reply("GET", "/users/me", Reply(401, {"message": "Bad credentials"}))
    r = await harness.run(full, "sample", "get_user", username="me")
    assert r.json() == {
        "status": 401,
        "error": {"message": "Bad credentials"},
        "action_url": f"{DEFAULT_BASE_URL}/integrations/sample",  # in-process: the default
    }
    provider.reply("GET", "/users/me", Reply(403, {"message": "Forbidden"}))
    r = await harness.run(full, "sample", "get_user", username="me")
    assert "action_url" not in r.json()


async def test_param_validation(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    provider.clear()
    r = await harness.run(full, "sample", "create_issue", owner="o", repo="r", titel="x")
    assert r.status_code == 400
    msg = r.json()["message"]
    assert "unknown parameter 'titel' (did you mean 'title'?)" in msg
    assert "title: is required" in msg
    r = await harness.run(
        full, "sample", "create_issue", owner="o", repo="r", title="t", weight="heavy"
    )
    assert r.status_code == 400
    assert "weight: expected a number, got a string" in r.json()["message"]
    r = await harness.run(full, "sample", "create_issue", owner="o", repo="r", title="t", draft=[1])
    assert r.status_code == 400
    assert "draft" in r.json()["message"]
    r = await harness.run(full, "sample", "list_issues", owner="o", repo="r", state="sideways")
    assert r.status_code == 400
    assert 'must be one of "open", "closed", "all"' in r.json()["message"]
    assert provider.api_requests() == []
    # What the CLI sends for --title "Hello, world" arrives as one string again.
    r = await harness.run(
        full, "sample", "create_issue", owner="o", repo="r", title=["Hello", " world"], weight="3"
    )
    assert r.json()["status"] == 200
    assert provider.api_requests()[-1].json() == {"title": "Hello, world", "weight": 3}
    for body in (b"not json", b"[1]", b'{"params": [1]}', b'{"parms": {}}'):
        r = await harness.client.post(
            "/v1/sample/get_user",
            content=body,
            headers={**bearer(full), "content-type": "application/json"},
        )
        assert r.status_code == 400, body


async def test_a_boolean_is_never_a_string(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    provider.clear()
    # `svc run sample get_user --username` (a bare flag) sends true.
    r = await harness.run(full, "sample", "get_user", username=True)
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "bad_request"
    assert "username: expected a string, got a boolean" in body["message"]
    assert "give it a value" in body["message"]
    r = await harness.run(full, "sample", "create_issue", owner="o", repo="r", title=False)
    assert r.status_code == 400
    assert "title: expected a string, got a boolean" in r.json()["message"]
    assert provider.api_requests() == []


async def _execute(harness: Harness, full: str, path: str, body: object) -> httpx.Response:
    return await harness.client.post(path, json=body, headers=bearer(full))


async def test_as_typed_delivers_string_text_exactly(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    provider.clear()
    # What the CLI guessed (object, number, boolean) vs what the user typed.
    r = await _execute(
        harness,
        full,
        "/v1/sample/create_issue",
        {
            "params": {"owner": "o", "repo": 7, "title": {"k": 1}, "weight": 1000.0, "draft": True},
            "as_typed": {
                "repo": "007",
                "title": '{"k": 1}',
                "weight": "1e3",  # a number parameter: as_typed ignored, params used
                "draft": "true",  # a boolean: ignored
                "labels": "x",  # not in params: ignored (never adds a parameter)
            },
        },
    )
    assert r.status_code == 200, r.text
    [sent] = provider.api_requests()
    assert sent.path == "/repos/o/007/issues"
    assert sent.json() == {"title": '{"k": 1}', "weight": 1000.0, "draft": True}
    provider.clear()
    r = await _execute(
        harness,
        full,
        "/v1/sample/get_user",
        {"params": {"username": True}, "as_typed": {"username": "true"}},
    )
    assert r.json()["status"] == 200
    assert provider.api_requests()[-1].path == "/users/true"


@pytest.mark.parametrize("as_typed", [[1], "x", {"title": 1}, {"title": None}, {"title": ["a"]}])
async def test_as_typed_must_be_an_object_of_strings(
    harness: Harness, provider: Provider, as_typed: object
) -> None:
    full = await _ready(harness)
    provider.clear()
    r = await _execute(
        harness,
        full,
        "/v1/sample/create_issue",
        {"params": {"owner": "o", "repo": "r", "title": "t"}, "as_typed": as_typed},
    )
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request"
    assert "as_typed" in r.json()["message"]
    assert provider.api_requests() == []


@pytest.mark.parametrize(
    "value",
    [
        "..",
        "../../admin",
        "a/b",
        "%2e%2e",
        "https://evil.test/x",
        "//evil.test",
        "a\\b",
        "a\r\nHost: evil.test",
        ".",
        "",
        "x\x00y",
    ],
)
async def test_path_parameters_cannot_escape(
    harness: Harness, provider: Provider, value: str
) -> None:
    full = await _ready(harness)
    provider.clear()
    r = await harness.run(full, "sample", "get_user", username=value)
    sent = provider.api_requests()
    if r.status_code == 400:
        assert r.json()["error"] == "bad_request"
        assert sent == []
    else:
        assert r.status_code == 200
        [one] = sent
        assert one.path.startswith("/users/")
        segment = one.path[len("/users/") :]
        assert "/" not in segment
        assert unquote(segment) == value
    for rec in sent:
        assert rec.headers["host"] == f"127.0.0.1:{provider.port}"


async def test_redirects_are_not_followed(harness: Harness, provider: Provider) -> None:
    full = await _ready(harness)
    provider.reply(
        "GET", "/users/moved", Reply(302, {"moved": True}, {"Location": "http://evil.test/steal"})
    )
    provider.clear()
    r = await harness.run(full, "sample", "get_user", username="moved")
    assert r.json() == {"status": 302, "data": {"moved": True}}
    assert len(provider.api_requests()) == 1


async def test_a_connection_made_elsewhere_is_found_by_the_retry_at_once(
    harness: Harness, provider: Provider
) -> None:
    """A call refused as not connected, then the connection stored by another instance
    or the operator command (no forget on this one): the retry right after runs, within
    the credential cache's TTL (no connection is not cached)."""
    user = await harness.user(email="elsewhere@example.com", plan="pro")
    full, _ = await harness.key("elsewhere@example.com")
    provider.reply("GET", "/users/octo", Reply(200, {"login": "octo"}))
    refused = await harness.run(full, "sample", "get_user", username="octo")
    assert refused.status_code == 403
    assert refused.json()["error"] == "integration_not_connected"
    async with harness.sessionmaker() as session:
        creds = Credentials(access_token="good-token")
        await stored.store(session, harness.vault, user.id, "sample", "token", creds)
        await commit(session)
    r = await harness.run(full, "sample", "get_user", username="octo")
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {"login": "octo"}


@pytest.mark.own_app  # settings of its own: the sample integration's host is down
async def test_upstream_down_is_502(
    database_url: str, tmp_path: Path, test_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLGATE_SAMPLE_BASE_URL", "http://127.0.0.1:9")  # nothing listens
    async with open_harness(database_url, tmp_path, test_catalog) as harness:
        user = await harness.user(plan="pro")
        full, _ = await harness.key()
        async with harness.sessionmaker() as session:  # stored as it is: no token check
            creds = Credentials(access_token="good-token")
            await stored.store(session, harness.vault, user.id, "sample", "token", creds)
            await commit(session)

        r = await harness.run(full, "sample", "get_user", username="x")
    assert r.status_code == 502
    assert r.json()["error"] == "upstream_unavailable"


@pytest.mark.own_app  # closes or reconfigures the app's services, or counts from zero
async def test_upstream_stall_is_504_within_the_timeout(
    database_url: str, tmp_path: Path, test_catalog: Catalog, provider: Provider
) -> None:
    async with open_harness(
        database_url, tmp_path, test_catalog, upstream_total_timeout=0.5
    ) as harness:
        full = await _ready(harness)
        provider.reply("GET", "/users/slow", Reply(200, {"late": True}, delay=3))
        started = time.monotonic()
        r = await harness.run(full, "sample", "get_user", username="slow")
        assert r.status_code == 504
        assert r.json()["error"] == "upstream_timeout"
        assert time.monotonic() - started < 2


@pytest.mark.parametrize("declared", [None, 50 * 1024 * 1024])
async def test_huge_upstream_body_is_502_and_memory_stays_flat(
    harness: Harness, provider: Provider, declared: int | None
) -> None:
    full = await _ready(harness)
    provider.reply(
        "GET",
        "/users/huge",
        Reply(
            200,
            stream_bytes=50 * 1024 * 1024,
            declared_length=declared,
            headers={"Content-Type": "application/json"},
        ),
    )
    tracemalloc.start()
    r = await harness.run(full, "sample", "get_user", username="huge")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert r.status_code == 502
    assert r.json()["error"] == "upstream_response_too_large"
    assert peak < 30 * 1024 * 1024  # the 10 MB cap, never the 50 MB body


async def test_not_connected_scope_and_read_only(harness: Harness, provider: Provider) -> None:
    await harness.user(plan="pro")
    full, _ = await harness.key()
    r = await harness.run(full, "sample", "get_user", username="x")
    assert r.status_code == 403
    body = r.json()
    assert body["error"] == "integration_not_connected"
    assert body["action_url"].endswith("/integrations/sample")
    await harness.connect_token(full)
    other, _ = await harness.key(scopes=["oauthy"])
    r = await harness.run(other, "sample", "get_user", username="x")
    assert r.status_code == 403
    assert r.json()["error"] == "scope_not_allowed"
    ro, _ = await harness.key(scopes=["sample:read"])
    r = await harness.run(ro, "sample", "create_issue", owner="o", repo="r", title="t")
    assert r.status_code == 403
    assert r.json()["error"] == "scope_not_allowed"
    r = await harness.run(ro, "sample", "get_user", username="x")
    assert r.status_code == 200
    assert r.json()["status"] == 200
    r = await harness.run(full, "sample", "no_such_thing")
    assert r.status_code == 404


async def test_upstream_rate_limits_carry_retry_after(harness: Harness, provider: Provider) -> None:
    import time

    full = await _ready(harness)
    provider.reply(
        "GET", "/users/limited", Reply(429, {"message": "slow down"}, {"Retry-After": "17"})
    )
    r = await harness.run(full, "sample", "get_user", username="limited")
    assert r.json() == {"status": 429, "error": {"message": "slow down"}, "retry_after": 17}
    reset = int(time.time()) + 40
    provider.reply(
        "GET",
        "/users/gh",
        Reply(
            403,
            {"message": "API rate limit exceeded"},
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
        ),
    )
    r = await harness.run(full, "sample", "get_user", username="gh")
    body = r.json()
    assert body["status"] == 403
    assert 35 <= body["retry_after"] <= 41
