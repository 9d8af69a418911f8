"""The search tables' review (issue 26; the result is docs/search-tables.md): each entry
of discovery/synonyms.py (`SYNONYMS`, `MEANS`, `ACTIONS`, `SPELLINGS`, `SHAPES`) and of
discovery/cues.py (`CUES`) removed in turn, the index built again and measured on the
development set and the public BFCL pool, never on the sealed set:

    PYTHONPATH=src:. .venv/bin/python bench/search_tables_review.py > review.jsonl

One JSON line per entry after the baseline's: the table, the entry, and the figures
without it, `[[dev top-1, top-3, top-10 hits, no-endpoint flagged, answerable wrongly
flagged], [BFCL top-1, top-5 hits]]`. About 2 s per entry on a quiet machine.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tests.skillgate.discovery import test_search_quality as quality
from tests.skillgate.discovery.quality import total

from skillgate.catalog.loader import load_catalog
from skillgate.discovery import analysis, cues, synonyms, texts
from skillgate.discovery.search import SearchIndex

TABLES = ("SYNONYMS", "MEANS", "ACTIONS", "SPELLINGS", "SHAPES")
Tables = dict[str, Any]


def shipped() -> Tables:
    tables: Tables = {name: getattr(synonyms, name) for name in TABLES}
    tables["CUES"] = cues.CUES
    return tables


def use(tables: Tables) -> None:
    """The tables as every module that reads them at index build sees them."""
    for module in (analysis, texts, cues):
        for name, value in tables.items():
            if hasattr(module, name):
                setattr(module, name, value)


def measure(catalog: Any, pool: Any, questions: list[list[str]]) -> Any:
    figures = quality.dev_figures(SearchIndex(catalog))
    answerable = total([r for kinds in figures.values() for k, r in kinds.items() if k != "none"])
    none = figures["dev_kinds"]["none"]
    dev = [answerable.hits[1], answerable.hits[3], answerable.hits[10]]
    dev += [none.flagged, answerable.flagged]
    index = SearchIndex(pool)
    top1 = top5 = 0
    for text, expected in questions:
        ranked = [h.endpoint.name for h in index.rank(text, ("*",), None, 5)]
        top1 += expected in ranked[:1]
        top5 += expected in ranked
    return [dev, [top1, top5]]


def entries(tables: Tables) -> Iterator[tuple[str, Any, Any, Tables]]:
    """(table, index or slug, entry, the tables without it)."""
    for name in TABLES:
        for i, entry in enumerate(tables[name]):
            rest = tuple(e for j, e in enumerate(tables[name]) if j != i)
            yield name, i, entry, {**tables, name: rest}
    for slug, phrases in tables["CUES"].items():
        for phrase in phrases:
            left = tuple(p for p in phrases if p != phrase)
            yield "CUES", slug, phrase, {**tables, "CUES": {**tables["CUES"], slug: left}}


def main() -> None:
    catalog = load_catalog()
    functions, questions = quality._bfcl()
    pool = quality.bfcl_catalog(functions)
    tables = shipped()
    print(json.dumps({"base": measure(catalog, pool, questions)}), flush=True)
    try:
        for name, i, entry, without in entries(tables):
            use(without)
            got = measure(catalog, pool, questions)
            print(json.dumps({"table": name, "i": i, "entry": entry, "without": got}), flush=True)
    finally:
        use(tables)


if __name__ == "__main__":
    main()
