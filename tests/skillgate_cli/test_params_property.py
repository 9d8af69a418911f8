"""The `svc run` flag parser against the spec's table, for generated values.

For every generated parameter set, the flags written the way a person would
write them parse back to exactly what the table says: text -> string, digits
-> number, a bare flag -> true, `a,b` -> array of strings, JSON text -> JSON,
a repeated flag -> array, `--name=value` as `--name value`, negative numbers
as values, `--` ending the flags. The last test sends generated flags
through the real `svc run` executable to a recording gateway.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillgate_cli.params import ParamError, guess_value, parse_number, parse_params
from tests.skillgate_cli.conftest import svc
from tests.skillgate_cli.fakes import FakeGateway, Recorded, Reply, fake_gateway

names = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)


def _is_plain_text(text: str) -> bool:
    """Text the table reads as a string: not a number, boolean, JSON, list or flag."""
    return (
        parse_number(text) is None
        and text not in ("true", "false")
        and "," not in text
        and text.strip()[:1] not in ("{", "[")
        and not text.startswith("--")
    )


plain_text = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30).filter(
    _is_plain_text
)
integers = st.integers(min_value=-(10**18), max_value=10**18)
floats = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(integers, floats)
booleans = st.booleans()
string_lists = st.lists(
    st.text(st.characters(codec="utf-8", exclude_characters=",\x00"), max_size=8),
    min_size=2,
    max_size=5,
).filter(lambda items: _is_plain_text(items[0]) or items[0] == "")
json_scalars = st.one_of(st.none(), st.booleans(), integers, floats, st.text(max_size=10))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)),
    max_leaves=8,
).filter(lambda v: isinstance(v, list | dict))


def number_text(value: int | float) -> str:
    return repr(value) if isinstance(value, float) else str(value)


# (kind, value) -> (argument text, expected parsed value)
def spelled(kind: str, value: Any) -> tuple[str | None, Any]:
    if kind == "string":
        return value, value
    if kind == "number":
        return number_text(value), value
    if kind == "boolean":
        return ("true" if value else "false"), value
    if kind == "flag":
        return None, True
    if kind == "array":
        text = ",".join(value)
        return text, value if text.strip()[:1] not in ("{", "[") else guess_value(text)
    return json.dumps(value), value  # json


values = st.one_of(
    st.tuples(st.just("string"), plain_text),
    st.tuples(st.just("number"), numbers),
    st.tuples(st.just("boolean"), booleans),
    st.tuples(st.just("flag"), st.none()),
    st.tuples(st.just("array"), string_lists),
    st.tuples(st.just("json"), json_values),
)


def build_args(
    params: dict[str, tuple[str, Any]], equals: list[bool]
) -> tuple[list[str], dict[str, Any]]:
    args: list[str] = []
    expected: dict[str, Any] = {}
    for (name, (kind, value)), use_equals in zip(params.items(), equals, strict=False):
        text, parsed = spelled(kind, value)
        flag = "--" + name.replace("_", "-") if len(name) % 2 else "--" + name
        if text is None:
            args.append(flag)
        elif use_equals:
            args.append(f"{flag}={text}")
        else:
            args += [flag, text]
        expected[name] = parsed
    return args, expected


@given(
    params=st.dictionaries(names, values, max_size=6),
    equals=st.lists(st.booleans(), min_size=6, max_size=6),
)
def test_flags_parse_as_the_table_says(
    params: dict[str, tuple[str, Any]], equals: list[bool]
) -> None:
    args, expected = build_args(params, equals)
    parsed = parse_params(args)
    assert parsed == expected
    # Types too: 1 stays an int, 1.0 a float, True a bool.
    for name, value in expected.items():
        assert type(parsed[name]) is type(value)


@given(name=names, items=st.lists(st.one_of(plain_text, numbers), min_size=1, max_size=5))
def test_a_repeated_flag_collects_an_array(name: str, items: list[Any]) -> None:
    args: list[str] = []
    for item in items:
        args += [f"--{name}", number_text(item) if not isinstance(item, str) else item]
    expected = items[0] if len(items) == 1 else items
    assert parse_params(args) == {name: expected}


@given(obj=st.dictionaries(names, json_scalars, min_size=1, max_size=4), extra=numbers)
def test_a_positional_json_object_merges_and_double_dash_ends_flags(
    obj: dict[str, Any], extra: int | float
) -> None:
    parsed = parse_params(["--n", number_text(extra), "--", json.dumps(obj)])
    assert parsed == {"n": extra, **obj}
    with pytest.raises(ParamError):
        parse_params(["--", "--not-a-flag-any-more"])


@given(text=st.one_of(plain_text, numbers.map(number_text), st.sampled_from(["true", "1,2"])))
def test_declared_string_keeps_the_text(text: str) -> None:
    assert parse_params(["--title", text], {"title": ("string", None)}) == {"title": text}


@given(items=st.lists(integers, min_size=1, max_size=5))
def test_declared_number_array_parses_items(items: list[int]) -> None:
    text = ",".join(str(i) for i in items)
    parsed = parse_params(["--ids", text], {"ids": ("array", "number")})
    assert parsed == {"ids": items}


@pytest.fixture(scope="module")
def echo_gateway() -> Iterator[FakeGateway]:
    """A gateway whose endpoint answers with the params it received."""

    def echo(req: Recorded) -> Reply:
        return Reply(200, {"status": 200, "data": req.body["params"]})

    with fake_gateway() as gw:
        gw.on("POST", "/v1/sample/echo", echo)
        yield gw


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    params=st.dictionaries(names, values, max_size=4),
    equals=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_contract_run_sends_what_the_table_says(
    echo_gateway: FakeGateway,
    tmp_path: Path,
    params: dict[str, tuple[str, Any]],
    equals: list[bool],
) -> None:
    args, expected = build_args(params, equals)
    r = svc("run", "sample", "echo", *args, cwd=tmp_path, base_url=echo_gateway.url, key="sk_t")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"status": 200, "data": expected}
