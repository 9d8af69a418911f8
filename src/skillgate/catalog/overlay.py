"""Curation on top of a compiled integration: the hand-written YAML as an overlay.

A compiled file (`catalog/compiled/<slug>.json`) is what an importer produced
from the provider's own description; it is never edited by hand. The YAML file
that names it (`compiled: ../compiled/github.json`, relative to the YAML file)
holds what an importer cannot know or gets wrong, and wins over the compiled
entries:

- integration fields (`auth`, `verify`, `default_headers`, `common_errors`,
  `name`, `description`, ...) replace the compiled ones;
- an `endpoints` entry with `operation: <source operation id>` curates that
  compiled endpoint: its `name` renames it (every name agents already use keeps
  working), and every other field it sets replaces the compiled one, except
  `parameters`, merged one by one on the upstream name (`maps_to` or `name`) and
  location (a curated parameter replaces the compiled one; new ones are added;
  one the source requires stays required, its example the compiled one when
  the overlay gives none, unless `optional` lists it; it accepts `null` and the
  other types of a union as the source does, unless it says otherwise), and
  `errors`, put before the compiled ones (a curated code wins). It may not
  change `method` or `path`: the source is the truth for those;
  One operation may be curated more than once under different names (Drive's
  `create_folder` and `create_file` are both `files.create`);
- an `endpoints` entry without `operation` is a hand-written endpoint, whole;
- `categories` maps compiled category names to the integration's own
  (`users_messages: messages`); a curated endpoint's `category` wins;
- every endpoint the overlay lists (curated or hand-written) is marked
  `curated: true` (search ranks it first among equals), unless it says otherwise;
- `exclude` lists `{operation, reason}`: a pattern (`apps/*`) matches operation
  ids shell-style; the reason is required and shown by `skillgate catalog table`.
- `reads` lists `{operation, reason}`: a compiled non-GET operation that only
  reads (a POST search), by its exact id, with the reason from the provider's
  own words. It is the one way a compiled non-GET becomes `changes_data: false`
  (an importer takes a non-GET for a write unless the source marks it a read);
  a curated entry that sets `changes_data: false` on a non-GET is refused. The
  shipped list is reviewed in docs/catalog.md ("POST endpoints that only read").
- `optional` lists `{operation, parameter, reason}`: a body, query or header field
  the source requires (`parameter`: its upstream name) that the curated entry
  offers as optional, with the reason (the provider's own words). It is the one
  way a curated entry relaxes the source's `required`; listed in docs/catalog.md.

Curated endpoints come first, in the overlay's order, then the rest in the
source's order. Every problem raises `OverlayError` naming the operation.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from typing import Any


class OverlayError(ValueError):
    """An overlay that does not fit its compiled integration."""


_IMMUTABLE = ("method", "path")


def operation_id(endpoint: dict[str, Any]) -> str:
    """The compiled endpoint's source operation: its id, or `METHOD path` without one."""
    return str(endpoint.get("operation") or f"{endpoint.get('method')} {endpoint.get('path')}")


def _param_key(param: dict[str, Any]) -> tuple[str, str]:
    return (str(param.get("maps_to") or param.get("name")), str(param.get("in", "")))


def _kept_required(
    op: str, compiled: dict[str, Any], param: dict[str, Any], relaxed: set[str]
) -> dict[str, Any]:
    """`param` (curated) over `compiled`: required when the source requires it, unless
    the overlay's `optional` list relaxes it with its reason."""
    wire = _param_key(param)[0]
    if not compiled.get("required") or param.get("required") or wire in relaxed:
        return param
    if "default" in param or param.get("required") is False:
        raise OverlayError(
            f"operation {op!r}: parameter {param.get('name')!r} is required by the source; "
            "list it under `optional` with the reason to offer it as optional"
        )
    example = param.get("example", compiled.get("example"))
    return {**param, "required": True, "example": example}


def _kept_forms(compiled: dict[str, Any], param: dict[str, Any]) -> dict[str, Any]:
    """`param` (curated) accepting every form the source accepts: the compiled
    `nullable`, and the compiled union's other types (`also`) when its `type` is one
    of them; and how the source has it written (`style`) or uploaded (`file`); what the
    entry sets itself wins."""
    kept = dict(param)
    for fact in ("nullable", "file", "style"):
        if compiled.get(fact) and fact not in param:
            kept[fact] = compiled[fact]
    union = [compiled.get("type"), *(compiled.get("also") or [])]
    if "also" not in param and len(union) > 1 and param.get("type") in union:
        kept["also"] = [t for t in union if t != param.get("type")]
    return kept


def _merge_parameters(
    op: str, compiled: list[dict[str, Any]], curated: list[Any], relaxed: set[str]
) -> list[dict[str, Any]]:
    merged: list[dict[str, Any] | None] = list(compiled)
    index = {_param_key(p): i for i, p in enumerate(compiled)}
    for param in curated:
        if not isinstance(param, dict):
            raise OverlayError("each parameter must be a mapping")
        wire, location = _param_key(param)
        at = index.get((wire, location))
        if at is None:
            merged.append(param)
        else:
            kept = _kept_forms(compiled[at], param)
            merged[at] = _kept_required(op, compiled[at], kept, relaxed)
        if location == "body" and "." in wire:
            # A curated field placed inside a body object (`message.raw`) replaces the
            # compiled parameter that took the whole object (`message`).
            whole = index.get((wire.split(".", 1)[0], "body"))
            if whole is not None and compiled[whole].get("type") == "object":
                merged[whole] = None
    return [p for p in merged if p is not None]


def _merge_errors(compiled: list[dict[str, Any]], curated: list[Any]) -> list[Any]:
    codes = {e.get("code") for e in curated if isinstance(e, dict)}
    return [*curated, *(e for e in compiled if e.get("code") not in codes)]


def _curate(compiled: dict[str, Any], entry: dict[str, Any], relaxed: set[str]) -> dict[str, Any]:
    op = entry["operation"]
    for field in _IMMUTABLE:
        if field in entry and entry[field] != compiled.get(field):
            raise OverlayError(
                f"operation {op!r}: the overlay sets {field} {entry[field]!r} but the source "
                f"says {compiled.get(field)!r}; the source is the truth for {field}"
            )
    merged = {**compiled}
    for key, value in entry.items():
        if key == "parameters":
            if not isinstance(value, list):
                raise OverlayError(f"operation {op!r}: parameters must be a list")
            merged[key] = _merge_parameters(op, compiled.get("parameters", []), value, relaxed)
        elif key == "errors":
            if not isinstance(value, list):
                raise OverlayError(f"operation {op!r}: errors must be a list")
            merged[key] = _merge_errors(compiled.get("errors", []), value)
        else:
            merged[key] = value
    return merged


def _excluded(exclude: Any) -> list[tuple[str, str]]:
    if exclude is None:
        return []
    if not isinstance(exclude, list):
        raise OverlayError("`exclude` must be a list of {operation, reason}")
    rules: list[tuple[str, str]] = []
    for rule in exclude:
        if not isinstance(rule, dict) or not isinstance(rule.get("operation"), str):
            raise OverlayError("each `exclude` entry needs an `operation`")
        reason = rule.get("reason")
        if not isinstance(reason, str) or len(reason.strip()) < 5:
            raise OverlayError(f"exclude {rule['operation']!r}: give the `reason` (a sentence)")
        rules.append((rule["operation"], reason))
    return rules


def _reads(reads: Any, by_op: dict[str, dict[str, Any]], excluded: set[str]) -> dict[str, str]:
    """operation -> reason of each compiled non-GET the overlay marks as a read."""
    if reads is None:
        return {}
    if not isinstance(reads, list):
        raise OverlayError("`reads` must be a list of {operation, reason}")
    found: dict[str, str] = {}
    for rule in reads:
        if not isinstance(rule, dict) or not isinstance(rule.get("operation"), str):
            raise OverlayError("each `reads` entry needs an `operation`")
        op, reason = rule["operation"], rule.get("reason")
        if not isinstance(reason, str) or len(reason.strip()) < 10:
            raise OverlayError(f"reads {op!r}: give the `reason` (the provider's words)")
        endpoint = by_op.get(op)
        if endpoint is None or op in excluded:
            raise OverlayError(f"reads {op!r}: no compiled operation has that id")
        if endpoint.get("method") == "GET":
            raise OverlayError(f"reads {op!r}: a GET is a read already")
        found[op] = reason
    return found


def _optional(optional: Any, by_op: dict[str, dict[str, Any]]) -> dict[str, set[str]]:
    """operation -> the upstream names of the source-required fields the overlay relaxes."""
    if optional is None:
        return {}
    if not isinstance(optional, list):
        raise OverlayError("`optional` must be a list of {operation, parameter, reason}")
    found: dict[str, set[str]] = {}
    for rule in optional:
        if not isinstance(rule, dict) or not isinstance(rule.get("operation"), str):
            raise OverlayError("each `optional` entry needs an `operation`")
        op, wire, reason = rule["operation"], rule.get("parameter"), rule.get("reason")
        if not isinstance(reason, str) or len(reason.strip()) < 10:
            raise OverlayError(f"optional {op!r}: give the `reason` (the provider's words)")
        params = (by_op.get(op) or {}).get("parameters") or []
        if not any(_param_key(p)[0] == wire and p.get("required") for p in params):
            raise OverlayError(f"optional {op!r}: the source requires no parameter {wire!r}")
        found.setdefault(op, set()).add(str(wire))
    return found


def _matching(ops: Iterable[str], rules: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(operation, reason) of each of `ops` that a rule's pattern matches (the first)."""
    found: list[tuple[str, str]] = []
    for op in ops:
        for pattern, reason in rules:
            if fnmatch.fnmatchcase(op, pattern):
                found.append((op, reason))
                break
    return found


def exclusions(compiled: dict[str, Any], overlay: dict[str, Any]) -> list[tuple[str, str]]:
    """(operation, reason) of every compiled operation the overlay excludes."""
    ops = (operation_id(e) for e in compiled.get("endpoints", []))
    return _matching(ops, _excluded(overlay.get("exclude")))


def apply_overlay(compiled: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """The integration (a catalog file's mapping) the overlay makes of `compiled`."""
    renames = overlay.get("categories") or {}
    if not isinstance(renames, dict):
        raise OverlayError("`categories` must map compiled category names to new ones")
    by_op: dict[str, dict[str, Any]] = {}
    for endpoint in compiled.get("endpoints", []):
        category = endpoint.get("category")
        if category in renames:
            endpoint = {**endpoint, "category": renames[category]}
        by_op[operation_id(endpoint)] = endpoint
    rules = _excluded(overlay.get("exclude"))
    for pattern, _ in rules:
        if not any(fnmatch.fnmatchcase(op, pattern) for op in by_op):
            raise OverlayError(f"exclude {pattern!r}: no compiled operation matches it")
    excluded = {op for op, _ in _matching(by_op, rules)}
    for read in _reads(overlay.get("reads"), by_op, excluded):
        by_op[read] = {**by_op[read], "changes_data": False}

    relaxed = _optional(overlay.get("optional"), by_op)
    curated: list[dict[str, Any]] = []
    taken: set[str] = set()
    entries = overlay.get("endpoints") or []
    if not isinstance(entries, list):
        raise OverlayError("`endpoints` must be a list")
    for entry in entries:
        if not isinstance(entry, dict):
            raise OverlayError("each endpoint must be a mapping")
        entry = {"curated": True, **entry}  # a person wrote it (unless it says otherwise)
        op = entry.get("operation")
        if op is None:
            curated.append(entry)  # hand-written, whole
            continue
        if op not in by_op:
            raise OverlayError(f"operation {op!r} is not in the compiled integration")
        if op in excluded:
            raise OverlayError(f"operation {op!r} is both curated and excluded")
        if entry.get("changes_data") is False and by_op[op].get("changes_data") is not False:
            raise OverlayError(
                f"operation {op!r}: a non-GET is a read only when `reads` lists it with the reason"
            )
        taken.add(op)  # curated more than once: several views of one call (names differ)
        curated.append(_curate(by_op[op], entry, relaxed.get(op, set())))

    rest = [e for op, e in by_op.items() if op not in taken and op not in excluded]
    merged = {k: v for k, v in compiled.items() if k not in ("endpoints", "source", "skipped")}
    # The overlay's own keys, not integration fields:
    own = ("compiled", "exclude", "categories", "reads", "optional")
    merged.update({k: v for k, v in overlay.items() if k not in own})
    merged["endpoints"] = [*curated, *rest]
    return merged
