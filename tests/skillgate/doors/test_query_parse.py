"""The agent door's query-string parser reads what `urllib.parse.parse_qsl` reads."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillgate.doors.agent.query import parse

CASES = [
    b"", b"q=open+a+bug", b"q=a&q=b", b"a", b"a=&b", b"&&x=1&", b"=v", b"q=a=b=c",
    b"q=%E2%9C%93+x%2By&limit=5", b"q=%ff%zz%", b"q=caf\xe9", b"q=a;b", b"q=%00",
]  # fmt: skip


def _reference(raw: bytes) -> dict[str, str]:
    return dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True))


@pytest.mark.parametrize("raw", CASES)
def test_known_cases(raw: bytes) -> None:
    assert parse(raw) == _reference(raw)


@given(
    st.lists(st.sampled_from([b"q", b"=", b"&", b"+", b"%", b"2B", b"E2", b"zz", b";", b"\xe9"]))
)
def test_any_string_of_the_tricky_parts(parts: list[bytes]) -> None:
    raw = b"".join(parts)
    assert parse(raw) == _reference(raw)
