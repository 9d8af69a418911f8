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
Google Discovery documents name a schema bare (`"$ref": "Message"`); the Google
importer rewrites those to `#/schemas/Message` before calling `resolve`.
"""

from __future__ import annotations

from typing import Any

import jsonref

from skillgate.catalog.importers.source import DocumentError


def _no_remote(uri: str, **_: Any) -> Any:
    raise DocumentError(f"external reference {uri!r}: only references inside the document work")


def resolve(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` with every internal `$ref` replaced by its target."""
    try:
        resolved = jsonref.replace_refs(
            document, proxies=False, merge_props=True, loader=_no_remote, lazy_load=False
        )
    except jsonref.JsonRefError as exc:
        raise DocumentError(f"unresolvable reference: {exc.message}") from None
    if not isinstance(resolved, dict):
        raise DocumentError("the document is not a JSON object")
    return resolved
