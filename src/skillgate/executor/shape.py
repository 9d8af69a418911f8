"""Shaping the upstream data for an agent: field selection, then a size bound.

`project(data, ["number", "user.login"])` keeps only those dotted paths: a path
walks objects; meeting a list, the rest of the path applies to every element (a
top-level list of objects is projected element by element). Nesting is kept
(`user.login` -> `{"user": {"login": ...}}`), missing paths are left out, and a
path that names an object or list keeps it whole.

`bound(data, max_bytes)` cuts `data` until its JSON (as the envelope writes it)
fits: lists lose items from the end, keeping at least their first item, which is
cut in turn; long strings are cut; an object whose values cannot shrink enough
loses its last keys. `Bounded` says what was done: `truncated`, the size
before (`bytes`), the list items left out (`omitted`) and, for a list, how many
of its items were `kept` (the paginated answer turns that into `next`/`skip`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

_MISSING: Any = object()
Tree = dict[str, Any]  # a field name -> the tree of its sub-fields; FULL keeps it whole
FULL: Tree = {}


def size(value: Any) -> int:
    """Bytes of `value` as compact JSON (what the envelope writes)."""
    try:
        return len(orjson.dumps(value))
    except orjson.JSONEncodeError:  # integers beyond 64 bits
        return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def tree(fields: tuple[str, ...] | list[str]) -> Tree:
    """`["user.login", "user.id", "title"]` -> `{"user": {"login": FULL, "id": FULL},
    "title": FULL}`; a shorter path wins over a longer one below it."""
    root: Tree = {}
    for path in fields:
        node = root
        keys = path.split(".")
        for key in keys[:-1]:
            child = node.get(key)
            if child is FULL:
                break  # an ancestor is kept whole already
            node = node.setdefault(key, {})
        else:
            node[keys[-1]] = FULL
    return root


def project(data: Any, fields: tuple[str, ...] | list[str]) -> Any:
    """`data` with only `fields` (dotted paths); see the module docstring."""
    found = _apply(data, tree(fields), top=True)
    return {} if found is _MISSING else found


def project_tree(data: Any, fields: Tree) -> Any:
    """`project` with the tree already built (once per paginated call)."""
    found = _apply(data, fields, top=True)
    return {} if found is _MISSING else found


def _apply(value: Any, node: Tree, top: bool = False) -> Any:
    if node is FULL:
        return value
    if isinstance(value, list):
        out = [_apply(item, node, top=top) for item in value]
        return [item for item in out if item is not _MISSING]
    if not isinstance(value, dict):
        return _MISSING  # a path goes on below a scalar: nothing there
    kept: dict[str, Any] = {}
    for key, sub in node.items():
        if key in value:
            found = _apply(value[key], sub)
            if found is not _MISSING:
                kept[key] = found
    if not kept and not top:
        return _MISSING
    return kept


@dataclass(frozen=True)
class Bounded:
    data: Any
    truncated: bool = False
    bytes: int = 0  # the size before, when truncated
    omitted: int = 0  # list items left out
    kept: int | None = None  # items kept when `data` is a list

    def fields(self) -> dict[str, Any]:
        """What the envelope gains: `truncated`, `bytes`, `omitted` (when some were)."""
        if not self.truncated:
            return {}
        out: dict[str, Any] = {"truncated": True, "bytes": self.bytes}
        if self.omitted:
            out["omitted"] = self.omitted
        return out


def bound(data: Any, max_bytes: int) -> Bounded:
    """`data` cut to at most `max_bytes` of JSON; see the module docstring."""
    before = size(data)
    kept = len(data) if isinstance(data, list) else None
    if before <= max_bytes:
        return Bounded(data, kept=kept)
    cut = _Cut()
    out = cut.fit(data, max_bytes, before)
    if size(out) > max_bytes:  # a scalar that cannot be cut (a huge number)
        out = None
    kept = len(out) if isinstance(out, list) else None
    return Bounded(out, True, before, cut.omitted, kept)


class _Cut:
    def __init__(self) -> None:
        self.omitted = 0

    def fit(self, value: Any, budget: int, known: int | None = None) -> Any:
        """`value`, cut to fit `budget` bytes when it can be (`known`: its size)."""
        if (known if known is not None else size(value)) <= budget:
            return value
        if isinstance(value, str):
            return _fit_text(value, budget)
        if isinstance(value, list):
            return self._fit_list(value, budget)
        if isinstance(value, dict):
            return self._fit_object(value, budget)
        return value  # numbers, booleans, null: the caller leaves them out

    def _fit_list(self, items: list[Any], budget: int) -> list[Any]:
        total, kept = 2, 0  # the brackets
        for item in items:
            grown = total + size(item) + (1 if kept else 0)
            if grown > budget:
                break
            total, kept = grown, kept + 1
        if kept == 0 and items:  # keep the first item, cut down
            first = self.fit(items[0], budget - 2)
            if size(first) <= budget - 2:
                self.omitted += len(items) - 1
                return [first]
        self.omitted += len(items) - kept
        return items[:kept]

    def _fit_object(self, obj: dict[str, Any], budget: int) -> dict[str, Any]:
        out = dict(obj)
        sizes = {key: size(value) for key, value in obj.items()}
        total = size(obj)
        for key in sorted(sizes, key=sizes.__getitem__, reverse=True):  # largest first
            if total <= budget:
                return out
            allowed = max(sizes[key] - (total - budget), 2)
            out[key] = self.fit(out[key], allowed, sizes[key])
            total += size(out[key]) - sizes[key]
        for key in reversed(list(out)):  # still too large: drop keys from the end
            if total <= budget:
                break
            total -= size({key: out.pop(key)}) - 2 + (1 if out else 0)
        return out


def _fit_text(text: str, budget: int) -> str:
    """The longest prefix of `text` whose JSON fits `budget` (escapes counted)."""
    low, high = 0, min(len(text), max(budget - 2, 0))
    while low < high:
        mid = (low + high + 1) // 2
        if size(text[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low]
