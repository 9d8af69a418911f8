"""Bounded reading of YAML and JSON written by someone else: an API description an
operator imports, an operator's catalog file.

A parser alone does not bound what a small document costs: 720 bytes of YAML
aliases ("billion laughs") expand to billions of nodes for whatever walks the
result, a 2.9 kB alias bomb in a catalog file cost a server 690 MB, JSON nested
100,000 deep exhausts Python's recursion, and the same in YAML crashes libyaml's
composer outright. So, besides the caller's size limit:

- nesting: at most `MAX_DEPTH` levels (64; the deepest shipped source, Stripe's
  OpenAPI document, has 26), aliases expanded;
- aliases (and `<<` merge keys, which are aliases): they may add at most
  `MAX_ALIAS_NODES` nodes (100,000) to the document once expanded; an alias to a
  node it sits inside (a recursive structure) is refused;
- YAML is parsed by libyaml's event parser (no recursion) and composed here,
  counting as it goes, before anything is built; JSON is parsed by orjson (its own
  depth limit is 1,024) and its depth checked before it is used.

Every refusal is `DocumentLimitError`, whose message says which limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    NodeEvent,
    ScalarEvent,
)

MAX_DEPTH = 64
MAX_ALIAS_NODES = 100_000

# libyaml's parser and composer when PyYAML was built with it (its wheels are): the
# catalog's YAML is ~400 kB, which the pure-Python parser took ~0.6 s of start-up to read.
SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DocumentLimitError(ValueError):
    """A document past one of this module's limits; the message names it."""


def _too_deep() -> DocumentLimitError:
    return DocumentLimitError(f"nested deeper than {MAX_DEPTH} levels")


@dataclass
class _Open:
    """A collection being read: where it started, for its anchor's expanded measures."""

    anchor: str | None
    depth: int
    nodes_before: int
    deepest: int


class _Measure:
    """Depth and alias expansion of a YAML event stream, counted as if every alias were
    written out: each anchor's expanded size and height are known when it closes."""

    def __init__(self) -> None:
        self.nodes = 0  # expanded
        self.alias_nodes = 0
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[int, int]] = {}  # anchor -> (size, height)

    def _reach(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise _too_deep()
        if self.stack and depth > self.stack[-1].deepest:
            self.stack[-1].deepest = depth

    def alias(self, anchor: str) -> None:
        if any(o.anchor == anchor for o in self.stack):
            raise DocumentLimitError(f"alias *{anchor} refers to a node it is inside")
        size, height = self.anchors.get(anchor, (1, 1))  # undefined: the parser says so
        self.nodes += size
        self.alias_nodes += size
        if self.alias_nodes > MAX_ALIAS_NODES:
            raise DocumentLimitError(f"aliases expand to more than {MAX_ALIAS_NODES} nodes")
        self._reach(len(self.stack) + height)

    def scalar(self, anchor: str | None) -> None:
        self.nodes += 1
        self._reach(len(self.stack) + 1)
        if anchor is not None:
            self.anchors[anchor] = (1, 1)

    def start(self, anchor: str | None) -> None:
        depth = len(self.stack) + 1
        self._reach(depth)
        self.nodes += 1
        self.stack.append(_Open(anchor, depth, self.nodes - 1, depth))

    def end(self) -> None:
        done = self.stack.pop()
        if self.stack and done.deepest > self.stack[-1].deepest:
            self.stack[-1].deepest = done.deepest
        if done.anchor is not None:
            height = done.deepest - done.depth + 1
            self.anchors[done.anchor] = (self.nodes - done.nodes_before, height)


def check_yaml(text: str, loader: Any = SAFE_LOADER) -> None:
    """`DocumentLimitError` when the YAML in `text` is past a limit. Reads the parser's
    events only (libyaml's parser keeps its own stack: no recursion, no nodes built)."""
    measure = _Measure()
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, AliasEvent):
            measure.alias(str(event.anchor))
        elif isinstance(event, ScalarEvent):
            measure.scalar(event.anchor)
        elif isinstance(event, CollectionStartEvent):
            measure.start(event.anchor)
        elif isinstance(event, CollectionEndEvent):
            measure.end()
        elif isinstance(event, NodeEvent):  # pragma: no cover (no other kind exists)
            raise DocumentLimitError(f"unexpected YAML event {event!r}")


def load_yaml(text: str, loader: Any = SAFE_LOADER) -> Any:
    """The one document in `text`, with YAML's safe types (`loader`: a safe loader),
    once `check_yaml` passes; `yaml.YAMLError` when it is not YAML,
    `DocumentLimitError` past a limit."""
    check_yaml(text, loader)
    return yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)


def check_depth(value: Any) -> None:
    """`DocumentLimitError` when `value` (parsed JSON) nests deeper than MAX_DEPTH."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            items: Any = item.values()
        elif isinstance(item, list):
            items = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise _too_deep()
        stack.extend((v, depth + 1) for v in items if isinstance(v, dict | list))


def load_json(data: str | bytes) -> Any:
    """Parsed JSON (orjson), its depth checked; `orjson.JSONDecodeError` when it is not
    JSON (or nests past orjson's own limit), `DocumentLimitError` past MAX_DEPTH."""
    value = orjson.loads(data)
    check_depth(value)
    return value
