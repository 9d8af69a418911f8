"""The catalog's own words in the search index, apart from what users say.

An endpoint's BM25 document holds its own texts (name, category, product, description,
parameters: discovery/texts.py) and, for a curated endpoint, requests in users' words
that it answers (`Endpoint.says`, the catalog files' `says:` blocks). Those requests
find the endpoint for a request worded nothing like its documentation ("what's in the
kitty on stripe": `get_balance`), so the ranking reads them. The `match` of a result
(discovery/confidence.py) reads only the endpoint's own words: a phrasing's incidental
words ("the contractor payments this week") say nothing of what the call does, and
with them a request nothing here does ("renew my gym membership") would look answered.

The two weigh as two fields of one document (BM25F: `fielded`): each field's term
frequencies normalised by that field's own length, then added and saturated once. An
endpoint's phrasings, however many, so weigh a word by the share of them that use it,
and they take nothing from the weight of its own texts' words.

`own` marks, per entry of the BM25 score matrix (a term in a document, column-major as
bm25s keeps it), whether the endpoint's own texts hold the term (`fielded` finds them
with the scores). The match's term sets (`Documents`), its document frequencies
(`document_frequency`) and the rows a product's call is looked for in
(discovery/lacks.py, `Rows`) come from the marked entries alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import bm25s
import numpy as np

_KEPT = 2_048  # documents' term sets kept (`Documents.terms`)


def _entry_terms(starts: np.ndarray) -> np.ndarray:
    """Each score matrix entry's term (its column), from the columns' starts (`indptr`)."""
    return np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))


def document_frequency(bm25: bm25s.BM25, own: np.ndarray) -> dict[str, int]:
    """Per term, how many endpoints' own texts hold it (terms only users' phrasings
    hold are left out)."""
    if not bm25.vocab_dict:
        return {}  # nothing indexed (an empty catalog)
    starts = bm25.scores["indptr"]
    held = np.concatenate([[0], np.cumsum(own, dtype=np.intp)])
    counts = (held[starts[1:]] - held[starts[:-1]]).tolist()
    out: dict[str, int] = {}
    for term, t in bm25.vocab_dict.items():
        if t < len(counts) and counts[t]:  # not bm25s's empty-token entry, not only said
            out[term] = counts[t]
    return out


class Rows:
    """Per term, the documents whose own texts hold it (`get`, as discovery/lacks.py
    asks: is there a call of this product that says it?)."""

    def __init__(self, bm25: bm25s.BM25, own: np.ndarray) -> None:
        self._vocab = bm25.vocab_dict
        matrix = bm25.scores if bm25.vocab_dict else {}  # nothing indexed: no term
        self._docs = matrix.get("indices", np.zeros(0, np.intp))
        self._starts, self._own = matrix.get("indptr", np.zeros(1, np.intp)), own

    def get(self, term: str) -> np.ndarray | None:
        t = self._vocab.get(term)
        if t is None or t + 1 >= len(self._starts):
            return None
        start, end = self._starts[t], self._starts[t + 1]
        rows: np.ndarray = self._docs[start:end][self._own[start:end]].astype(np.intp)
        return rows


class Documents:
    """Each document's own terms, read from the score matrix (a term scores in every
    document that holds it) instead of kept as a set per endpoint."""

    def __init__(self, bm25: bm25s.BM25, own: np.ndarray) -> None:
        matrix = bm25.scores
        starts = matrix["indptr"]
        terms = _entry_terms(starts)[own]
        docs = matrix["indices"][own]
        order = np.argsort(docs, kind="stable")
        vocab = np.full(len(bm25.vocab_dict), "", dtype=object)
        for term, t in bm25.vocab_dict.items():
            vocab[t] = term
        # The terms themselves (the vocabulary's strings, shared), a tuple per document:
        # a document's set is then built in C from it (a numpy slice and its list cost more
        # than the set).
        flat = vocab[terms[order]].tolist()
        counts = np.bincount(docs, minlength=matrix["num_docs"])
        ends = np.cumsum(counts).tolist()
        self._rows = [
            tuple(flat[end - n : end]) for n, end in zip(counts.tolist(), ends, strict=True)
        ]
        # The sets last asked for (an answer's `match` reads its results' documents; the
        # same endpoints come up for many requests): at most `_KEPT`, ~1 KB each.
        self._sets: dict[int, frozenset[str]] = {}

    def terms(self, row: int) -> frozenset[str]:
        found = self._sets.get(row)
        if found is None:
            found = frozenset(self._rows[row])
            if len(self._sets) >= _KEPT:
                self._sets.clear()  # simpler than an LRU, as the search's other caches
            self._sets[row] = found
        return found


def fielded(
    bm25: bm25s.BM25,
    corpus: Sequence[Sequence[str]],
    lengths: Sequence[int],
    k1: float,
    b: float,
    aside: Sequence[int] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """`bm25`'s score matrix entries as BM25F of two fields, each document's first
    `lengths[d]` terms (its own texts) and the rest (its phrasings); and per entry whether
    the document's own texts hold its term (`own`). Each field's term frequency is divided
    by 1 - b + b x its length / that field's mean length (over the documents that have
    it; the own texts' length counting `aside[d]` terms left out of them); the two are
    added and saturated with `k1`; the idf is Lucene's, as bm25s's.
    A corpus without phrasings scores as bm25s scores it."""
    matrix = bm25.scores
    docs = matrix["indices"].astype(np.int64)
    starts = matrix["indptr"]
    terms = _entry_terms(starts)
    keys = terms * len(corpus) + docs
    own = [list(c[:cut]) for c, cut in zip(corpus, lengths, strict=True)]
    said = [list(c[cut:]) for c, cut in zip(corpus, lengths, strict=True)]
    frequencies = [_frequencies(bm25.vocab_dict, field, keys) for field in (own, said)]
    pseudo = np.zeros(len(keys))
    none = [0] * len(corpus)
    for field, frequency, pad in zip((own, said), frequencies, (aside or none, none), strict=True):
        length = np.array([len(c) + p for c, p in zip(field, pad, strict=True)], np.float64)
        if not length.any():
            continue
        norm = (1 - b) + b * length / length[length > 0].mean()
        pseudo += frequency / norm[docs]
    df = np.diff(starts).astype(np.float64)
    idf = np.log(1 + (len(corpus) - df + 0.5) / (df + 0.5))
    scores: np.ndarray = (idf[terms] * pseudo / (k1 + pseudo)).astype(matrix["data"].dtype)
    return scores, frequencies[0] > 0


def _frequencies(
    vocab: dict[str, int], field: Sequence[Sequence[str]], keys: np.ndarray
) -> np.ndarray:
    """How often each entry's term (`keys`: term x documents + document) is in its
    document's `field`."""
    n = len(field)
    pairs = np.fromiter((vocab[t] * n + d for d, c in enumerate(field) for t in c), np.int64)
    if not len(pairs):
        return np.zeros(len(keys), np.int64)
    found, counts = np.unique(pairs, return_counts=True)
    at = np.minimum(np.searchsorted(found, keys), len(found) - 1)
    return np.where(found[at] == keys, counts[at], 0)
