"""The development requests whose endpoint is not in the top 10 (issue 26's recall), each
with the rank it has in the top 50 (if any), the stage that loses it, its first-stage rank
and score against the best, the query's terms and the endpoint's own terms the query holds:

    PYTHONPATH=src:. .venv/bin/python bench/search_recall.py [--limit 10] [--section NAME]

The stages (discovery/search.py `SearchIndex.rank`): `pool` (the first stage never made it
a candidate: under `NEAR` of the best, or beyond the semantic look's depth), `first` (a
candidate the first stage ranked beyond the limit and the semantic look did not bring up),
`semantic` (ranked within the limit by the first stage, pushed out by the semantic look),
`second` (pushed out by the delete rule, discovery/rerank.py).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
from tests.skillgate.discovery import quality

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.search import NEAR, SearchIndex
from skillgate.discovery.semantic import unknown_share


def _row(index: SearchIndex, ids: set[str]) -> int | None:
    for h in index.hits:
        if f"{h.integration.slug}/{h.endpoint.name}" in ids:
            return h.row
    return None


def _stages(index: SearchIndex, task: str, rows: set[int]) -> tuple[int | None, int | None, bool]:
    """The best of `rows`' places (1-based) in the first stage's order and after the semantic
    look, and whether it was a candidate at all."""
    text, q = index._analysed(task)
    scores = index._scores(text, q)
    if scores is None:
        return None, None, False
    scores = scores * index.mask(("*",), None)
    top = float(scores.max())
    order = np.argsort(-scores, kind="stable")
    first = min((int(np.nonzero(order == r)[0][0]) + 1 for r in rows), default=None)
    semantic = index.semantic
    depth = 50 if semantic is None else max(50, semantic.depth)
    found = [int(i) for i in order[:depth] if scores[i] >= top * NEAR and scores[i] > 0]
    pool = any(r in found for r in rows)
    if semantic is None or not found:
        return first, first, pool
    unknown = unknown_share(text, index._knows, index._said)
    best = semantic.reorder(text, np.array(found), scores[found], unknown).tolist()
    after = min((best.index(r) + 1 for r in rows if r in best), default=None)
    return first, after, pool


def _stage(limit: int, first: int | None, after: int | None, pool: bool) -> str:
    if not pool:
        return "pool"
    if first is not None and first <= limit:
        return "semantic" if after is None or after > limit else "second"
    return "first"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--section")
    args = parser.parse_args()
    index = SearchIndex(load_catalog())
    documents = index._documents
    assert documents is not None
    causes: Counter[str] = Counter()
    for section, tasks in quality.dev_set().items():
        if args.section and section != args.section:
            continue
        for t in tasks:
            if t.get("kind") == "none":
                continue
            good = {t["expect"], *t.get("also", [])}
            ranked = [
                f"{h.integration.slug}/{h.endpoint.name}"
                for h in index.rank(t["task"], ("*",), None, 50)
            ]
            found = [i for i, x in enumerate(ranked) if x in good]
            if found and found[0] < args.limit:
                continue
            rows = {h.row for h in index.hits if f"{h.integration.slug}/{h.endpoint.name}" in good}
            first, after, pool = _stages(index, t["task"], rows)
            stage = _stage(args.limit, first, after, pool)
            causes[stage] += 1
            text, q = index._analysed(t["task"])
            row = _row(index, good)
            terms = set(documents.terms(row)) if row is not None else set()
            held = sorted(terms & {*q.terms, *q.related, *q.content})
            print(f"[{section}/{t.get('kind', '')}] {t['task']!r}")
            rank = found[0] + 1 if found else ">50"
            print(
                f"  want {t['expect']}; rank {rank}; lost in {stage}:"
                f" first {first}, semantic {after}"
            )
            print(f"  got {ranked[:3]}")
            if text != t["task"]:
                print(f"  corrected: {text!r}")
            print(f"  terms {q.terms} related {q.related} content {q.content} lead {q.lead!r}")
            print(f"  endpoint holds {held}")
    print(f"{sum(causes.values())} requests not in the top {args.limit}: {dict(causes)}")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
