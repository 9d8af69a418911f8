"""Bounded reading of YAML and JSON from outside (kit.documents): each limit refuses a
hostile document at once, and the shipped catalog's YAML (which uses aliases) reads
exactly as PyYAML reads it."""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest
import yaml

from skillgate.kit.documents import (
    MAX_ALIAS_NODES,
    MAX_DEPTH,
    DocumentLimitError,
    load_json,
    load_yaml,
)

HOSTILE = Path(__file__).parents[2] / "fixtures" / "hostile"
SHIPPED = Path(__file__).parents[3] / "src" / "skillgate" / "catalog" / "integrations"


def _refused(text: str, words: str) -> None:
    started = time.perf_counter()
    with pytest.raises(DocumentLimitError, match=words):
        load_yaml(text)
    assert time.perf_counter() - started < 2


def test_billion_laughs_and_the_alias_bomb_are_refused_before_they_expand() -> None:
    _refused((HOSTILE / "billion-laughs-openapi.yaml").read_text(), "aliases expand to more")
    _refused((HOSTILE / "alias-bomb-catalog.yaml").read_text(), "aliases expand to more")


def test_nesting_is_bounded_in_flow_block_and_through_aliases() -> None:
    _refused("[" * 100_000 + "]" * 100_000, f"deeper than {MAX_DEPTH} levels")  # libyaml crashed
    _refused("- " * 40_000 + "x", "deeper than")
    chain = "a0: &a0 [x]\n" + "\n".join(f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 70))
    _refused(chain, "deeper than")  # each line shallow, the expansion 70 deep
    _refused("a: &x [1, *x]", "refers to a node it is inside")
    assert load_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None


def test_aliases_within_the_budget_are_read() -> None:
    items = ", ".join(f"*s{i}" for i in range(50))
    anchors = "\n".join(f"s{i}: &s{i} [1, 2, 3]" for i in range(50))
    data = load_yaml(f"{anchors}\nall: [{items}]\nmerged: {{<<: {{k: v}}, x: 1}}")
    assert len(data["all"]) == 50
    assert data["merged"] == {"k": "v", "x": 1}
    huge = "a: &a [" + ", ".join(["1"] * 1000) + "]\nb: [" + ", ".join(["*a"] * 101) + "]"
    with pytest.raises(DocumentLimitError, match=str(MAX_ALIAS_NODES)):
        load_yaml(huge)


def test_the_shipped_catalog_reads_as_pyyaml_reads_it() -> None:
    """The loader skips the checks for the shipped files at start: they hold here."""
    for compiled in sorted((SHIPPED.parent / "compiled").glob("*.json")):
        load_json(compiled.read_bytes())  # within the depth limit
    files = sorted(SHIPPED.glob("*.yaml"))
    assert any("*" in f.read_text() for f in files)  # gmail.yaml's reasons are aliases
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert load_yaml(text) == yaml.safe_load(text), f.name


def test_json_depth_is_bounded() -> None:
    with pytest.raises(orjson.JSONDecodeError):  # orjson's own limit, no recursion error
        load_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DocumentLimitError, match="deeper than 64"):
        load_json('{"a":' * 65 + "1" + "}" * 65)
    assert load_json('{"a":' * 63 + "1" + "}" * 63) is not None
