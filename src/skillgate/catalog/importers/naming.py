"""Names: endpoint names, parameter names and categories, stable across runs.

Rules (both importers):
- an endpoint name is the snake_case of the operation id (`issues/list-for-repo`
  -> `issues_list_for_repo`; Google drops the API name: `gmail.users.messages.list`
  -> `users_messages_list`; camelCase words split: `getProfile` -> `get_profile`);
  without an operation id, the method and the path (`GET /repos/{owner}` ->
  `get_repos_owner`). It matches `^[a-z][a-z0-9_]{1,63}$`: a leading digit gets
  `op_` before it. A name over 64 characters is said shorter (`readable`): the
  operation id without what repeats the path (Graph's `microsoft.graph.`, a part
  naming one item of the collection before it, `notebooks.notebook`; Trello's
  `ByIdCard...`; the id's leading group, GitHub's `actions/`, DocuSign's
  `Tag_`), else the source's summary (`Decline a pull request` ->
  `decline_pull_request`, Bitbucket's operations have no id); the name it had
  before, cut and ending with a 6-character hash of the whole name, is kept as
  its alias (`Endpoint.aliases`), and stays its name when no shorter form fits;
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
from collections import Counter
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


_GRAPH_CAST = re.compile(
    r"^Get\.microsoft\.graph\.\w+\.(Items?)\.As\.microsoft\.graph\.(\w+)-[0-9a-f]{4}$"
)
# An id inside an operation id (Box's `securityClassification-6VMVochwUWo`): 8+ letters
# and digits, with a digit and a capital.
_ID_IN_ID = re.compile(r"-(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{8,}")
_GROUPED = re.compile(r"^[A-Z][A-Za-z0-9]*_(?=[A-Z])|^[a-z][a-z0-9-]*/")
_ARTICLES = frozenset({"a", "an", "the"})


def single(word: str) -> str:
    """`properties` -> `property`, `sections` -> `section`; `status` stays."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _params(path: str) -> set[str]:
    return {snake(p.split("-")[0]) for p in re.findall(r"\{([^}]+)\}", path)}


def _cast(match: re.Match[str], path: str) -> str:
    """Graph's typed view of a collection (`/groups/{id}/owners/microsoft.graph.user`,
    whose id Graph makes unique with a hash): `groups_owners_as_user`."""
    segments = [s for s in path.split("/") if s]
    words = [snake(s) for s in segments[:-1] if not s.startswith("{")]
    item = "_item" if match.group(1) == "Item" else ""
    return "_".join(words) + f"{item}_as_" + snake(match.group(2))


def _parts(operation_id: str, path: str) -> list[str]:
    """The id's dotted parts, less Graph's `microsoft.graph` and each part naming one
    item of the part before it (`notebooks.notebook`, `sections.onenoteSection`) or a
    path parameter (`calendarView.event` for `{event-id}`)."""
    text = _ID_IN_ID.sub("", operation_id).replace("microsoft.graph.", "")
    params = _params(path)
    parts = [p for p in re.split(r"[./]", text) if p]
    kept: list[str] = []
    for part in parts[:-1]:  # the last is what the call does: always kept
        words = snake(part).split("_")
        last = snake(kept[-1]).split("_")[-1] if kept else ""
        if kept and ("_".join(words) in params or (words[-1] == single(last) != last)):
            continue
        kept.append(part)
    return [*kept, *parts[-1:]]


def _words(name: str, dotted: bool) -> list[str]:
    """`name`'s words without Trello's `by_id_card...` and, in an id without dotted parts,
    a run repeating the run before it in the singular (`outbound_transfers_outbound_transfer`)."""
    words = name.split("_")
    by = words.index("by") if "by" in words else -1
    if by >= 0 and words[by + 1 : by + 2] == ["id"]:
        words = words[:by]
    if dotted:
        return words
    out: list[str] = []
    for word in words:
        out.append(word)
        for k in (3, 2, 1):
            run, before = out[-k:], out[-2 * k : -k]
            if len(before) == k and run == [*before[:-1], single(before[-1])] != before:
                del out[-k:]
                break
    return out


def _joined(parts: list[str], path: str, dotted: bool) -> str:
    words = _words(snake("_".join(parts)), dotted)
    if path.endswith("}") and words:
        words[-1] = single(words[-1])  # one item: `get_members_board_background`
    return "_".join(words)


def _from_id(operation_id: str, path: str) -> str:
    match = _GRAPH_CAST.match(operation_id)
    if match:
        return _cast(match, path)
    parts = _parts(operation_id, path)
    name = _joined(parts, path, "." in operation_id)
    if len(name) > NAME_MAX and "." in operation_id and len(parts) > 2:
        # A dotted id's first part is its path's root (`me`, `communications`); the
        # parts after it still say where the call is, the ones after those no longer.
        name = _joined(parts[1:], path, True)
    grouped = _GROUPED.match(operation_id)
    if len(name) > NAME_MAX and grouped:
        return _from_id(operation_id[grouped.end() :], path)
    return name


def readable(operation_id: str, method: str, path: str, summary: str = "") -> str | None:
    """A name of at most 64 characters, without a hash, for an operation whose
    `endpoint_name` is cut; None when that name is not cut or nothing shorter fits.
    The summary is read only where the document's summaries are written by people (a
    dotted id's are generated: Graph's "Invoke action createUploadSession")."""
    base = snake(operation_id) if operation_id else snake(f"{method} {path}")
    if len(base) <= NAME_MAX:
        return None
    first = summary.split(". ")[0].replace("'s ", " ")  # "the project's reviewers"
    said = [w for w in snake(first).split("_") if w and w not in _ARTICLES]
    tries = [_from_id(operation_id, path)] if operation_id else []
    if "." not in operation_id:
        tries.append("_".join(said))
    for name in tries:
        if 2 <= len(name) <= NAME_MAX and name[0].isalpha():
            return name
    return None


def shortened(names: list[str], said: list[str | None]) -> list[tuple[str, str | None]]:
    """(name, alias) for each endpoint of an integration: its `readable` name with the
    unique name it had before as the alias, or that name and no alias when it has no
    readable one, or one another endpoint's would be too (never two calls one name)."""
    taken = Counter(s for s in said if s) + Counter(names)
    return [
        (s, n) if s is not None and taken[s] == 1 else (n, None)
        for n, s in zip(names, said, strict=True)
    ]


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
