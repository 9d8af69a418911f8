"""The semantic second look at the first stage's best candidates (docs/catalog.md,
"Search"; issue 26).

A static word-embedding model turns each endpoint's text (product, name words, the
description's first sentence, path words; its phrasings at `SAYS_WEIGHT`) and the request
into unit vectors: WordLlama's `l2_supercat` token vectors (the `wordllama` wheel on PyPI
ships them, with their tokenizer; nothing is downloaded, ever), truncated to their first
`DIMS` dimensions (the model is trained so that a prefix is itself an embedding),
averaged over the tokens.

The first stage's best `DEPTH` candidates are then re-ordered by their score as a share
of the best plus `WEIGHT` x their cosine to the request. Only candidates of the first
candidate's integration move on the cosine: one of another integration counts the first
one's cosine (it keeps its place by score). The model tells "list" from "create" within a
product better than BM25's shared words do, but weighs products badly: let loose across
integrations it traded as many development-set requests for others as it gained.

Measured (docs/search-history.md, "The semantic second look"; `bench/search_semantic.py`):
development set, all answerable, top-1/3/10 0.636/0.851/0.929 -> 0.653/0.858/0.929, no kind
of request losing at any depth; BFCL pool top-1 0.640 -> 0.666, top-5 0.792 -> 0.805.
Costs: the model's files read at start-up (~0.2 s), each endpoint embedded once per
catalog (~1 s for 8,331, then read back from the snapshot folder), +46 MB resident
(tokenizer, 16 MB of weights as float32, the vectors), a new query's p50 +0.06 ms.

Off with `SKILLGATE_SEMANTIC=0`, or without the package: search is then the first stage
alone, exactly as before.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import re
from collections.abc import Callable, Container, Mapping, Sequence
from functools import cache
from importlib.metadata import version
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from skillgate.catalog import snapshot
from skillgate.discovery import parts, texts

if TYPE_CHECKING:
    from skillgate.discovery.hit import Hit

# `SKILLGATE_SEMANTIC=0` (or off/false/no) turns the second look off.
ENV = "SKILLGATE_SEMANTIC"
# The first stage's candidates the cosine re-orders (20 to 50 measured the same before
# issue 26's seventh round; then 50 against 30: BFCL top-5 0.840 -> 0.842, the development
# set unchanged).
DEPTH = 50
# The cosine's weight beside the score as a share of the best (0.4 to 0.6 measured alike;
# issue 26, twenty-seventh round, the first stage's ranking much changed since: 0.5 -> 0.65,
# development all answerable top-1/3/10 2207/2502/2578 -> 2213/2501/2580 of 2,600, the
# catalog-wide phrasings 12747/18276/21955 -> 12838/18321/21978 of 24,775, BFCL top-1/5
# 0.744/0.850 -> 0.745/0.857; 0.4: development 2195/2498/2577; 0.8 and 1.0: development
# top-1 2208 and 2207, catalog-wide top-1 12915 and 13030 but top-10 lower).
WEIGHT = 0.65
# The words of a request the catalog does not know ("find me a *psychologist*", "a *taxi*
# to the airport") are evidence the first stage could not weigh, and the model may: the
# cosine's weight is multiplied by 1 + `UNKNOWN_GAIN` x their share of the request's words
# (`unknown_share`). Measured (docs/search-history.md, seventh round): development set
# unchanged (all answerable), BFCL top-1/5 0.708/0.824 -> 0.710/0.828; x4: 0.714/0.833 but
# the development set's top-1 0.708 -> 0.705, top-3 0.895 -> 0.893.
UNKNOWN_GAIN = 2.0
# The model's dimensions kept (of 256): half the memory, and measured as good or better.
DIMS = 128
# An endpoint with phrasings (`Endpoint.says`, their values left out: `texts.said`) has its
# vector moved toward theirs: its own texts' vector plus this share of the phrasings', made
# unit, so a request in users' words comes nearer the call people asked for in such words.
# Measured (docs/search-history.md, fifteenth round): the development set unchanged, each
# catalog-wide measure +0.4 to +1.6 points at top-3, BFCL unchanged (no phrasings); 0.3:
# development top-1 -3; 0.8: +1 and wrongly flagged +1 on the curated measure.
SAYS_WEIGHT = 0.5

# The model's files in the wordllama wheel (its default, 256 dimensions of which DIMS kept).
_CONFIG = "l2_supercat"
KEEP = 16  # vector snapshots kept (one per catalog digest; the oldest go)
# The tokenizer's mark of a space ("\u2581", SentencePiece's), and the words whose token
# ids are kept (`Model.ids`; then the others are encoded each time).
_MARK = "\u2581"
_WORDS = 50_000
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
# A word standing alone (no id, reference or address), as the speller reads one.
_ALONE = re.compile(r"(?<![\w\-/.@#:])[A-Za-z]{3,}(?![\w\-/.@])")
_SPLIT = re.compile(r"[_/{}.\-]+")


def _words(identifier: str) -> str:
    return _SPLIT.sub(" ", _CAMEL.sub(r"\1 \2", identifier))


def endpoint_text(h: Hit) -> str:
    """What an endpoint does, in words: its product, name, first sentence, path."""
    e = h.endpoint
    return (
        f"{h.integration.name}: {_words(e.name)}. {texts.summary(e.description)} {_words(e.path)}"
    )


def _vectors(model: Model, hits: Sequence[Hit]) -> np.ndarray:
    """Each endpoint's vector (`hits` in row order): its own texts' (`endpoint_text`), and
    for one with phrasings, that plus `SAYS_WEIGHT` x theirs (`texts.said`), made unit."""
    vectors = model.embed([endpoint_text(h) for h in hits])
    rows = [i for i, h in enumerate(hits) if h.endpoint.says]
    if rows:
        mixed = vectors[rows] + SAYS_WEIGHT * model.embed(
            [texts.said(hits[i].endpoint) for i in rows]
        )
        mixed /= np.maximum(np.linalg.norm(mixed, axis=1, keepdims=True), 1e-6)
        vectors[rows] = mixed
    return vectors


def unknown_share(text: str, knows: Callable[[str], bool], said: Container[str]) -> float:
    """The share of `text`'s words the catalog does not know (`knows`: whether the index
    holds a word's term), among its words of three letters or more but names (a capital
    after the first word), ids and the words that say nothing (`said`: stop words,
    lead-ins, filler)."""
    known = unknown = 0
    for i, word in enumerate(_ALONE.findall(text)):  # (no group: the words; no match made)
        lower = word.lower()
        if (i and lower != word) or lower in said:
            continue
        if knows(lower):
            known += 1
        else:
            unknown += 1
    return unknown / (known + unknown) if unknown else 0.0


def enabled() -> bool:
    return os.environ.get(ENV, "1").strip().lower() not in {"0", "off", "false", "no"}


class Model:
    """A static embedding model: a text's vector is the mean of its tokens' vectors,
    made unit length (WordLlama's pooling; `model()` loads its files)."""

    def __init__(self, tokenizer: Any, weights: np.ndarray) -> None:
        self._tokenizer = tokenizer
        # The model's own tokenize, looked up once: `tokenizer.model` makes a new Python
        # object around the model at each read (~15 us under a profiler, per request).
        self._tokenize = tokenizer.model.tokenize
        self._weights = weights  # one row per token id, float32
        self._words: dict[str, list[int]] = {}  # a word's token ids (`ids`)

    def vector(self, text: str) -> np.ndarray:
        return self._pooled(self.ids(text))

    def ids(self, text: str) -> list[int]:
        """The text's token ids, as the tokenizer gives them for the whole text, from each
        word's own (kept: requests repeat words, never texts). The same ids: the
        tokenizer only prepends a `_MARK` and writes every space as one, and no token of
        its vocabulary holds a mark but at its start (but a run of marks), so no merge
        joins two words; a text where that may not hold (two spaces in a row, a space at
        either end, a mark of its own, `<` of a special token) is encoded whole."""
        words = text.split(" ")
        if "" in words or "<" in text or _MARK in text:
            ids: list[int] = self._tokenizer.encode(text, add_special_tokens=False).ids
            return ids
        known = self._words
        # A word alone is the model's tokens of the word after a mark (what the tokenizer's
        # normalizer makes of it: `_MARK` prepended, no space in it to replace), without
        # the pipeline's encoding object around them (no special token: no `<` in the text).
        tokenize = self._tokenize
        out: list[int] = []
        for word in words:
            found = known.get(word)
            if found is None:
                found = [token.id for token in tokenize(_MARK + word)]
                if len(known) < _WORDS:
                    known[word] = found
            out += found
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's vector, a row each. One text at a time: `encode_batch` would be a
        little faster but starts the tokenizer's thread pool, which a fork (a server's
        workers) then has to disable."""
        out = np.zeros((len(texts), self._weights.shape[1]), np.float32)
        for i, text in enumerate(texts):
            out[i] = self.vector(text)
        return out

    def _pooled(self, ids: list[int]) -> np.ndarray:
        if not ids:
            return np.zeros(self._weights.shape[1], np.float32)
        # What numpy's `mean` and `linalg.norm` compute, without their wrappers' checks.
        # The same bits: `mean` divides by the count in float64 and rounds to float32,
        # `norm` takes a float32 square root; here both are float32's own division and the
        # float64 root rounded to float32 (by the division, a float32 operation): a float64
        # result rounded to float32 is the float32 result for a division or a square root
        # of float32 operands (53 >= 2 x 24 + 2 bits: double rounding is innocuous), and
        # a float32 division costs half the float64 one with its casts.
        mean: np.ndarray = np.add.reduce(self._weights.take(ids, axis=0), axis=0)
        mean /= np.float32(len(ids))
        norm = math.sqrt(mean.dot(mean))
        return mean / norm if norm else mean


@cache
def model() -> Model | None:
    """The model from the files the `wordllama` wheel ships (loaded once per process);
    None when it is not installed. Only its files are read: its own loader keeps all 256
    dimensions (twice the memory) and its import configures the root logger."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        return None
    from safetensors import safe_open
    from tokenizers import Tokenizer

    here = Path(spec.submodule_search_locations[0])
    tokenizer = Tokenizer.from_file(str(here / "tokenizers" / f"{_CONFIG}_tokenizer_config.json"))
    # The tokenizer's cache holds every text it saw (each request a new one): off.
    tokenizer.model._resize_cache(0)
    with safe_open(str(here / "weights" / f"{_CONFIG}_256.safetensors"), framework="np") as f:
        # As float32 (the file's float16 values exactly, 8 MB more): a request's pooling
        # then sums float32 rows as `np.mean` sums float16 ones in float32, in the same
        # order, without converting each value in software (~44k instructions a request).
        weights = np.ascontiguousarray(f.get_slice("embedding.weight")[:, :DIMS], np.float32)
    return Model(tokenizer, weights)


def second_look(
    hits: Sequence[Hit], digest: str = "", parts_of: Mapping[str, str] | None = None
) -> Semantic | None:
    """The second look over `hits` (the index's endpoints, in row order; `digest`, the
    catalog's, keys their vectors' snapshot; `parts_of`, each integration's, its own
    vectors' when the catalog's misses: discovery/parts.py), or None when it is off or
    the model is not installed."""
    if not enabled():
        return None
    found = model()
    if found is None:
        return None
    path = _path(digest)
    vectors = None if path is None else parts.load_vectors(path, len(hits), DIMS)
    if vectors is None:
        vectors = _by_part(found, hits, parts_of or {})
        if path is not None:
            parts.save_vectors(path, vectors, "semantic-*.npy", KEEP)
    return Semantic(found, hits, vectors)


def _by_part(model: Model, hits: Sequence[Hit], parts_of: Mapping[str, str]) -> np.ndarray:
    """`_vectors` of `hits`, each integration's rows kept apart (discovery/parts.py)."""
    out: list[np.ndarray] = []
    for slug, group in groupby(hits, key=lambda h: h.integration.slug):
        rows = list(group)
        key = _part_key(slug, parts_of.get(slug, ""))
        vectors = parts.read_vectors(key, len(rows), DIMS)
        if vectors is None:
            vectors = _vectors(model, rows)
            parts.write_vectors(key, vectors)
        out.append(vectors)
    return np.concatenate(out) if out else np.zeros((0, DIMS), np.float32)


def _part_key(slug: str, digest: str) -> str:
    """What keys one integration's vectors (discovery/parts.py): its files, and what
    makes a vector (`_made`)."""
    if not digest:
        return ""
    return "semantic-" + hashlib.sha256(_made() + f"{slug}:{digest}".encode()).hexdigest()


def _path(digest: str) -> Path | None:
    """The vectors' snapshot (catalog.snapshot's folder), keyed by the catalog (its files
    and the code that loaded them) and by what makes a vector from it (`_made`)."""
    folder = snapshot.directory()
    if folder is None or not digest or not snapshot.trusted(folder):
        return None
    h = hashlib.sha256(_made() + snapshot.code() + digest.encode())
    return folder / f"semantic-{h.hexdigest()}.npy"


@cache
def _made() -> bytes:
    """What makes an endpoint's vector besides its texts: this code, the texts' code, the
    model's version and the dimensions kept."""
    h = hashlib.sha256(f"{version('wordllama')}:{DIMS}:{SAYS_WEIGHT}".encode())
    for source in (Path(__file__), Path(texts.__file__)):
        h.update(source.read_bytes())
    return h.digest()


class Semantic:
    def __init__(self, model: Model, hits: Sequence[Hit], vectors: np.ndarray) -> None:
        """`vectors`: each endpoint's unit vector (`Model.embed`), in row order."""
        self._model = model
        self.vectors = vectors
        numbers: dict[str, int] = {}
        self.group = np.array(
            [numbers.setdefault(h.integration.slug, len(numbers)) for h in hits], dtype=np.intp
        )
        self.depth = DEPTH

    def reorder(
        self, text: str, rows: np.ndarray, values: np.ndarray, unknown: float = 0.0
    ) -> np.ndarray:
        """`rows` (best first, with their first-stage `values`, the first > 0) re-ordered
        by score share + `WEIGHT` x cosine, a candidate of another integration than the
        first's counting the first's cosine; equal blends keep their order. `unknown`: the
        share of the request's words the catalog does not know (`UNKNOWN_GAIN`)."""
        if len(rows) < 2:
            return rows
        # `take`: the rows' copy, the same values, cheaper than fancy indexing's in 2-D.
        cosine = self.vectors.take(rows, axis=0) @ self._model.vector(text)
        group = self.group[rows]
        cosine[group != group[0]] = cosine[0]
        weight = WEIGHT * (1 + UNKNOWN_GAIN * unknown)
        # The blend negated as it is computed, for an ascending sort: each operation's
        # result negated exactly (rounding to nearest is symmetric), no pass to negate.
        negated = values / -float(values[0]) + -weight * cosine
        reordered: np.ndarray = rows[negated.argsort(kind="stable")]
        return reordered
