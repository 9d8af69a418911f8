"""The words a description writes only as the names of fields, which say what a call
returns or reads, never what it does (docs/catalog.md, "Search": the no-match flag).

Slack's `list_channels` says "Returns `channels` (id, name, is_private, is_archived,
...)": its document holds "archive", yet it archives nothing, and "archive the #q3-launch
channel in slack" (no call of Slack's archives) looked answered by it. A verb a request
asks with is held by an endpoint only where its name, the prose of its description or,
for a call that is no read, its parameters say it; one written only inside an identifier
(`is_archived`, `createdAt`, a code span, a link's `.../archives/...`) or a read's
parameter (`exclude_archived`: a filter) is a field. Read per endpoint on first need,
kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from skillgate.catalog.models import Endpoint

# An identifier in a description: a code span, a link or path, a snake_case or a camelCase
# word.
_IDENTIFIER = re.compile(r"`[^`]*`|\S*/\S+|\b\w*_\w+\b|\b[a-z]+[A-Z]\w*")


class Fields:
    def __init__(self, endpoints: Sequence[Endpoint], terms: Callable[[str], list[str]]) -> None:
        """`endpoints`: in index order; `terms`: the analyzer's terms of a text."""
        self._endpoints = endpoints
        self._terms = terms
        self._kept: dict[int, frozenset[str]] = {}

    def only(self, row: int, term: str) -> bool:
        """Whether endpoint `row` holds `term` only as a field's name (see above)."""
        return term in self._only(row)

    def _only(self, row: int) -> frozenset[str]:
        found = self._kept.get(row)
        if found is None:
            e = self._endpoints[row]
            written = _IDENTIFIER.findall(e.description)
            if not written:
                found = frozenset()
            else:
                said = [e.name.replace("_", " "), _IDENTIFIER.sub(" ", e.description)]
                if e.method != "GET":  # a read's parameters filter by fields
                    said += [p.name for p in e.parameters]
                own = " ".join(said)
                found = frozenset(self._terms(" ".join(written))) - set(self._terms(own))
            self._kept[row] = found
        return found
