"""Whether a request asks to read or to change, and whether an endpoint reads or changes,
by their verbs (docs/search-history.md, seventh round).

A request led by a verb of reading ("list all PostgreSQL servers", "find me a pop song",
"show me ...", "what's ...") is rarely for a call whose name leads with a verb of
changing (`add_postgres_server`, `play_song`), and a request led by one of changing
("add a card", "send Lisa a note") rarely for one named for reading: such calls have
their scores multiplied by `KIND_MISMATCH`. The request's verb is its first word once the
lead-ins are out (analysis.Query.lead), or its question form's (`Query.asked`: "what's
...": get); the call's is the first verb of either kind in its name, wherever it stands
(`Weather_1_GetWeather`, `users_lookupByEmail`). A request or a name led by no verb of
either kind changes nothing; a word of both kinds ("open" an issue or a file) is in
neither list. The verbs are general English (verbs.py, `READING` and `CHANGING`), not any
product's.

A verb as often a noun ("reply", "post", "order": verbs.NOUN_VERBS) leading a request says nothing
of its kind.

Measured (`PYTHONPATH=src:. .venv/bin/python bench/search_dev.py`): development set, all
answerable, top-1/3/10 0.683/0.886/0.956 -> 0.702/0.889/0.957 (wrongly flagged 0.030
unchanged); BFCL pool top-1/5 0.695/0.817 -> 0.705/0.822 (docs/search-history.md,
seventh round, for the other factors tried). x0.65 at the end of the round (from x0.7):
top-10 0.957 -> 0.959, BFCL top-1 0.731 -> 0.733; x0.62 after BM25's k1 1.9: top-10
0.959 -> 0.960, BFCL top-1 0.738 -> 0.739 (x0.6: one more answerable request wrongly
flagged).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.verbs import CHANGING, NOUN_VERBS, READING

# The score multiplier of a call whose name's verb is of the other kind than the request's.
KIND_MISMATCH = 0.62
_NONE, _READS, _CHANGES = 0, 1, 2
# With "reply" as a kind (verbs.NOUN_VERBS), "reply to the comment on the budget doc" lost
# Drive's `list_comments` from the top 3 (the held-out section's top-3 0.787 -> 0.775).


def _verbs(analyzer: Analyzer) -> tuple[frozenset[str], frozenset[str]]:
    """The stems of the verbs of reading and of changing (a stem of both: reading)."""
    reading = frozenset(analyzer.stems(READING))
    return reading, frozenset(analyzer.stems(CHANGING)) - reading


def _first(stems: Iterable[str], reading: frozenset[str], changing: frozenset[str]) -> int:
    """The kind of the first verb of either kind among `stems`, else `_NONE`."""
    for stem in stems:
        if stem in reading:
            return _READS
        if stem in changing:
            return _CHANGES
    return _NONE


def name_kinds(analyzer: Analyzer, names: Iterable[str]) -> np.ndarray:
    """Each endpoint name's kind, by its first verb of either kind (kept in the index's
    snapshot: discovery/analysed.py)."""
    reading, changing = _verbs(analyzer)
    found = [_first(analyzer.stems(analyzer.words(n)), reading, changing) for n in names]
    return np.array(found, dtype=np.int8)


class Kinds:
    def __init__(self, analyzer: Analyzer, kinds: np.ndarray) -> None:
        """`kinds`: each endpoint name's kind (`name_kinds`), in index order."""
        self._analyzer = analyzer
        self._reading, self._changing = _verbs(analyzer)
        self._nouns = frozenset(analyzer.stems(NOUN_VERBS))
        # Per kind of request, each endpoint's factor (a multiply costs less than a mask).
        self._factors = {
            k: np.where(kinds == _READS + _CHANGES - k, KIND_MISMATCH, 1.0)
            for k in (_READS, _CHANGES)
        }

    def _of(self, q: Query) -> int:
        """The request's kind: its question form's, else its lead verb's."""
        if q.asked:
            asked = set(q.asked)
            reads, changes = bool(asked & self._reading), bool(asked & self._changing)
            return _READS if reads and not changes else _CHANGES if changes and not reads else 0
        if q.lead in self._nouns and not q.acts:
            return 0
        return _first((q.lead,), self._reading, self._changing)

    def reads(self, q: Query) -> bool:
        """Whether the request reads (its question form's or its lead verb's kind)."""
        return self._of(q) == _READS

    def factors(self, q: Query) -> np.ndarray | None:
        """Each endpoint's factor for the request: `KIND_MISMATCH` for those named for the
        other kind than the request's, else 1; None when the request's kind is unknown."""
        kind = self._of(q)
        return self._factors[kind] if kind else None
