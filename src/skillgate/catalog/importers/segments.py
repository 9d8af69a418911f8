"""Path parameters that may hold a slash (`multi_segment`).

A git ref (`heads/main`), a branch or tag name (`feature/x`), `BASE...HEAD` of
two such names, or a file path (`src/app.py`) contains `/` by nature, and the
provider's path takes it as several segments (GitHub's `/git/ref/heads/main`,
`/contents/src/app.py`). Such a parameter is marked `multi_segment`; the
executor then sends each of its segments percent-encoded once
(executor/request.py) instead of refusing the slash.

Rule (every importer; Google's reserved expansion `{+name}` is marked by its
own importer), for a path parameter:
- its placeholder fills a whole segment of the path (`/{ref}` or `/{ref}/...`,
  not `/{ref}.zip`), and no other parameter of the same path qualifies (two
  slashed values in one path could not be told apart);
- and it names a ref, branch, tag or file path: its wire name's last word is
  `ref`, `branch`, `tag`, `path`, `basehead` or `dir` (`ref`, `file_path`), or
  its description says "name of the branch/tag", "branch/tag name", "Git
  reference", "ref (branch or tag)" or "file path".
An identifier that only mentions such a thing (`branch_policy_id`, `tag_sha`)
is not marked. An overlay that restates the parameter (`multi_segment: true` or
`false`) overrides the rule (docs/catalog.md).
"""

from __future__ import annotations

import re

from skillgate.catalog.importers.params import Param

_WORDS = frozenset({"ref", "branch", "tag", "path", "basehead", "dir"})
_SAYS = re.compile(
    r"\bname of the (branch|tag)\b|\b(branch|tag) names?\b|\bgit ref(erence)?s?\b"
    r"|\bref \((branch|tag)\b|\bfile path\b",
    re.IGNORECASE,
)
_WORD_SPLIT = re.compile(r"[_\W]+|(?<=[a-z0-9])(?=[A-Z])")


def _names_a_ref_or_path(param: Param) -> bool:
    words = [w.lower() for w in _WORD_SPLIT.split(param.wire) if w]
    return (bool(words) and words[-1] in _WORDS) or bool(_SAYS.search(param.description))


def mark(path: str, params: list[Param]) -> None:
    """Mark the path's one ref/branch/tag/path parameter `multi_segment` (see above)."""
    segments = path.split("/")
    whole = [
        p
        for p in params
        if p.location == "path" and "{" + p.wire + "}" in segments and _names_a_ref_or_path(p)
    ]
    if len(whole) == 1 and not any(p.multi_segment for p in params):
        whole[0].multi_segment = True
