"""The `.env` reader/writer: syntax understood, values round-trip, the rest untouched.

(The end-to-end cases — CRLF, comments and quotes, read-only, missing file,
0600 — run through `svc login` in test_login.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from skillgate_cli.envfile import EnvFileError, parse, read_values, update, updated_text

SAMPLE = (
    "\ufeff# comment\n"
    "PLAIN=value\n"
    "SPACED = spaced value  # comment\n"
    "export EXPORTED=yes\n"
    "SINGLE='a # b $HOME \\n'\n"
    'DOUBLE="line\\nnext \\"q\\" \\\\"\n'
    'MULTI="first\n'
    'second"\n'
    "EMPTY=\n"
    "not a valid line\n"
    "DUP=1\n"
    "DUP=2\n"
)


def test_parse_understands_the_common_syntax() -> None:
    values = {e.key: e.value for e in parse(SAMPLE) if e.key}
    assert values == {
        "PLAIN": "value",
        "SPACED": "spaced value",
        "EXPORTED": "yes",
        "SINGLE": "a # b $HOME \\n",
        "DOUBLE": 'line\nnext "q" \\',
        "MULTI": "first\nsecond",
        "EMPTY": "",
        "DUP": "2",
    }
    # Every byte is accounted for.
    assert "".join(e.raw for e in parse(SAMPLE)) == SAMPLE


def test_update_touches_only_the_changed_entries() -> None:
    new = updated_text(SAMPLE, {"PLAIN": "changed", "MULTI": "one", "DUP": "3", "ADDED": "x y"})
    assert new == (
        "\ufeff# comment\n"
        "PLAIN=changed\n"
        "SPACED = spaced value  # comment\n"
        "export EXPORTED=yes\n"
        "SINGLE='a # b $HOME \\n'\n"
        'DOUBLE="line\\nnext \\"q\\" \\\\"\n'
        'MULTI="one"\n'
        "EMPTY=\n"
        "not a valid line\n"
        "DUP=3\n"
        "ADDED='x y'\n"
    )


def test_none_removes_every_occurrence() -> None:
    text = "A=1\r\nSVC_BASE_URL=http://x\r\nB=2\r\nSVC_BASE_URL=http://y\r\n"
    assert updated_text(text, {"SVC_BASE_URL": None}) == "A=1\r\nB=2\r\n"
    assert updated_text("A=1\n", {"SVC_BASE_URL": None}) == "A=1\n"


def test_missing_file_reads_empty_and_is_created_0600(tmp_path: Path) -> None:
    path = tmp_path / ".env"
    assert read_values(path) == {}
    assert update(path, {"SVC_API_KEY": "sk_1"}) is True
    assert path.read_text() == "SVC_API_KEY=sk_1\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert update(path, {"SVC_API_KEY": "sk_1"}) is False  # unchanged: not rewritten


def test_symlinked_dotenv_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "shared.env"
    real.write_text("A=1\n")
    link = tmp_path / ".env"
    link.symlink_to(real)
    update(link, {"B": "2"})
    assert link.is_symlink()
    assert real.read_text() == "A=1\nB=2\n"


def test_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / ".env"
    path.write_text("A=1\n")
    path.chmod(0o444)
    with pytest.raises(EnvFileError, match="read-only"):
        update(path, {"A": "2"})
    assert path.read_text() == "A=1\n"


_line = st.one_of(
    st.just(""),
    st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=20).map(
        lambda t: "# " + t
    ),
    st.from_regex(r"[A-Z][A-Z0-9_]{0,8}=[a-z0-9]{0,8}", fullmatch=True),
)
_value = st.text(st.characters(codec="utf-8", exclude_characters="\x00"))


@given(
    lines=st.lists(_line, max_size=8),
    crlf=st.booleans(),
    value=_value,
)
# A value ending in a newline was written unquoted ("$" matched before it) and read back empty.
@example(lines=[], crlf=False, value="\n")
@example(lines=["A=1"], crlf=True, value="key\n")
def test_any_value_round_trips_and_other_lines_stay(
    lines: list[str], crlf: bool, value: str
) -> None:
    newline = "\r\n" if crlf else "\n"
    lines = [line for line in lines if not line.startswith("SVC_API_KEY=")]
    text = "".join(line + newline for line in lines)
    new = updated_text(text, {"SVC_API_KEY": value})
    assert new.startswith(text)
    entries = parse(new)
    assert [e.key for e in entries].count("SVC_API_KEY") == 1
    assert next(e.value for e in entries if e.key == "SVC_API_KEY") == value
    assert new.endswith(newline if text else "\n")  # an empty file has no style to keep
    if not crlf:
        assert "\r\n" not in new
    # And removing it gives the original back.
    assert updated_text(new, {"SVC_API_KEY": None}) == text
