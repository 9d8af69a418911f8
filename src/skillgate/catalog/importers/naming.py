"""Names: endpoint names, parameter names and categories, stable across runs.

Rules (both importers):
- an endpoint name is the snake_case of the operation id (`issues/list-for-repo`
  -> `issues_list_for_repo`; Google drops the API name: `gmail.users.messages.list`
  -> `users_messages_list`; camelCase words split: `getProfile` -> `get_profile`);
  without an operation id, the method and the path (`GET /repos/{owner}` ->
  `get_repos_owner`). It matches `^[a-z][a-z0-9_]{1,63}$`: a leading digit gets
  `op_` before it, a name over 64 characters is cut and ends with a 6-character
  hash of the whole name;
- names are unique within an integration: the first in document order keeps
  its name, later ones get `_2`, `_3`, ... (only the document's own order counts);
- a parameter name is the wire name with every run of characters outside
  `[A-Za-z0-9_]` turned into `_` (`per-page` -> `per_page`, `$filter` ->
  `filter`), `p_` before a leading digit, at most 64 characters; case is kept
  (Google's `pageToken` stays `pageToken`); `maps_to` carries the wire name when
  they differ;
- a category is the snake_case of the first tag (OpenAPI) or of the resource
  path (Google `users.settings.filters` -> `users_settings_filters`), at most 40
  characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

_CAMEL_1 = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL_2 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_NOT_WORD = re.compile(r"[^A-Za-z0-9]+")
_NOT_PARAM = re.compile(r"[^A-Za-z0-9_]+")
NAME_MAX = 64
CATEGORY_MAX = 40


def snake(text: str) -> str:
    """`users.getProfile` -> `users_get_profile`; `list-for-repo` -> `list_for_repo`."""
    text = _CAMEL_2.sub(r"\1_\2", _CAMEL_1.sub(r"\1_\2", text))
    return _NOT_WORD.sub("_", text).strip("_").lower()


def _fit(name: str, limit: int) -> str:
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:6]
    return name[: limit - 7].rstrip("_") + "_" + digest


def endpoint_name(operation_id: str, method: str, path: str) -> str:
    """The snake_case endpoint name for an operation id (or method + path without one)."""
    base = snake(operation_id) if operation_id else snake(f"{method} {path}")
    if not base:
        base = snake(method) or "operation"
    if not base[0].isalpha():
        base = "op_" + base
    if len(base) < 2:
        base += "_op"
    return _fit(base, NAME_MAX)


def unique(names: Iterable[str]) -> list[str]:
    """The names in order, later duplicates suffixed `_2`, `_3`, ... (deterministic)."""
    taken: set[str] = set()
    result: list[str] = []
    for name in names:
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            suffix = f"_{n}"
            candidate = name[: NAME_MAX - len(suffix)] + suffix
        taken.add(candidate)
        result.append(candidate)
    return result


def param_name(wire: str) -> str:
    """A catalog parameter name for a wire name (`per-page` -> `per_page`)."""
    name = _NOT_PARAM.sub("_", wire).strip("_")
    if not name:
        name = "param"
    if not name[0].isalpha():
        name = "p_" + name
    return name[:NAME_MAX].rstrip("_") or "param"


def category(text: str, fallback: str = "general") -> str:
    """The snake_case category (`^[a-z][a-z0-9_]{1,39}$`) of a tag or resource path."""
    name = snake(text)[:CATEGORY_MAX].rstrip("_")
    if not name:
        return fallback
    if not name[0].isalpha():
        name = ("c_" + name)[:CATEGORY_MAX].rstrip("_")
    return name if len(name) >= 2 else fallback
