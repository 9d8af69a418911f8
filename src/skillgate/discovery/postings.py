"""The search index's term postings (discovery/search.py): per term, the rows of the
score vector it adds to and what it adds to each, so that a query's raw scores are one
scattered sum over its terms' lists however many terms it has (the floats of a
`bincount` over them).

The vector has 2n bins for n endpoints: first each document's BM25 score (bm25s's
score matrix, read once at start-up), then each endpoint's share of name terms the
query holds (search.NAME_COVER makes it a multiplier). A query's own terms add their
values, the terms the synonym tables add (discovery/synonyms.py) `RELATED_WEIGHT` of
them, its content words ("about the invoice") `CONTENT_WEIGHT` of them.
"""

from __future__ import annotations

from collections.abc import Callable, Container

import bm25s
import numpy as np

from skillgate.discovery.analysis import Analyzer, Query

# A related term's (synonym table) share of a query term's score.
RELATED_WEIGHT = 0.8
# A content term's share of a query term's score: the words after "about", "called",
# "saying"... (analysis.Query.content) are what to send or find, not which call does it;
# they only break ties. Measured on the evaluation set (docs/catalog.md, "Search"):
# 0 to 0.5 the same, 1.0 one task fewer first.
CONTENT_WEIGHT = 0.3

# A term in this many rows or more is summed as a whole vector of 2n instead (`sums`):
# a pass over the vector costs less than gathering and scattering its thousands of rows.
# The few such terms ("get", "list", "user": 8 of ~3,700 over the shipped catalog, ~2.5 MB
# as own and related values) hold two thirds of a request's rows.
DENSE_FROM = 2_000

# A term's postings: rows, own values, related values, and whether the term is in any
# endpoint's name.
Posting = tuple[np.ndarray, np.ndarray, np.ndarray, bool]
# What `sums` adds, in the query's order: a whole vector, or rows and their values.
_Step = np.ndarray | tuple[list[np.ndarray], list[np.ndarray]]


class Postings:
    def __init__(self, bm25: bm25s.BM25, names: list[list[str]]) -> None:
        """`bm25`: the index's documents scored; `names`: each endpoint's name terms."""
        self.n = len(names)
        self.names = _name_index(names)
        self.lists = self._lists(bm25) if bm25.vocab_dict else {}
        self._zeros = np.zeros(2 * self.n)  # each query's sums start from a copy
        # The terms of the most rows as vectors of 2n: own values, related values.
        self._dense = {
            term: (self._vector(p[0], p[1]), self._vector(p[0], p[2]))
            for term, p in self.lists.items()
            if len(p[0]) >= DENSE_FROM
        }

    def _vector(self, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
        vector = np.zeros(2 * self.n)
        vector[rows] = values
        return vector

    def _lists(self, bm25: bm25s.BM25) -> dict[str, Posting]:
        """Per term: the rows it adds to (its documents' BM25 rows, then `n` + the
        endpoints whose name holds it) and what it adds to each, as a query's own term
        and as a related term; the last item says whether the term is in any name."""
        n = self.n
        matrix = bm25.scores  # per term, its documents and BM25 scores (column-major)
        data, docs, starts = matrix["data"], matrix["indices"], matrix["indptr"]
        postings: dict[str, Posting] = {}
        for term, t in bm25.vocab_dict.items():
            if t + 1 >= len(starts):
                continue  # bm25s's empty-token entry
            start, end = starts[t], starts[t + 1]
            named, share = self.names.get(term, (np.zeros(0, np.intp), np.zeros(0)))
            # The related weight applied to the float32 scores as bm25s holds them.
            own, related = data[start:end], data[start:end] * RELATED_WEIGHT
            postings[term] = (
                np.concatenate([docs[start:end], named + n]).astype(np.intp),
                np.concatenate([own.astype(np.float64), share]),
                np.concatenate([related.astype(np.float64), share * RELATED_WEIGHT]),
                term in self.names,
            )
        return postings

    def sums(self, q: Query) -> tuple[np.ndarray, bool] | None:
        """2n sums for the query: each document's BM25 score, then each endpoint's share
        of name terms the query holds (related terms at their weight), and whether any
        term of the query is in a name; None when no term of the query is indexed."""
        steps: list[_Step] = []
        rows: list[np.ndarray] = []
        values: list[np.ndarray] = []
        named = False
        postings, dense = self.lists, self._dense
        # Each kind of term with the posting values it adds: own, related (their own
        # list, weighted once at start-up), content (own values at CONTENT_WEIGHT).
        for terms, related, weight in (
            (q.terms, False, None),
            (q.related, True, None),
            (q.content, False, CONTENT_WEIGHT),
        ):
            for term in terms:
                found = postings.get(term)
                if found is None:
                    continue
                named |= found[3]
                vector = dense[term][related] if term in dense else None
                if vector is not None:
                    if rows:
                        steps.append((rows, values))
                        rows, values = [], []
                    steps.append(vector if weight is None else vector * weight)
                    continue
                value = found[2] if related else found[1]
                rows.append(found[0])
                values.append(value if weight is None else value * weight)
        if rows:
            steps.append((rows, values))
        return (self._summed(steps), named) if steps else None

    def _summed(self, steps: list[_Step]) -> np.ndarray:
        """The sum of `steps`, each bin adding its values in their order (so the same
        floats as one `bincount` over every row). A bin starts at 0; a vector adds 0 to
        the bins its term is not in, which changes no sum (every value is positive)."""
        # New zeros as a pass of arithmetic over kept ones: `np.zeros` (and `bincount`'s
        # bins) clear memory with `rep stosb`, which an instruction count such as
        # bench/instructions.py counts byte by byte (~150k for 2n bins, five times this).
        first = steps[0]
        if isinstance(first, np.ndarray):  # the sums' start itself (0 + x is x): one pass
            sums = first + 0.0
            steps = steps[1:]
        else:
            sums = self._zeros + 0.0
        for step in steps:
            if isinstance(step, np.ndarray):
                sums += step
            elif len(step[0]) == 1:  # one term's rows: no copy of them to join
                np.add.at(sums, step[0][0], step[1][0])
            else:
                np.add.at(sums, np.concatenate(step[0]), np.concatenate(step[1]))
        return sums


def _name_index(names: list[list[str]]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per term, the endpoints whose name holds it and the term's share of the name."""
    docs: dict[str, list[int]] = {}
    shares: dict[str, list[float]] = {}
    for i, words in enumerate(names):
        for w in words:
            docs.setdefault(w, []).append(i)
            shares.setdefault(w, []).append(1 / len(words))
    return {w: (np.array(d), np.array(shares[w])) for w, d in docs.items()}


KNOWN_MAX = 100_000  # words whose answer `knowing` keeps (~10 MB at most)


def knowing(analyzer: Analyzer, postings: Container[str]) -> Callable[[str], bool]:
    """Whether `postings` (the index's terms) hold a word's term (as a query's own word
    would be). Not a method: the speller holding the index would make a cycle, which the
    collector never frees once the server froze it (gc.freeze), and a reload would keep
    every old index."""

    # A word's answer, kept: a new request's words are mostly words asked before (the
    # semantic second look asks of each word of every request, `unknown_share`), and the
    # answer depends on the word alone. Bounded as the analyzer's stems are.
    known: dict[str, bool] = {}

    def knows(word: str) -> bool:
        found = known.get(word)
        if found is None:
            terms = analyzer.terms(word)
            found = bool(terms) and terms[0] in postings
            if len(known) < KNOWN_MAX:
                known[word] = found
        return found

    return knows
