"""Lossless coercion to the declared types (catalog.coerce): plain unit tests."""

from __future__ import annotations

from typing import Any

import pytest

from skillgate.catalog.coerce import CoercionError, coerce, coerce_scalar
from skillgate.catalog.models import Parameter


def param(type_: str, **extra: Any) -> Parameter:
    fields = {"name": "p", "type": type_, "in": "query", "description": "A parameter."}
    return Parameter.model_validate({**fields, **extra})


@pytest.mark.parametrize(
    ("type_", "value", "expected"),
    [
        ("string", "007", "007"),
        ("string", 7, "7"),
        ("string", 1.5, "1.5"),
        ("string", ["Hello", " world"], "Hello, world"),
        ("number", 3, 3),
        ("number", 2.5, 2.5),
        ("number", " 42 ", 42),
        ("boolean", True, True),
        ("boolean", "FALSE", False),
        ("object", {"k": 1}, {"k": 1}),
        ("object", '{"k": 1}', {"k": 1}),
    ],
)
def test_values_that_keep_their_meaning_are_coerced(type_: str, value: Any, expected: Any) -> None:
    assert coerce_scalar(type_, value) == expected
    assert type(coerce_scalar(type_, value)) is type(expected)


@pytest.mark.parametrize(
    ("type_", "value", "message"),
    [
        (
            "string",
            True,
            "expected a string, got a boolean: a bare flag means true; give it a value",
        ),
        ("string", {"k": 1}, "expected a string, got an object"),
        ("string", [], "expected a string, got an array"),
        ("number", True, "expected a number, got a boolean"),
        ("number", "ten", "expected a number, got a string"),
        ("boolean", "yes", "expected a boolean, got a string"),
        ("boolean", 1, "expected a boolean, got a number"),
        ("object", "[1]", "expected an object, got a string"),
        ("object", [1], "expected an object, got an array"),
    ],
)
def test_values_that_would_lose_meaning_are_refused(type_: str, value: Any, message: str) -> None:
    with pytest.raises(CoercionError) as caught:
        coerce_scalar(type_, value)
    assert str(caught.value) == message


def test_null_is_refused_with_the_declared_type() -> None:
    with pytest.raises(CoercionError, match=r"^expected an object, got null$"):
        coerce(param("object"), None)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("bug", ["bug"]),
        ('["bug", "ui"]', ["bug", "ui"]),
        ("[not json", ["[not json"]),
        (["bug", "ui"], ["bug", "ui"]),
        (5, ["5"]),
    ],
)
def test_arrays_take_one_value_a_json_array_or_a_list(value: Any, expected: list[str]) -> None:
    assert coerce(param("array", items="string"), value) == expected


def test_array_items_are_coerced_each() -> None:
    assert coerce(param("array", items="number"), ["1", 2.5]) == [1, 2.5]
    with pytest.raises(CoercionError, match="expected a number, got a string"):
        coerce(param("array", items="number"), ["1", "two"])


def test_enum_is_checked_after_coercion() -> None:
    state = param("string", enum=["open", "closed"])
    assert coerce(state, "open") == "open"
    with pytest.raises(CoercionError) as caught:
        coerce(state, "merged")
    assert str(caught.value) == 'must be one of "open", "closed"'
