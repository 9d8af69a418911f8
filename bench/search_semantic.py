"""The semantic second look (discovery/semantic.py) measured: off and on, over the
development set per kind of request and over the public BFCL pool (beside plain BM25),
with its costs (start-up, memory, a new query's p50). Never the sealed set.

    SKILLGATE_CACHE_DIR= .venv/bin/python bench/search_semantic.py

(`SKILLGATE_CACHE_DIR=` empty: the index is analysed, not read from a snapshot, so both
builds cost alike.)
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.skillgate.discovery.quality import dev_figures, dev_set, table, total  # noqa: E402
from tests.skillgate.discovery.test_search_quality import bfcl_figures  # noqa: E402

from bench.search_bench import rss_mb  # noqa: E402
from skillgate.catalog.loader import load_catalog  # noqa: E402
from skillgate.discovery import semantic  # noqa: E402
from skillgate.discovery.search import SearchIndex  # noqa: E402


def p50_ms(index: SearchIndex, queries: list[str]) -> float:
    times: list[float] = []
    for q in queries:
        start = time.perf_counter()
        index.matches(q, index.rank(q, ("*",), None, 10))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    catalog = load_catalog()
    queries = [t["task"] for section in dev_set().values() for t in section]
    for flag in ("0", "1"):
        os.environ[semantic.ENV] = flag
        before, started = rss_mb(), time.perf_counter()
        index = SearchIndex(catalog)
        built = time.perf_counter() - started
        state = "on" if index.semantic is not None else "off"
        print(f"\n=== semantic second look {state} ===")
        print(f"index build {built:.2f} s, +{rss_mb() - before:.0f} MB RSS")
        figures = dev_figures(index)
        for section, by_kind in figures.items():
            print(table(f"development set, {section}", by_kind))
        a = total([r for f in figures.values() for k, r in f.items() if k != "none"])
        print(
            f"development set, all answerable: n={a.count} top-1 {a.rate(1):.3f}"
            f" top-3 {a.rate(3):.3f} top-10 {a.rate(10):.3f}"
        )
        print(f"new query in-process: p50 {p50_ms(index, queries):.3f} ms")
        for who, rates in bfcl_figures().items():
            print(f"BFCL {who:<5} top-1 {rates[1]:.3f}  top-5 {rates[5]:.3f}")


if __name__ == "__main__":
    main()
