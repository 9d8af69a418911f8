"""The catalog as the search index reads it: each endpoint's BM25 document scored
(bm25s), each endpoint name's terms, the catalog's words for the speller, and what the
index derives from each endpoint's name and parameters (`Derived`). Analysing the texts
is most of an index's start-up (~0.1 ms of CPU per endpoint), so it is kept
as a snapshot keyed by the catalog's digest and the code that analyses it; a server
start or a reload serving the same catalog reads it back instead (numpy arrays and
JSON in one `.npz`, read without pickle). The directory is the catalog snapshots'
(catalog.snapshot: `SKILLGATE_CACHE_DIR`); an unreadable or mismatched entry is a
miss, and the catalog is analysed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import zipfile
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import bm25s
import numpy as np
import orjson

from skillgate.catalog import snapshot
from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery import parts
from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.kinds import name_kinds
from skillgate.discovery.own import fielded
from skillgate.discovery.spelling import name_words
from skillgate.discovery.texts import fields, named_by_path, others, said, summary
from skillgate.discovery.values import taken
from skillgate.discovery.world import taken_out

# bm25s sets its own logger to DEBUG: its "building index" lines are not ours to print.
logging.getLogger("bm25s").setLevel(logging.WARNING)

# How many times each field's terms go into an endpoint's document; `says`: the requests in
# users' words a curated endpoint answers (discovery/own.py).
FIELD_WEIGHTS = {
    "name": 8, "category": 4, "integration": 4, "description": 2, "parameters": 1, "says": 1
}  # fmt: skip
# A name an importer made of the method and path (Stripe's `post_accounts_account_login_
# links`) says little about what the call does: for such an endpoint the description's
# first sentence (the operation's summary, "Restore file.") counts `SUMMARY_WEIGHT`
# times more. (Weighing such a name less, x2 to x6 instead of x8, changed nothing
# measurable: its words are the path's, which other fields do not hold.)
SUMMARY_WEIGHT = 4
# BM25 (Lucene variant): term-frequency saturation and length normalisation. K1 1.9 (2.0
# before issue 26's seventh round: development set all answerable top-3 0.901 -> 0.903,
# BFCL top-1/5 0.736/0.842 -> 0.738/0.844; 1.6: BFCL 0.741 but top-10 0.959 -> 0.954).
K1 = 1.9
B = 0.9
_ARRAYS = ("data", "indices", "indptr")
_DERIVED = ("taken", "kinds")  # `Derived`'s arrays (its other parts: in the JSON)
# What reading a damaged or foreign file raises: a miss, analysed again.
_DAMAGED = (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile)
KEEP = 16  # index snapshots kept (one per catalog digest; the oldest go)


@dataclass
class Derived:
    """What the index's parts read off each endpoint's name and parameters."""

    taken: np.ndarray  # each endpoint's values taken, as bits (values.taken)
    kinds: np.ndarray  # each endpoint name's kind, reading or changing (kinds.name_kinds)
    dropped: list[str]  # the world table's entries the names take out (world.taken_out)
    named: dict[str, int]  # how many names hold each word (spelling.name_words)


@dataclass
class Analysed:
    bm25: bm25s.BM25  # its `scores` (a CSC matrix: per term its documents) and `vocab_dict`
    names: list[list[str]]  # each endpoint's name terms, distinct and sorted
    words: list[tuple[str, int]]  # the words of the catalog's texts, how often each occurs
    derived: Derived
    own: np.ndarray  # per score matrix entry, whether the endpoint's own texts hold it

    @property
    def indexed(self) -> bool:
        return bool(self.bm25.vocab_dict)


def _document(
    analyzer: Analyzer, integration: Integration, e: Endpoint, seen: dict[str, list[str]]
) -> tuple[list[str], int, int]:
    """The endpoint's BM25 document: each field's terms, its weight times, then users'
    phrasings' (`says`, discovery/own.py); how many of its terms are its own texts'; and
    how many its description's clauses pointing to another call would have been (left
    out of the document, `texts.others`, but not of its length: a document made shorter
    by them would score higher for every word it keeps)."""
    weights = FIELD_WEIGHTS
    texts = fields(integration, e)
    texts["description"], aside = others(e.description, integration.named, e.name)
    left_out = len(analyzer.terms(aside)) * weights["description"] if aside else 0
    if named_by_path(e):
        weights = {**weights, "summary": SUMMARY_WEIGHT}
        texts["summary"] = summary(e.description)
    terms: list[str] = []
    for field, text in texts.items():
        words = seen.get(text)
        if words is None:
            words = seen[text] = analyzer.terms(text)
        terms += words * weights[field]
    length = len(terms)
    if e.says:
        terms += analyzer.terms(said(e)) * weights["says"]
    return terms, length, left_out


@dataclass
class Part:
    """One integration's endpoints analysed: what `analyse` reads of each integration, kept
    per integration so that a catalog of one new or changed file analyses only that one."""

    documents: list[list[str]]  # each endpoint's BM25 document (`_document`)
    lengths: list[int]  # each document's own texts' terms (the rest: phrasings)
    aside: list[int]  # each document's own texts' terms left out but counted (`_document`)
    names: list[list[str]]  # each endpoint's name terms, distinct and sorted
    spoken: list[tuple[str, int]]  # the integration's texts and how often each is said


def part(analyzer: Analyzer, integration: Integration, seen: dict[str, list[str]]) -> Part:
    """`integration` analysed (`seen`: the texts' terms so far, which repeat)."""
    out = Part([], [], [], [], [])
    spoken: Counter[str] = Counter()
    for e in integration.endpoints:
        document, length, aside = _document(analyzer, integration, e, seen)
        out.documents.append(document)
        out.lengths.append(length)
        out.aside.append(aside)
        out.names.append(sorted(set(analyzer.terms(e.name))))
        spoken.update(fields(integration, e).values())
    out.spoken = list(spoken.items())
    return out


def analyse(catalog: Catalog, analyzer: Analyzer) -> Analysed:
    """Every endpoint of the catalog, in catalog order, analysed and scored; each
    integration's part from its snapshot when one holds (`parts.read`)."""
    corpus: list[list[str]] = []
    lengths: list[int] = []
    aside: list[int] = []
    names: list[list[str]] = []
    seen: dict[str, list[str]] = {}  # parameter lists and categories repeat
    spoken: Counter[str] = Counter()  # the catalog's texts, for the speller
    for slug, integration in catalog.integrations.items():
        key = _part_key(slug, catalog.parts.get(slug, ""))
        found = _kept_part(key, len(integration.endpoints))
        if found is None:
            found = part(analyzer, integration, seen)
            parts.write(key, found)
        corpus += found.documents
        lengths += found.lengths
        aside += found.aside
        names += found.names
        for text, n in found.spoken:  # in the catalog's order, as one pass would count
            spoken[text] += n
    words: Counter[str] = Counter()
    for text, n in spoken.items():
        for word in analyzer.words(text):
            words[word] += n
    bm25 = bm25s.BM25(k1=K1, b=B)
    if any(corpus):  # bm25s cannot index nothing
        bm25.index(corpus, show_progress=False)
        own = np.ones(len(bm25.scores["data"]), dtype=bool)  # without phrasings: all own
        if any(len(c) > cut for c, cut in zip(corpus, lengths, strict=True)):
            # Own texts and phrasings as two fields (own.fielded; bm25s has one).
            bm25.scores["data"], own = fielded(bm25, corpus, lengths, K1, B, aside)
    else:
        bm25.vocab_dict = {}
        own = np.zeros(0, dtype=bool)
    return Analysed(bm25, names, list(words.items()), derive(catalog, analyzer), own)


def derive(catalog: Catalog, analyzer: Analyzer) -> Derived:
    """The catalog's `Derived` parts."""
    endpoints = [e for i in catalog.integrations.values() for e in i.endpoints]
    names = [e.name for e in endpoints]
    dropped = sorted(taken_out(names))
    return Derived(taken(endpoints), name_kinds(analyzer, names), dropped, name_words(names))


@cache
def _code() -> bytes:
    """What decides the analysis besides the catalog: the discovery modules' code."""
    h = hashlib.sha256(b"%s:%s" % (bm25s.__version__.encode(), np.__version__.encode()))
    for source in sorted(Path(__file__).parent.glob("*.py")):
        h.update(source.name.encode() + b"\0" + source.read_bytes())
    return h.digest()


def _kept_part(key: str, endpoints: int) -> Part | None:
    """The part kept under `key` if it is one for `endpoints` endpoints, else None."""
    data = parts.read(key)
    if data is None:
        return None
    with contextlib.suppress(KeyError, TypeError, ValueError):
        found = Part(*(data[k] for k in ("documents", "lengths", "aside", "names", "spoken")))
        lists = (found.documents, found.lengths, found.aside, found.names)
        sized = all(isinstance(x, list) and len(x) == endpoints for x in lists)
        if sized and all(isinstance(t, str) and isinstance(n, int) for t, n in found.spoken):
            return found
    return None


def _part_key(slug: str, digest: str) -> str:
    """What keys an integration's part: its files, the analysing code, the weights."""
    if not digest:
        return ""
    weights = orjson.dumps([FIELD_WEIGHTS, SUMMARY_WEIGHT])
    return hashlib.sha256(_code() + weights + f"{slug}:{digest}".encode()).hexdigest()


def _path(catalog: Catalog) -> Path | None:
    folder = snapshot.directory()
    if folder is None or not catalog.digest or not snapshot.trusted(folder):
        return None
    # The weights too: a test or an experiment may set them (the code says the rest), and
    # the code that loaded the catalog (its digest is its files').
    weights = orjson.dumps([FIELD_WEIGHTS, SUMMARY_WEIGHT, K1, B])
    loaded = snapshot.code() + catalog.digest.encode()
    name = hashlib.sha256(_code() + weights + loaded).hexdigest()
    return folder / f"index-{name}.npz"


def _read(path: Path, endpoints: int) -> Analysed | None:
    with path.open("rb") as fh, np.load(fh, allow_pickle=False) as stored:
        meta = orjson.loads(stored["meta"].tobytes())
        arrays = {k: stored[k] for k in _ARRAYS}
        bits, kinds = (stored[k] for k in _DERIVED)
        own = stored["own"]
    if len(meta["names"]) != endpoints or len(bits) != endpoints or len(kinds) != endpoints:
        return None
    if len(own) != len(arrays["indices"]) or own.dtype != np.bool_:
        return None
    bm25 = bm25s.BM25(k1=K1, b=B)
    bm25.scores = {**arrays, "num_docs": endpoints}
    bm25.vocab_dict = meta["vocab"]
    derived = Derived(bits, kinds, meta["dropped"], meta["named"])
    return Analysed(bm25, meta["names"], [(w, n) for w, n in meta["words"]], derived, own)


def _write(path: Path, analysed: Analysed) -> None:
    derived = analysed.derived
    meta = {
        "vocab": analysed.bm25.vocab_dict,
        "names": analysed.names,
        "words": analysed.words,
        "dropped": derived.dropped,
        "named": derived.named,
    }
    arrays = {k: analysed.bm25.scores[k] for k in _ARRAYS} if analysed.indexed else {}
    arrays = {k: arrays.get(k, np.zeros(0)) for k in _ARRAYS}
    arrays.update((k, getattr(derived, k)) for k in _DERIVED)
    arrays["own"] = analysed.own
    buffer = io.BytesIO()
    np.savez(buffer, meta=np.frombuffer(orjson.dumps(meta), dtype=np.uint8), **arrays)
    snapshot.write(path.parent, path.name, buffer.getvalue(), "index-*.npz", KEEP)


def for_catalog(catalog: Catalog, analyzer: Analyzer) -> Analysed:
    """The catalog analysed: from its snapshot when there is one, else analysed now
    (and kept)."""
    path = _path(catalog)
    endpoints = catalog.endpoint_count
    if path is not None:
        with contextlib.suppress(*_DAMAGED):
            found = _read(path, endpoints)
            if found is not None:
                return found
    analysed = analyse(catalog, analyzer)
    if path is not None:
        with contextlib.suppress(OSError):
            _write(path, analysed)
    return analysed
