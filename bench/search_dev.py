"""The search's development figures (issue 26), never the sealed set's: the development
set (search_eval.yaml) per section and kind, and the public BFCL pool, ours beside plain
BM25 in the same run. What a ranking change is measured with before it is kept:

    PYTHONPATH=src:. .venv/bin/python bench/search_dev.py [--misses] [--no-bfcl]

`--misses` prints every development request whose answer is not in the top 3 (and each
no-endpoint request left unflagged, each answerable one wrongly flagged).
"""

from __future__ import annotations

import argparse

from tests.skillgate.discovery import test_search_quality as quality
from tests.skillgate.discovery.quality import (
    PHRASINGS,
    PHRASINGS_FIFTH,
    PHRASINGS_FOURTH,
    PHRASINGS_SECOND,
    PHRASINGS_SEVENTH,
    PHRASINGS_SIXTH,
    PHRASINGS_THIRD,
    measure,
    new_query_p50,
    phrasing_figures,
    table,
    total,
)

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.confidence import fits
from skillgate.discovery.search import SearchIndex


def _rank(
    index: SearchIndex, task: str, connected: frozenset[str] = frozenset()
) -> tuple[list[str], bool]:
    """`task`'s top 10 (integration/endpoint) and whether the answer says nothing fits."""
    hits = index.rank(task, ("*",), None, 10, connected)
    ranked = [f"{h.integration.slug}/{h.endpoint.name}" for h in hits]
    return ranked, not fits(index.matches(task, hits))


def _flags(index: SearchIndex) -> list[str]:
    """The development requests the no-match flag gets wrong."""
    out: list[str] = []
    for section in quality.dev_set().values():
        for t in section:
            hits = index.rank(t["task"], ("*",), None, 10)
            matches = index.matches(t["task"], hits)
            flagged = not fits(matches)
            none = t.get("kind") == "none"
            if flagged != none:
                best = max(matches, default=0.0)
                said = "unflagged" if none else "wrongly flagged"
                top = f"{hits[0].integration.slug}/{hits[0].endpoint.name}" if hits else "-"
                out.append(f"  [{said}] {t['task']!r}: best match {best:.2f} ({top})")
    return out


# Callers' connected integrations (search.CONNECTED_BOOST), for the `unnamed` section:
# each of its requests counts every integration that does the job, so a caller's own
# integrations first should raise top-1 whichever they are.
PROFILES = {
    "google": frozenset(
        ["gmail", "google_calendar", "google_drive", "google_tasks", "google_contacts",
         "google_meet", "google_chat", "google_admin"]
    ),
    "microsoft": frozenset(
        ["outlook", "onedrive", "microsoft_todo", "microsoft_teams", "microsoft_entra"]
    ),
}  # fmt: skip


def _profiles(index: SearchIndex) -> None:
    tasks = quality.dev_set()["unnamed"]
    for name, connected in [("none", frozenset[str]()), *PROFILES.items()]:

        def rank(task: str, connected: frozenset[str] = connected) -> tuple[list[str], bool]:
            return _rank(index, task, connected)

        r = measure(rank, tasks, "unnamed")["unnamed"]
        print(
            f"unnamed, connected {name:<9} n={r.count} top-1 {r.rate(1):.3f}"
            f"  top-3 {r.rate(3):.3f}  top-10 {r.rate(10):.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--no-bfcl", action="store_true")
    args = parser.parse_args()
    index = SearchIndex(load_catalog())
    figures = quality.dev_figures(index)
    for section, by_kind in figures.items():
        print(table(f"development set, {section}", by_kind))
        if args.misses:
            for r in by_kind.values():
                if r.misses:
                    print("\n".join(r.misses))
    every = [r for by_kind in figures.values() for k, r in by_kind.items() if k != "none"]
    a = total(every)
    print(
        f"development set, all answerable: n={a.count} top-1 {a.rate(1):.3f}"
        f" top-3 {a.rate(3):.3f} top-10 {a.rate(10):.3f} wrongly flagged {a.flag_rate:.3f}"
    )
    if args.misses:
        print("\n".join(_flags(index)))
    for path in (
        PHRASINGS,
        PHRASINGS_SECOND,
        PHRASINGS_THIRD,
        PHRASINGS_FOURTH,
        PHRASINGS_FIFTH,
        PHRASINGS_SIXTH,
        PHRASINGS_SEVENTH,
    ):
        print(table(f"catalog-wide phrasings ({path.name}), per style",
                    phrasing_figures(index, path)))  # fmt: skip
    _profiles(index)
    queries = [t["task"] for section in quality.dev_set().values() for t in section]
    p50 = new_query_p50(lambda q: index.matches(q, index.rank(q, ("*",), None, 10)), queries)
    print(f"new query in-process, {len(queries)} requests: p50 {p50:.3f} ms")
    if not args.no_bfcl:
        for who, rates in quality.bfcl_figures().items():
            print(f"BFCL live_multiple {who:<5} top-1 {rates[1]:.3f}  top-5 {rates[5]:.3f}")


if __name__ == "__main__":
    main()
