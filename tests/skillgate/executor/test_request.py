"""Building the upstream request (executor.request.build) from the fixture catalog:
plain unit tests, no app and no network."""

from __future__ import annotations

import json

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Credential, Endpoint
from skillgate.errors import BadRequest
from skillgate.executor.request import USER_AGENT, build

BASE = "https://api.sample.test"
AUTH: Credential = ("header", "Authorization", "Bearer t0k")


@pytest.fixture
def endpoints(test_catalog: Catalog) -> dict[str, Endpoint]:
    return {e.name: e for e in test_catalog.get("sample").endpoints}


def test_path_query_headers_and_no_body_for_a_get(endpoints: dict[str, Endpoint]) -> None:
    values = {"owner": "octo cat", "repo": "hello", "state": "all", "labels": ["bug", "a b"]}
    req = build(endpoints["list_issues"], BASE, values, {"Accept": "x/y"}, AUTH)
    assert req.method == "GET"
    assert req.url == BASE + "/repos/octo%20cat/hello/issues?state=all&labels=bug&labels=a%20b"
    assert req.query == [("state", "all"), ("labels", "bug"), ("labels", "a b")]
    assert req.headers == {"User-Agent": USER_AGENT, "Accept": "x/y", "Authorization": "Bearer t0k"}
    assert req.body is None
    assert "t0k" not in repr(req)


def test_json_body_for_a_post(endpoints: dict[str, Endpoint]) -> None:
    values = {"owner": "o", "repo": "r", "title": "Hi", "labels": ["bug"], "draft": False}
    req = build(endpoints["create_issue"], BASE, values, {}, None)
    assert req.url == BASE + "/repos/o/r/issues"
    assert req.headers["Content-Type"] == "application/json"
    assert "Authorization" not in req.headers
    assert req.body is not None
    assert json.loads(req.body) == {"title": "Hi", "labels": ["bug"], "draft": False}


def test_a_post_without_body_values_still_sends_an_object(endpoints: dict[str, Endpoint]) -> None:
    req = build(endpoints["create_issue"], BASE, {"owner": "o", "repo": "r"}, {}, None)
    assert req.body == b"{}"


def test_integers_beyond_64_bits_keep_every_digit(endpoints: dict[str, Endpoint]) -> None:
    values = {"owner": "o", "repo": "r", "weight": 2**70}
    req = build(endpoints["create_issue"], BASE, values, {}, None)
    assert req.body == b'{"weight": 1180591620717411303424}'


def test_path_values_are_one_encoded_segment(endpoints: dict[str, Endpoint]) -> None:
    req = build(endpoints["get_user"], BASE, {"username": "a?b#c%d"}, {}, None)
    assert req.url == BASE + "/users/a%3Fb%23c%25d"
    req = build(endpoints["get_user"], BASE, {"username": True}, {}, None)
    assert req.url == BASE + "/users/true"


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("a/b", "username: must be a single path segment (no '/')."),
        ("..", "username: '..' is not a valid path segment."),
        (".", "username: '.' is not a valid path segment."),
        ("", "username: '' is not a valid path segment."),
        ("a\\b", "username: control characters and backslashes are not allowed."),
        ("a\nb", "username: control characters and backslashes are not allowed."),
    ],
)
def test_values_that_would_change_the_path_are_refused(
    endpoints: dict[str, Endpoint], username: str, message: str
) -> None:
    with pytest.raises(BadRequest) as caught:
        build(endpoints["get_user"], BASE, {"username": username}, {}, None)
    assert caught.value.message == message


def test_the_base_url_path_is_kept(endpoints: dict[str, Endpoint]) -> None:
    req = build(endpoints["get_user"], "http://127.0.0.1:9/v2", {"username": "u"}, {}, None)
    assert req.url == "http://127.0.0.1:9/v2/users/u"


def test_a_query_credential_goes_last_and_replaces_a_parameter_of_its_name() -> None:
    endpoint = Endpoint.model_validate(
        {
            "name": "find",
            "method": "GET",
            "path": "/things",
            "category": "things",
            "description": "Find things by name.",
            "parameters": [
                {"name": "q", "type": "string", "in": "query", "description": "Text."},
                {"name": "key", "type": "string", "in": "query", "description": "Spoof."},
            ],
            "errors": [{"code": 404, "cause": "None found.", "fix": "Try again."}],
        }
    )
    req = build(
        endpoint, "https://api.x.test", {"q": "a b", "key": "spoof"}, {}, ("query", "key", "k/1")
    )
    assert req.url == "https://api.x.test/things?q=a%20b&key=k%2F1"
    assert "Authorization" not in req.headers
    assert "k/1" not in repr(req)


def test_an_encoded_slash_in_a_single_segment_is_encoded_once(
    endpoints: dict[str, Endpoint],
) -> None:
    """Issue 23.2: `%2F` the caller wrote (GitHub asks environment names so) stays one
    encoded slash inside the segment, not `%252F`; a bare `/` is still refused, and an
    encoded slash cannot smuggle in a `..` segment."""
    req = build(endpoints["get_user"], BASE, {"username": "prod%2Feu"}, {}, None)
    assert req.url == BASE + "/users/prod%2Feu"
    for bad in ("prod/eu", "..%2Fadmin", "%2F"):
        with pytest.raises(BadRequest, match="username"):
            build(endpoints["get_user"], BASE, {"username": bad}, {}, None)
