"""`$ref` resolution for both importers, with jsonref.

Why jsonref 1.1.0: it is the maintained, dependency-free implementation of JSON
Reference + JSON Pointer (RFC 6901 escapes, percent-decoding) that resolves a
whole document in one pass, including recursive references, which it turns
into shared (cyclic) Python objects instead of recursing forever. Writing our
own resolver would mean owning those edge cases; bigger toolkits (openapi-core,
prance) pull validators and network loaders we do not want.

How it is used:
- `proxies=False`: every reference is replaced by the object it points to, so
  the rest of the importer sees plain dicts and lists (a recursive schema is a
  dict that contains itself: walkers stop at a depth or on an id they have seen);
- `merge_props=True`: keys next to a `$ref` (OpenAPI 3.1 allows `description`
  beside a reference) are merged over the target;
- the loader refuses every document but the one given: the importers are pure
  (no network, no files), so a remote or relative reference is an error that
  names it.
- before resolving, a `$ref` inside an `x-` extension (vendor data the importer
  never reads) is dropped with the extension, and a dangling internal `$ref`
  (its pointer names nothing in the document) is replaced by the keys beside it
  (an unspecified schema) with a note naming the pointer: neither is fatal.
Google Discovery documents name a schema bare (`"$ref": "Message"`); the Google
importer rewrites those to `#/schemas/Message` before calling `resolve`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import jsonref

from skillgate.catalog.importers.source import DocumentError


def _no_remote(uri: str, **_: Any) -> Any:
    raise DocumentError(f"external reference {uri!r}: only references inside the document work")


Key = str | int


def _target(document: Any, ref: str) -> bool:
    """Whether the internal reference `ref` (`#/a/b`) names something in `document`
    (a pointer that passes through another reference counts: jsonref follows it)."""
    node = document
    for token in ref[1:].split("/")[1:] if ref != "#" else []:
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            return True
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def _has_ref(node: Any) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "$ref" in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _problems(document: dict[str, Any]) -> tuple[list[tuple[Key, ...]], list[tuple[Key, ...]]]:
    """(x- extensions holding a `$ref`, dangling internal `$ref`s): their locations."""
    extensions: list[tuple[Key, ...]] = []
    dangling: list[tuple[Key, ...]] = []
    stack: list[tuple[Any, tuple[Key, ...]]] = [(document, ())]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend((item, (*where, i)) for i, item in enumerate(node))
            continue
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#") and not _target(document, ref):
            dangling.append(where)
        for key, value in node.items():
            if isinstance(key, str) and key.startswith("x-"):
                if _has_ref(value):
                    extensions.append((*where, key))
            elif isinstance(value, dict | list):
                stack.append((value, (*where, key)))
    return extensions, dangling


def _replaced(node: Any, where: tuple[Key, ...], fix: Callable[[Any], Any] | None) -> Any:
    """A copy of `node` along `where` (the rest shared) with `fix(old)` at its end, or
    that key removed when `fix` is None."""
    head, rest = where[0], where[1:]
    copy: Any = list(node) if isinstance(node, list) else dict(node)
    if rest:
        copy[head] = _replaced(node[head], rest, fix)
    elif fix is None:
        del copy[head]
    else:
        copy[head] = fix(node[head])
    return copy


def _unref(node: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != "$ref"}


def _repaired(document: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """`document` without `$ref`s in `x-` extensions and without dangling ones (noted)."""
    extensions, dangling = _problems(document)
    for where in extensions:
        document = _replaced(document, where, None)
    for where in dangling:
        node: Any = document
        for key in where:
            node = node[key]
        place = "/".join(str(k) for k in where)
        notes.append(f"dangling $ref {node['$ref']!r} at {place}: left out (no schema)")
        document = _replaced(document, where, _unref) if where else _unref(document)
    return document


def resolve(document: dict[str, Any], notes: list[str] | None = None) -> dict[str, Any]:
    """A copy of `document` with every internal `$ref` replaced by its target; a
    dangling one is noted in `notes` and left out."""
    document = _repaired(document, notes if notes is not None else [])
    try:
        resolved = jsonref.replace_refs(
            document, proxies=False, merge_props=True, loader=_no_remote, lazy_load=False
        )
    except jsonref.JsonRefError as exc:
        raise DocumentError(f"unresolvable reference: {exc.message}") from None
    if not isinstance(resolved, dict):
        raise DocumentError("the document is not a JSON object")
    return resolved
