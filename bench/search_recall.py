"""The development requests whose endpoint is not in the top 10 (issue 26's recall), each
with the rank it has in the top 50 (if any), its first-stage rank and score against the
best, the query's terms and the endpoint's own terms the query holds:

    PYTHONPATH=src:. .venv/bin/python bench/search_recall.py [--limit 10]
"""

from __future__ import annotations

import argparse

import numpy as np
from tests.skillgate.discovery import quality

from skillgate.catalog.loader import load_catalog
from skillgate.discovery.search import SearchIndex


def _row(index: SearchIndex, ids: set[str]) -> int | None:
    for h in index.hits:
        if f"{h.integration.slug}/{h.endpoint.name}" in ids:
            return h.row
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    index = SearchIndex(load_catalog())
    documents = index._documents
    assert documents is not None
    count = 0
    for section, tasks in quality.dev_set().items():
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
            count += 1
            text, q = index._analysed(t["task"])
            scores = index.scores(t["task"])
            row = _row(index, good)
            first = "-"
            if scores is not None and row is not None:
                scores = scores * index.mask(("*",), None)
                top = float(scores.max())
                mine = float(scores[row])
                first = f"{int((scores > mine).sum()) + 1} ({mine / top:.2f} of best)"
            terms = set(documents.terms(row)) if row is not None else set()
            held = sorted(terms & {*q.terms, *q.related, *q.content})
            print(f"[{section}/{t.get('kind', '')}] {t['task']!r}")
            rank = found[0] + 1 if found else ">50"
            print(f"  want {t['expect']}; rank {rank}; first stage {first}")
            print(f"  got {ranked[:3]}")
            if text != t["task"]:
                print(f"  corrected: {text!r}")
            print(f"  terms {q.terms} related {q.related} content {q.content} lead {q.lead!r}")
            print(f"  endpoint holds {held}")
    print(f"{count} requests not in the top {args.limit}")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
