"""The search tables' review (issue 26; the result is docs/search-tables.md): each entry
of the search's tables removed in turn, the index built again and measured on the
development set and the public BFCL pool, never on the sealed set:

    PYTHONPATH=src:. .venv/bin/python bench/search_tables_review.py [--tables T,...]
        [--since REV] > review.jsonl

The tables: discovery/synonyms.py `SYNONYMS`, `MEANS`, `ACTIONS`, `FIT_MEANS` (read by
the match only), `SPELLINGS`, `SHAPES` (but those made from `LINKS`) and `LINKS` (a
link's shape and its product cue go together); discovery/cues.py `CUES` and `CUE_SHAPES`
(but those made from `LINKS`); discovery/idioms.py `IDIOMS` (`_IDIOMS`);
discovery/products.py `NICKNAMES`; discovery/analysis.py `FILLER` (one entry per word)
and `DERIVED` (`_DERIVED`, one per suffix); discovery/shorthand.py `SHORTHAND`
(`_SHORTHAND`, one per word).

- `--tables IDIOMS,NICKNAMES`: only these tables (default: all);
- `--since main`: only the entries the tables did not hold at that git revision. An
  entry whose phrase the revision held otherwise (`ACTIONS` "put" that gained "add") is
  put back as it was there rather than removed (its line says `"instead"`).

One JSON line per entry after the baseline's: the table, the entry, and the figures
without it, `[[dev top-1, top-3, top-10 hits, no-endpoint flagged, answerable wrongly
flagged], [BFCL top-1, top-5 hits]]` (dev: every section of search_eval.yaml, the
no-endpoint requests of all of them). The analysed-catalog snapshot is off
(`SKILLGATE_CACHE_DIR` empty): each index analyses its catalog with the tables as
patched.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

# Before anything reads it: no snapshot, so no index reuses an analysis made with other
# tables (the snapshot's key is the code's, not the patched tables').
os.environ["SKILLGATE_CACHE_DIR"] = ""

from tests.skillgate.discovery import quality
from tests.skillgate.discovery.quality import total
from tests.skillgate.discovery.test_search_quality import _bfcl, bfcl_catalog

from skillgate.catalog.loader import load_catalog
from skillgate.discovery import (
    analysis,
    confidence,
    cues,
    idioms,
    products,
    shorthand,
    stems,
    synonyms,
    texts,
)
from skillgate.discovery.search import SearchIndex

# synonyms.py's tables read as they are (`SHAPES` and `LINKS` apart: links make shapes).
PLAIN = ("SYNONYMS", "MEANS", "ACTIONS", "FIT_MEANS", "SPELLINGS")
LISTED = (*PLAIN, "SHAPES", "LINKS", "CUE_SHAPES", "IDIOMS", "FILLER", "DERIVED", "SHORTHAND")
KEYED = ("CUES", "NICKNAMES")  # slug -> phrases: one entry per (slug, phrase)
ALL = (*PLAIN, "SHAPES", "CUES", *LISTED[len(PLAIN) + 1 :], "NICKNAMES")
Tables = dict[str, Any]


def _link_shapes(links: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The `SHAPES` and the `CUE_SHAPES` entries `links` make (as the modules make them)."""
    shapes = tuple((".", synonyms.link(a), meant) for a, _, meant in links)
    cue = tuple((slug, ".", synonyms.link(a)) for a, slug, _ in links)
    return shapes, cue


def shipped() -> Tables:
    """The tables as the modules hold them; `SHAPES` and `CUE_SHAPES` without `LINKS`'."""
    shapes, cue = _link_shapes(synonyms.LINKS)
    tables: Tables = {name: getattr(synonyms, name) for name in PLAIN}
    tables["SHAPES"] = synonyms.SHAPES[len(shapes) :]
    tables["LINKS"] = synonyms.LINKS
    tables["CUES"] = cues.CUES
    tables["CUE_SHAPES"] = cues.CUE_SHAPES[: len(cues.CUE_SHAPES) - len(cue)]
    tables["IDIOMS"] = tuple((p.pattern, plain) for p, plain in idioms._IDIOMS)
    tables["FILLER"] = tuple(analysis._FILLER.split())
    tables["DERIVED"] = stems._DERIVED
    tables["SHORTHAND"] = tuple(shorthand._SHORTHAND.items())
    tables["NICKNAMES"] = products.NICKNAMES
    assert composed(tables)["SHAPES"] == synonyms.SHAPES
    assert composed(tables)["CUE_SHAPES"] == cues.CUE_SHAPES
    return tables


def composed(tables: Tables) -> Tables:
    """The tables as the modules hold them (`LINKS` made shapes and cues again)."""
    shapes, cue = _link_shapes(tables["LINKS"])
    short = dict(tables["SHORTHAND"])
    keys = "|".join(re.escape(k) for k in sorted(short, key=len)[::-1])
    return {
        **{name: tables[name] for name in (*PLAIN, "CUES", "NICKNAMES")},
        "SHAPES": (*shapes, *tables["SHAPES"]),
        "CUE_SHAPES": (*tables["CUE_SHAPES"], *cue),
        "_IDIOMS": tuple((re.compile(p, re.IGNORECASE), plain) for p, plain in tables["IDIOMS"]),
        "FILLER": frozenset(tables["FILLER"]),
        "_DERIVED": tuple(tables["DERIVED"]),
        "_SHORTHAND": short,
        "_SHORT": re.compile(
            rf"(?<![\w/@#.-])(?:{keys})(?![\w/@-])" if keys else r"(?!)", re.IGNORECASE
        ),
    }


def use(tables: Tables) -> None:
    """The tables as every module that reads them at index build or query sees them."""
    # (confidence.py reads `FIT_MEANS` when the index is built.)
    modules = (synonyms, analysis, stems, texts, cues, idioms, products, shorthand, confidence)
    for module in modules:
        for name, value in composed(tables).items():
            if hasattr(module, name):
                setattr(module, name, value)


def measure(catalog: Any, pool: Any, questions: list[list[str]]) -> Any:
    figures = quality.dev_figures(SearchIndex(catalog))
    answerable = total([r for kinds in figures.values() for k, r in kinds.items() if k != "none"])
    none = total([r for kinds in figures.values() for k, r in kinds.items() if k == "none"])
    dev = [answerable.hits[1], answerable.hits[3], answerable.hits[10]]
    dev += [none.flagged, answerable.flagged]
    index = SearchIndex(pool)
    top1 = top5 = 0
    for text, expected in questions:
        ranked = [h.endpoint.name for h in index.rank(text, ("*",), None, 5)]
        top1 += expected in ranked[:1]
        top5 += expected in ranked
    return [dev, [top1, top5]]


def _key(name: str, entry: Any) -> Any:
    """What names an entry apart from what it says (a phrase of `MEANS`, a word of
    `SHORTHAND`); None: the entry is its own key."""
    return entry[0] if name in ("MEANS", "ACTIONS", "FIT_MEANS", "SHORTHAND") else None


def entries(tables: Tables, before: Tables | None) -> Iterator[tuple[str, Any, Any, Any, Tables]]:
    """(table, index or slug, entry, what stands instead or None, the tables without it);
    with `before`, only the entries it did not hold."""
    for name in tables:
        if name in KEYED:
            for slug, phrases in tables[name].items():
                old = (before or {}).get(name, {}).get(slug, ())
                for phrase in phrases:
                    if before is None or phrase not in old:
                        left = tuple(p for p in phrases if p != phrase)
                        yield (
                            name,
                            slug,
                            phrase,
                            None,
                            {**tables, name: {**tables[name], slug: left}},
                        )
            continue
        old_entries = list((before or {}).get(name, ()))
        for i, entry in enumerate(tables[name]):
            if before is not None and entry in old_entries:
                continue
            was = [
                e
                for e in old_entries
                if _key(name, e) is not None and _key(name, e) == _key(name, entry)
            ]
            rest = [e for j, e in enumerate(tables[name]) if j != i]
            if was:
                rest.insert(i, was[0])
            yield name, i, entry, (was[0] if was else None), {**tables, name: tuple(rest)}


def _module(rev: str, path: str) -> dict[str, Any]:
    """The module at `path` as git revision `rev` holds it, run; {} when it had none."""
    found = subprocess.run(
        ["git", "show", f"{rev}:src/skillgate/discovery/{path}"], capture_output=True, text=True
    )
    if found.returncode != 0:
        return {}
    space: dict[str, Any] = {"__name__": f"review_{path[:-3]}"}
    exec(compile(found.stdout, path, "exec"), space)  # the project's own code, at `rev`
    return space


def at(rev: str) -> Tables:
    """The tables as git revision `rev` held them (a table it lacked: empty)."""
    syn, cue, idiom = (
        _module(rev, "synonyms.py"),
        _module(rev, "cues.py"),
        _module(rev, "idioms.py"),
    )
    ana, phr, prod, stem = (
        _module(rev, "analysis.py"),
        _module(rev, "phrasing.py"),
        _module(rev, "products.py"),
        _module(rev, "stems.py"),
    )
    links = syn.get("LINKS", ())
    shapes, cue_links = _link_shapes(links)
    cue_shapes = cue.get("CUE_SHAPES", ())
    # `_IDIOMS` lived in phrasing.py before it was its own module.
    idiom_table = idiom.get("_IDIOMS", phr.get("_IDIOMS", ()))
    return {
        **{name: syn.get(name, ()) for name in PLAIN},
        "SHAPES": syn.get("SHAPES", ())[len(shapes) :],
        "LINKS": links,
        "CUES": cue.get("CUES", {}),
        "CUE_SHAPES": cue_shapes[: len(cue_shapes) - len(cue_links)],
        "IDIOMS": tuple((p.pattern, plain) for p, plain in idiom_table),
        "FILLER": tuple(ana.get("_FILLER", "").split()),
        # `_DERIVED` moved from analysis.py to stems.py.
        "DERIVED": stem.get("_DERIVED", ana.get("_DERIVED", ())),
        # `_SHORTHAND` moved from phrasing.py to shorthand.py.
        "SHORTHAND": tuple(
            _module(rev, "shorthand.py").get("_SHORTHAND", phr.get("_SHORTHAND", {})).items()
        ),
        "NICKNAMES": prod.get("NICKNAMES", {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", help=f"comma-separated, of {','.join(ALL)} (default: all)")
    parser.add_argument("--since", help="only the entries new since this git revision")
    args = parser.parse_args()
    names = args.tables.split(",") if args.tables else list(ALL)
    unknown = set(names) - set(ALL)
    if unknown:
        sys.exit(f"--tables: no table {', '.join(sorted(unknown))} (of {', '.join(ALL)})")
    catalog = load_catalog()
    functions, questions = _bfcl()
    pool = bfcl_catalog(functions)
    tables = shipped()
    before = at(args.since) if args.since else None
    print(json.dumps({"base": measure(catalog, pool, questions)}), flush=True)
    chosen = {name: tables[name] for name in names}
    try:
        for name, i, entry, instead, without in entries(chosen, before):
            use({**tables, **without})
            got = measure(catalog, pool, questions)
            line = {"table": name, "i": i, "entry": entry, "without": got}
            if instead is not None:
                line["instead"] = instead
            print(json.dumps(line), flush=True)
    finally:
        use(tables)


if __name__ == "__main__":
    main()
