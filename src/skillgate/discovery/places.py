"""A place asked about is asked for its contents (docs/search-history.md, twelfth round).

"What's on my calendar friday", "what's in my Box folder Contracts": the request names a
place (analysis.Query.places: the calendar, the folder) and asks what it holds, the
events or the files. A call named for the place itself, one (`get_calendar`) or the list
of such places (`list_calendars`), is not what is asked: its score is multiplied by
`PLACE_ITSELF`. A call named for the place and what it holds (`list_folder_items`,
`list_calendar_view`) or for the place alone without a plural (`list_folder`, which lists
the folder's children) is not.

Measured (`PYTHONPATH=src:. .venv/bin/python bench/search_dev.py`): development set
top-1 / 3 hits +1 / +1 ("what's on my Google calender for friday?": `list_calendars`
then `list_events`, now the other way), nothing else changed, BFCL unchanged; the
factor 0.5 to 0.9 measured the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np

from skillgate.discovery.analysis import Analyzer

PLACE_ITSELF = 0.8
# The verbs of a name that read one thing or list many: the rest of the name is its object.
_READING = frozenset(["get", "list", "read", "retrieve", "fetch", "show"])


class Places:
    def __init__(self, analyzer: Analyzer, names: Iterable[str]) -> None:
        """`names`: the endpoints' names, in index order. Kept: per object's terms, the
        endpoints named for reading that object itself (one, or a plural's list)."""
        found: dict[frozenset[str], list[int]] = {}
        for i, name in enumerate(names):
            words = name.lower().split("_")
            rest = [w for w in words if w not in _READING]
            if not rest or len(rest) == len(words):
                continue  # no object, or no verb of reading
            if words[0] != "get" and not any(w.endswith("s") for w in rest):
                continue  # `list_folder`: the folder's contents
            terms = frozenset(t for w in rest for t in analyzer.terms(w))
            if terms:
                found.setdefault(terms, []).append(i)
        self._itself = {terms: np.array(rows) for terms, rows in found.items()}
        self._longest = max(map(len, found), default=0)

    def rows(self, places: tuple[str, ...]) -> list[np.ndarray]:
        """The rows of the calls named for `places` (a request's) themselves, or some of them."""
        out = []
        for size in range(1, min(len(places), self._longest) + 1):
            for some in combinations(places, size):
                rows = self._itself.get(frozenset(some))
                if rows is not None:
                    out.append(rows)
        return out
