"""The helpers both importers use: names, text, schema types, errors."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.catalog.importers import naming, text
from skillgate.catalog.importers.errors import errors
from skillgate.catalog.importers.schema import Typed, merged, typed
from skillgate.catalog.models import NAME_RE, PARAM_RE


@pytest.mark.parametrize(
    ("operation_id", "expected"),
    [
        ("issues/list-for-repo", "issues_list_for_repo"),
        ("users.messages.list", "users_messages_list"),
        ("users.settings.getAutoForwarding", "users_settings_get_auto_forwarding"),
        (
            "spreadsheets.values.batchGetByDataFilter",
            "spreadsheets_values_batch_get_by_data_filter",
        ),
        ("listHTTPRoutes", "list_http_routes"),
        ("2fa/enable", "op_2fa_enable"),
    ],
)
def test_endpoint_names(operation_id: str, expected: str) -> None:
    assert naming.endpoint_name(operation_id, "GET", "/x") == expected


def test_endpoint_names_without_id_and_too_long() -> None:
    assert naming.endpoint_name("", "GET", "/repos/{owner}/{repo}") == "get_repos_owner_repo"
    long = naming.endpoint_name("a" + "/word" * 30, "GET", "/")
    assert len(long) <= 64
    assert NAME_RE.match(long)
    assert long.startswith("a_word_word")
    assert long == naming.endpoint_name("a" + "/word" * 30, "GET", "/")  # stable hash
    assert long != naming.endpoint_name("a" + "/word" * 31, "GET", "/")


def test_unique_is_deterministic() -> None:
    assert naming.unique(["a_b", "a_b", "c", "a_b"]) == ["a_b", "a_b_2", "c", "a_b_3"]


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        ("per-page", "per_page"),
        ("$filter", "filter"),
        ("X-Api-Version", "X_Api_Version"),
        ("2fa", "p_2fa"),
        ("start.dateTime", "start_dateTime"),
        ("client[id]", "client_id"),
    ],
)
def test_param_names(wire: str, expected: str) -> None:
    assert naming.param_name(wire) == expected
    assert PARAM_RE.match(expected)


def test_categories() -> None:
    assert naming.category("Code Scanning") == "code_scanning"
    assert naming.category("users.settings.sendAs") == "users_settings_send_as"
    assert naming.category("x" * 50) == "x" * 40
    assert naming.category("") == "general"


def test_markup_removed() -> None:
    source = (
        "Use the **[search](https://x.io/s)** API ![img](https://x.io/a.png) with `q`.\n"
        "> [!NOTE]\n> Careful &amp; <em>slow</em>.\n\n"
        '| a | b |\n|---|---|\n\n```json\n{"a": 1}\n```\n\nLast _one_ here.'
    )
    assert text.paragraphs(source) == [
        "Use the search API with q.",
        "Careful & slow.",  # a block quote is its own block
        "Last one here.",
    ]
    assert text.strip_markup("keep snake_case_names and 2*3*4") == (
        "keep snake_case_names and 2*3*4"
    )
    # Placeholders in angle brackets are text; a stray `**` goes.
    assert text.strip_markup("Use `refs/heads/<branch name>`. **Closing down.") == (
        "Use refs/heads/<branch name>. Closing down."
    )
    assert text.paragraphs('<p>A <a href="x">link</a><br/>next</p><p>Two</p>') == [
        "A link next",
        "Two",
    ]


def test_caps_at_sentences_then_words() -> None:
    long = "First sentence is here. " + "word " * 100
    assert text.cap(long, 60) == "First sentence is here. word word word word word word word…"
    assert text.cap("A short one. " + "b" * 40, 20) == "A short one."
    assert text.cap("A short one. " + "b" * 40, 30) == "A short one.…"  # under half: word cut
    assert text.cap("Steps: 1. do this and that thing 2. other things follow", 30).endswith("…")


def test_endpoint_description_rules() -> None:
    assert text.endpoint_description("List pets", "List pets in the store.", "x") == (
        "List pets in the store."
    )
    assert text.endpoint_description("Get a pet", "", "x") == "Get a pet."
    assert text.endpoint_description("", "", "Users get profile") == "Users get profile."
    assert text.param_description("", "per_page") == "The per_page parameter."


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": ["string", "null"]}, Typed("string")),
        ({"type": "integer"}, Typed("number")),
        ({"enum": [True, False]}, Typed("boolean")),
        ({"properties": {"a": {}}}, Typed("object")),
        ({"items": {"type": "integer"}}, Typed("array", "number")),
        ({}, Typed("string")),
        (
            {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            Typed("string", note="Accepts a string or a number.", also=("number",)),
        ),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, Typed("number")),
        (
            {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            Typed("array", "string"),
        ),
        (
            {"oneOf": [{"type": "object"}, {"type": "array"}]},
            Typed("object", note="Accepts an object or an array.", also=("array",)),
        ),
    ],
)
def test_types(schema: dict[str, Any], expected: Typed) -> None:
    assert typed(merged(schema)) == expected


def test_all_of_merge_stops_on_cycles() -> None:
    node: dict[str, Any] = {"properties": {"a": {"type": "string"}}, "required": ["a"]}
    node["allOf"] = [node, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]
    result = merged(node)
    assert set(result["properties"]) == {"a", "b"}
    assert result["required"] == ["a", "b"]


def test_errors_deduplicated_in_status_order() -> None:
    found = errors({422: "Validation failed", 404: "Forbidden", 200: "OK", 500: ""}, True)
    assert [(e["code"], e["cause"]) for e in found] == [
        (404, "Forbidden."),
        (422, "Validation failed."),
        (500, "The service had an error or is unavailable."),
    ]
    assert found[1]["fix"] == "Check the parameters: required fields, allowed values and formats."


def test_verify_prefers_the_caller_then_a_list_never_the_root() -> None:
    from skillgate.catalog.importers.compile import choose_verify

    assert choose_verify([("/", "meta_root"), ("/about", "about_get"), ("/user", "users_get")]) == (
        "/user"
    )
    assert choose_verify([("/about", "about_get"), ("/files", "files_list")]) == "/files"
    assert choose_verify([("/", "root"), ("/about", "about_get")]) == "/about"
    assert choose_verify([("/", "root")]) is None


def test_item_list_of_a_page() -> None:
    from skillgate.catalog.importers.pagination import item_list

    def obj(**props: Any) -> dict[str, Any]:
        return {"type": "object", "properties": props}

    arr = {"type": "array", "items": {"type": "object"}}
    assert item_list(obj(messages=arr, nextPageToken={"type": "string"})) == "messages"
    # Box: `order` is an array too; `entries` is the page's item list.
    assert item_list(obj(order=arr, entries=arr, total_count={"type": "integer"})) == "entries"
    # GitHub's compare: two lists, neither a known item-list name -> left to the executor.
    assert item_list(obj(commits=arr, files=arr)) is None
    assert item_list(arr) is None  # the page is the list
    assert item_list({"allOf": [obj(data=arr), obj(has_more={"type": "boolean"})]}) == "data"
