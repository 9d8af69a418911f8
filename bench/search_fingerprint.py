"""A fingerprint of the search's answers: a cost change must leave it as it was.

Every development request (search_eval.yaml, never the sealed set) and every question of
the public BFCL pool goes through `SearchIndex.rank` and `matches`; the fingerprint is a
SHA-256 over each (query, top-10 names, matches rounded to 6 places). Also hashed: the
development requests with the number `bench/instructions.py` adds to make them new, the
`unnamed` ones with each connected profile of bench/search_dev.py, with a read-only
scope, and all of them with the semantic second look off (the first stage alone).

    PYTHONPATH=src:. .venv/bin/python bench/search_fingerprint.py [--dump FILE]

`--dump` writes the lines hashed, to diff two trees' answers when the hashes differ.
"""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Iterable

from tests.skillgate.discovery.quality import dev_set
from tests.skillgate.discovery.test_search_quality import _bfcl, bfcl_catalog

from bench.search_dev import PROFILES
from skillgate.catalog.loader import load_catalog
from skillgate.discovery.search import SearchIndex

Run = tuple[str, str, tuple[str, ...], frozenset[str]]  # section, query, scopes, connected


def _line(index: SearchIndex, section: str, query: str, scopes: tuple[str, ...],
          connected: frozenset[str]) -> str:  # fmt: skip
    hits = index.rank(query, scopes, None, 10, connected)
    names = ",".join(f"{h.integration.slug}/{h.endpoint.name}" for h in hits)
    matches = ",".join(f"{m:.6f}" for m in index.matches(query, hits))
    return (
        f"{section}\t{query}\t{','.join(scopes)}\t{','.join(sorted(connected))}\t{names}\t{matches}"
    )


def _catalog_runs() -> list[Run]:
    dev = dev_set()
    everyone = frozenset[str]()
    runs: list[Run] = []
    for section, tasks in dev.items():
        runs += [(section, t["task"], ("*",), everyone) for t in tasks]
    queries = [t["task"] for tasks in dev.values() for t in tasks]
    runs += [("numbered", f"{q} 0", ("*",), everyone) for q in queries]
    runs += [("read-only", q, ("github:read", "gmail:read"), everyone) for q in queries]
    for name, connected in PROFILES.items():
        runs += [(f"connected {name}", t["task"], ("*",), connected) for t in dev["unnamed"]]
    return runs


def lines() -> Iterable[str]:
    index = SearchIndex(load_catalog())
    runs = _catalog_runs()
    yield f"semantic {'on' if index.semantic is not None else 'off'}"
    for run in runs:
        yield _line(index, *run)
    semantic, index.semantic = index.semantic, None
    for section, query, scopes, connected in runs:
        yield _line(index, f"first stage, {section}", query, scopes, connected)
    index.semantic = semantic
    functions, questions = _bfcl()
    pool = SearchIndex(bfcl_catalog(functions))
    for text, _ in questions:
        yield _line(pool, "bfcl", text, ("*",), frozenset())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", help="write the lines hashed to this file")
    args = parser.parse_args()
    digest = hashlib.sha256()
    out = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    count = 0
    for line in lines():
        digest.update(line.encode() + b"\n")
        count += 1
        if out is not None:
            out.write(line + "\n")
    if out is not None:
        out.close()
    print(f"{count} answers, sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
