"""The words a description writes only as the names of fields, which say what a call
returns or reads, never what it does (docs/catalog.md, "Search": the no-match flag).

Slack's `list_channels` says "Returns `channels` (id, name, is_private, is_archived,
...)": its document holds "archive", yet it archives nothing, and "archive the #q3-launch
channel in slack" (no call of Slack's archives) looked answered by it. A verb a request
asks with is held by an endpoint only where its name, the prose of its description or,
for a call that is no read, its parameters say it; one written only inside an identifier
(`is_archived`, `createdAt`, a code span, a link's `.../archives/...`) or a read's
parameter (`exclude_archived`: a filter) is a field. Read off the texts at each look
(a few `str.find`s): nothing kept, nothing analysed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from skillgate.catalog.models import Endpoint

# A letter in lower case before one in upper case: a camelCase identifier ("createdAt").
_CAMEL = re.compile(r"[a-z][A-Z]")


class Fields:
    def __init__(self, endpoints: Sequence[Endpoint]) -> None:
        """`endpoints`: in index order."""
        self._endpoints = endpoints

    def only(self, row: int, term: str, word: str = "") -> bool:
        """Whether endpoint `row` holds `term` (a stem: "archiv") only as a field's name
        (see above): inside an identifier of its description, and neither it nor `word`
        (the request's own, "archive") in its name, its prose or (no read) its
        parameters. Read as text, a few look-ups (a stem is a word's start: "archiv" of
        "archived"); no word is analysed here."""
        if not term:
            return False  # (an empty needle is found everywhere)
        e = self._endpoints[row]
        needles = (term, word) if word else (term,)
        if any(n in e.name for n in needles):
            return False
        if e.method != "GET" and any(n in p.name.lower() for p in e.parameters for n in needles):
            return False  # a read's parameters filter by fields
        text = e.description
        lower = text.lower()
        field = False
        for needle in needles:
            at = lower.find(needle)
            while at >= 0:
                if not _in_identifier(text, at):
                    return False  # said in prose
                field = True
                at = lower.find(needle, at + len(needle))
        return field


def _in_identifier(text: str, at: int) -> bool:
    """Whether the word of `text` holding position `at` is an identifier: a code span's,
    a link or path, a snake_case or a camelCase word."""
    start = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at)) + 1
    ends = [i for i in (text.find(" ", at), text.find("\n", at)) if i >= 0]
    token = text[start : min(ends) if ends else len(text)]
    return any(c in token for c in "_/`") or _CAMEL.search(token) is not None
