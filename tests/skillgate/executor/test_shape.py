"""Field selection and the size bound (skillgate.executor.shape), as pure functions."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from skillgate.executor.shape import bound, project, size, tree

ISSUE = {
    "number": 7,
    "title": "Crash",
    "user": {"login": "octo", "id": 1, "site_admin": False},
    "labels": [{"name": "bug", "color": "f00"}, {"name": "ui", "color": "0f0"}],
    "body": None,
}


def test_paths_keep_their_nesting_and_missing_ones_are_left_out() -> None:
    assert project(ISSUE, ["number", "user.login", "nope", "user.nope.deeper"]) == {
        "number": 7,
        "user": {"login": "octo"},
    }
    assert project(ISSUE, ["labels.name"]) == {"labels": [{"name": "bug"}, {"name": "ui"}]}
    assert project(ISSUE, ["user", "user.login"]) == {"user": ISSUE["user"]}  # whole wins
    assert project(ISSUE, ["user.login", "user"]) == {"user": ISSUE["user"]}
    assert project(ISSUE, ["body"]) == {"body": None}  # present, even if null
    assert project(ISSUE, ["title.length"]) == {}  # a path below a scalar finds nothing


def test_a_top_level_list_is_projected_element_by_element() -> None:
    other = {"number": 8, "user": {"login": "cat"}, "labels": []}
    assert project([ISSUE, other, {"x": 1}], ["number", "user.login", "labels.name"]) == [
        {"number": 7, "user": {"login": "octo"}, "labels": [{"name": "bug"}, {"name": "ui"}]},
        {"number": 8, "user": {"login": "cat"}, "labels": []},
        {},  # an object without the fields stays, so positions keep their meaning
    ]


def test_lists_inside_lists_and_graphql_shapes() -> None:
    page = {"data": {"issues": {"nodes": [{"id": "a", "team": {"key": "ENG"}}, {"id": "b"}]}}}
    assert project(page, ["data.issues.nodes.team.key"]) == {
        "data": {"issues": {"nodes": [{"team": {"key": "ENG"}}]}}
    }
    assert project({"rows": [[{"a": 1, "b": 2}], [{"a": 3}]]}, ["rows.a"]) == {
        "rows": [[{"a": 1}], [{"a": 3}]]
    }
    assert project("text", ["a"]) == {}


def test_tree() -> None:
    assert tree(["a.b", "a.c", "d"]) == {"a": {"b": {}, "c": {}}, "d": {}}


def _fits(data: Any, limit: int) -> Any:
    result = bound(data, limit)
    assert size(result.data) <= limit
    assert len(orjson.dumps(result.data)) <= limit
    return result


def test_small_data_is_untouched() -> None:
    result = bound([1, 2, 3], 1024)
    assert (result.data, result.truncated, result.kept, result.fields()) == (
        [1, 2, 3],
        False,
        3,
        {},
    )


def test_a_list_loses_items_from_the_end() -> None:
    items = [{"id": i, "text": "x" * 100} for i in range(100)]
    result = _fits(items, 2000)
    assert result.truncated
    assert result.data == items[: result.kept]
    assert 15 <= result.kept < 20  # as many whole items as fit
    assert result.omitted == 100 - result.kept
    assert result.bytes == size(items)
    assert result.fields() == {"truncated": True, "bytes": size(items), "omitted": result.omitted}


def test_the_largest_nested_list_is_cut_and_the_rest_kept() -> None:
    body = {
        "ok": True,
        "channels": [{"name": f"c{i}", "purpose": "p" * 50} for i in range(200)],
        "response_metadata": {"next_cursor": "abc"},
    }
    result = _fits(body, 4096)
    assert result.data["ok"] is True
    assert result.data["response_metadata"] == {"next_cursor": "abc"}
    kept = result.data["channels"]
    assert kept == body["channels"][: len(kept)]
    assert 40 < len(kept) < 200
    assert result.omitted == 200 - len(kept)
    assert result.kept is None  # not a list at the top


def test_one_huge_item_is_kept_and_its_long_strings_cut() -> None:
    mail = {"id": "m1", "subject": "Report", "body": "é\n" * 500_000}
    result = _fits([mail, {"id": "m2"}], 1024)
    assert result.kept == 1
    assert result.omitted == 1
    [cut] = result.data
    assert cut["id"] == "m1"
    assert cut["subject"] == "Report"
    assert mail["body"].startswith(cut["body"])
    assert 300 < len(cut["body"]) < 1000
    text = _fits("ü" * 5000, 1024).data  # escapes and UTF-8 bytes counted
    assert isinstance(text, str)
    assert len(text.encode()) <= 1022


@pytest.mark.parametrize("limit", [1024, 1500, 4096])
def test_objects_with_many_small_values_drop_keys_from_the_end(limit: int) -> None:
    wide = {f"key{i:05d}": i for i in range(5000)}
    result = _fits(wide, limit)
    keys = list(result.data)
    assert keys == list(wide)[: len(keys)]
    assert keys
    assert result.truncated
    assert result.omitted == 0


def test_deep_and_mixed_data_always_fits() -> None:
    data = {
        "a": [{"b": ["x" * 300] * 10, "c": {"d": "y" * 2000}}] * 5,
        "e": "z" * 3000,
        "n": 1234567890123,
    }
    for limit in (1024, 2048, 5000, 20_000):
        _fits(data, limit)
