"""Parameter validation (executor.params.validate) against the fixture catalog: plain
unit tests, no app."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint
from skillgate.errors import BadRequest
from skillgate.executor.params import validate


@pytest.fixture
def create_issue(test_catalog: Catalog) -> Endpoint:
    [endpoint] = [e for e in test_catalog.get("sample").endpoints if e.name == "create_issue"]
    return endpoint


def refused(endpoint: Endpoint, params: Any, as_typed: Any = None) -> str:
    with pytest.raises(BadRequest) as caught:
        validate(endpoint, params, as_typed)
    return str(caught.value.message)


def test_valid_params_come_back_coerced(create_issue: Endpoint) -> None:
    params = {"owner": "o", "repo": "r", "title": "Hi", "weight": "3", "draft": "true"}
    assert validate(create_issue, params) == {
        "owner": "o",
        "repo": "r",
        "title": "Hi",
        "weight": 3,
        "draft": True,
    }


def test_null_for_an_optional_parameter_means_not_given(create_issue: Endpoint) -> None:
    params = {"owner": "o", "repo": "r", "title": "Hi", "weight": None}
    assert validate(create_issue, params) == {"owner": "o", "repo": "r", "title": "Hi"}


def test_every_problem_is_reported_at_once(create_issue: Endpoint) -> None:
    message = refused(create_issue, {"owner": "o", "titel": "x", "weight": "heavy"})
    assert message.startswith("Invalid params: ")
    assert "unknown parameter 'titel' (did you mean 'title'?)" in message
    assert "weight: expected a number, got a string" in message
    assert "repo: is required (Repository name)" in message
    assert "title: is required (Title text)" in message
    assert message.endswith(
        ". Parameters of create_issue: owner, repo, title, labels, draft, weight, meta."
    )


def test_null_for_a_required_parameter_is_refused(create_issue: Endpoint) -> None:
    message = refused(create_issue, {"owner": None, "repo": "r", "title": "t"})
    assert "owner: is required and cannot be null" in message


def test_params_must_be_an_object(create_issue: Endpoint) -> None:
    assert refused(create_issue, ["owner"]) == (
        "params: must be an object of parameter names to values."
    )


def test_text_as_typed_wins_for_declared_strings_only(create_issue: Endpoint) -> None:
    params = {"owner": "o", "repo": 7, "title": 1000.0, "weight": 1000.0}
    typed = {"repo": "007", "title": "1e3", "weight": "1e3"}
    assert validate(create_issue, params, typed) == {
        "owner": "o",
        "repo": "007",
        "title": "1e3",
        "weight": 1000.0,
    }


def test_as_typed_must_map_names_to_text(create_issue: Endpoint) -> None:
    params = {"owner": "o", "repo": "r", "title": "t"}
    assert refused(create_issue, params, {"repo": 7}) == (
        "as_typed: must be an object of parameter names to the text typed for them."
    )


def test_a_file_typed_as_text_is_the_text_whatever_the_cli_guessed() -> None:
    """`svc run ... --file "Bake sale: Saturday 10am"`: the CLI reads a mapping; the file
    is the text as typed. A file object (`@./path`) is kept whatever was typed."""
    upload = Endpoint.model_validate(
        {"name": "upload", "method": "POST", "path": "/files", "category": "files",
         "description": "Upload a file.", "body": "multipart",
         "parameters": [{"name": "file", "type": "string", "in": "body", "required": True,
                         "file": True, "description": "The file.", "example": "hi"}],
         "errors": [{"code": 400, "cause": "Bad file.", "fix": "Check it."}]}
    )  # fmt: skip
    typed = {"file": "Bake sale: Saturday 10am"}
    assert validate(upload, {"file": {"Bake sale": "Saturday 10am"}}, typed) == {
        "file": "Bake sale: Saturday 10am"
    }
    given = {"base64": "aGk=", "filename": "hi.txt"}
    assert validate(upload, {"file": given}, {"file": "@./hi.txt"}) == {"file": given}
