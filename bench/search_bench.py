"""Search speed in-process over a synthetic catalog of ~3,000 endpoints.

The shipped integrations are replicated under new slugs (`github_r1`, ...) until the
catalog holds at least `--endpoints` endpoints; every replica keeps its texts, so each
word's posting list is as long as it can get (a worst case for scoring). The queries
are the evaluation set's tasks (tests/skillgate/discovery/search_eval.yaml), asked
with a key that sees everything, a key scoped to a few integrations (one read-only),
and with the integration filter.

    .venv/bin/python bench/search_bench.py [--endpoints 3000] [--rounds 5]

prints the index's build time and memory, and p50/p99 per query of
`SearchIndex.rank` (the ranking computed), `SearchIndex.search` (recent answers
reused, as the server does) and `Discovery.search` (the service every door calls:
ranking, the answer's JSON, the connection status from a warm cache; queries asked
once each, so every answer is computed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from skillgate.catalog.loader import Catalog, load_catalog  # noqa: E402
from skillgate.discovery.arguments import SearchArgs  # noqa: E402
from skillgate.discovery.rendered import RenderedCatalog  # noqa: E402
from skillgate.discovery.search import SearchIndex  # noqa: E402
from skillgate.discovery.service import Discovery  # noqa: E402
from skillgate.kit.principal import Principal  # noqa: E402

EVAL = ROOT / "tests" / "skillgate" / "discovery" / "search_eval.yaml"


def synthetic(endpoints: int) -> Catalog:
    shipped = load_catalog()
    integrations = dict(shipped.integrations)
    total = sum(len(i.endpoints) for i in integrations.values())
    copy = 0
    while total < endpoints:
        copy += 1
        for slug, integration in shipped.integrations.items():
            replica = integration.model_copy(update={"slug": f"{slug}_r{copy}"})
            integrations[replica.slug] = replica
            total += len(replica.endpoints)
    return Catalog(integrations=dict(sorted(integrations.items())))


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def percentiles(samples_ns: list[int]) -> str:
    ms = sorted(s / 1e6 for s in samples_ns)
    p99 = ms[min(len(ms) - 1, round(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):.3f} ms, p99 {p99:.3f} ms, n={len(ms)}"


class WarmStatuses:
    """The status cache after its first load: a lookup that awaits nothing."""

    def __init__(self, connected: frozenset[str]) -> None:
        self._connected = connected

    async def connected(self, user_id: str) -> frozenset[str]:
        return self._connected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoints", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    catalog = synthetic(args.endpoints)
    count = catalog.endpoint_count
    before = rss_mb()
    started = time.perf_counter()
    index = SearchIndex(catalog)
    built = time.perf_counter() - started
    print(f"catalog: {len(catalog.integrations)} integrations, {count} endpoints")
    print(f"index build: {built * 1000:.0f} ms, memory +{rss_mb() - before:.1f} MB RSS")

    queries = [t["task"] for t in yaml.safe_load(EVAL.read_text())["tasks"]]
    cases: list[tuple[tuple[str, ...], str | None]] = [
        (("*",), None),
        (("github", "slack_r1", "gmail:read"), None),
        (("*",), "github_r2"),
    ]
    for scopes, only in cases:  # warm: the scope masks are memoised
        index.search("warm up", scopes, only)

    found = sum(len(index.rank(q, ("*",), None, 10)) for q in queries)
    print(f"results: {found / len(queries):.1f} per query (limit 10)")
    cold: list[int] = []
    warm: list[int] = []
    for _ in range(args.rounds):
        for query in queries:
            for scopes, only in cases:
                t0 = time.perf_counter_ns()
                index.rank(query, scopes, only, 10)  # computed every time
                t1 = time.perf_counter_ns()
                index.search(query, scopes, only, 10)  # the answer reused after round one
                cold.append(t1 - t0)
                warm.append(time.perf_counter_ns() - t1)
    print(f"SearchIndex.rank (every query computed): {percentiles(cold)}")
    print(f"SearchIndex.search (answers reused after the first round): {percentiles(warm)}")

    discovery = Discovery(
        RenderedCatalog(catalog),
        WarmStatuses(frozenset({"github"})),
        index,  # type: ignore[arg-type]
    )

    async def service() -> list[int]:
        # No key: the whole account (scopes `*`), as an access token acts.
        principal = Principal("u1", "ada@example.com", "ada", "pro", "access_token")
        out: list[int] = []
        for n in range(args.rounds):
            for query in queries:
                asked = f"{query} {n}"  # never asked before: computed, not reused
                t0 = time.perf_counter_ns()
                await discovery.search(principal, SearchArgs(asked))
                out.append(time.perf_counter_ns() - t0)
        return out

    print(
        f"Discovery.search (computed, answer JSON included): {percentiles(asyncio.run(service()))}"
    )


if __name__ == "__main__":
    main()
