"""A place asked about is asked for its contents (docs/search-history.md, twelfth round),
and a place a request's object is in or goes to is not its object (twentieth round).

"What's on my calendar friday", "what's in my Box folder Contracts": the request names a
place (analysis.Query.places: the calendar, the folder) and asks what it holds, the
events or the files. A call named for the place itself, one (`get_calendar`) or the list
of such places (`list_calendars`), is not what is asked: its score is multiplied by
`PLACE_ITSELF`. A call named for the place and what it holds (`list_folder_items`,
`list_calendar_view`) or for the place alone without a plural (`list_folder`, which lists
the folder's children) is not.

"List the files *in the backups bucket*", "add 'Airport pickup' *to my calendar*", "invite
her *to the #onboarding channel*": the request names its object and then, after a
preposition and a determiner, the place it is in or goes to (`within`, analysis.Query.
within). Neither reading the place itself (`list_buckets`) nor making one
(`create_calendar`, `create_channel`: named for creating, inserting or making the place)
is asked: both are multiplied by `PLACE_ITSELF`. Not after a word that asks about what
follows ("the details *on the* infra repo": the repo is the object), nor for a place said
in the plural ("save Dr. Patel *in my contacts*": the list of such things, whose new one
is asked for).

Measured (`PYTHONPATH=src:. .venv/bin/python bench/search_dev.py`): development set
top-1 / 3 hits +1 / +1 ("what's on my Google calender for friday?": `list_calendars`
then `list_events`, now the other way), nothing else changed, BFCL unchanged; the
factor 0.5 to 0.9 measured the same. The place a request's object is in: development set
top-1 0.834 -> 0.838 (top-3 and top-10 the same), each of the seven catalog-wide measures
+0.1 to +0.5 points at top-1 and +0.1 to +0.3 at top-3, BFCL unchanged; at x0.6 it lost
more than it gained (docs/search-history.md, twentieth round).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from skillgate.discovery.analysis import Analyzer, Query

PLACE_ITSELF = 0.8
# The verbs of a name that read one thing or list many: the rest of the name is its object.
_READING = frozenset(["get", "list", "read", "retrieve", "fetch", "show"])
# The verbs of a name that make one: the rest of the name is what it makes.
_MAKING = frozenset(["create", "insert", "new", "add", "make"])
# The place after the request's object: a preposition and a determiner (after at least two
# words, `within`), then up to four words, ending before the next preposition or conjunction.
_WITHIN = re.compile(
    r"\s(?:in|on|inside|within|under|from|to|into|onto)\s+(?:the|my|our|this|that|your|his"
    r"|her|their)\s+(?P<place>[\w#'-]+(?:\s+(?!(?:in|on|at|to|for|from|with|and|or|of|by"
    r"|under|inside|into|so|but)\b)[\w#'-]+){0,3})",
    re.IGNORECASE,
)
# Words after which "on the ..." says what is asked about ("the details on the repo").
_ABOUT = frozenset(
    ["details", "detail", "info", "information", "lowdown", "rundown", "settings",
     "summary", "status", "overview", "breakdown", "update", "updates", "more", "stats",
     "report", "notes"]
)  # fmt: skip


def within(request: str) -> str:
    """The words of the place the object of `request` (its first clause) is in or goes
    to, or "" (none, a word asking about what follows, a plural)."""
    clause = request.split(" . ", 1)[0]
    for found in _WITHIN.finditer(clause):
        before = clause[: found.start()].split()
        if len(before) < 2:
            continue
        if before[-1].lower() in _ABOUT:
            return ""
        place = found["place"]
        head = place.rsplit(None, 1)[-1].lower()
        return "" if head.endswith("s") and not head.endswith("ss") else place
    return ""


class Places:
    def __init__(self, analyzer: Analyzer, names: Iterable[str]) -> None:
        """`names`: the endpoints' names, in index order. Kept: per object's terms, the
        endpoints named for reading that object itself (one, or a plural's list), and
        those named for making one."""
        reading: dict[frozenset[str], list[int]] = {}
        making: dict[frozenset[str], list[int]] = {}
        for i, name in enumerate(names):
            words = name.lower().split("_")
            if words[0] in _MAKING and len(words) > 1:
                terms = frozenset(t for w in words[1:] for t in analyzer.terms(w))
                if terms:
                    making.setdefault(terms, []).append(i)
            rest = [w for w in words if w not in _READING]
            if not rest or len(rest) == len(words):
                continue  # no object, or no verb of reading
            if words[0] != "get" and not any(w.endswith("s") for w in rest):
                continue  # `list_folder`: the folder's contents
            terms = frozenset(t for w in rest for t in analyzer.terms(w))
            if terms:
                reading.setdefault(terms, []).append(i)
        self._itself = {terms: np.array(rows) for terms, rows in reading.items()}
        self._made = {terms: np.array(rows) for terms, rows in making.items()}
        self._longest = max(map(len, reading), default=0)

    def rows(self, q: Query) -> list[np.ndarray]:
        """The rows of the calls named for the places of `q` themselves (reading them, or
        some of them; making the place its object is in, `within`)."""
        out = self._named(self._itself, q.places, self._longest)
        if q.within:
            out += self._named(self._itself, q.within, self._longest)
            out += self._named(self._made, q.within, 2)
        return out

    @staticmethod
    def _named(
        named: dict[frozenset[str], np.ndarray], places: tuple[str, ...], longest: int
    ) -> list[np.ndarray]:
        out = []
        for size in range(1, min(len(places), longest) + 1):
            for some in combinations(places, size):
                rows = named.get(frozenset(some))
                if rows is not None:
                    out.append(rows)
        return out
