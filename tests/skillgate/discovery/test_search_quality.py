"""Search quality per kind of request (issue 26), printed with `pytest -s`:

    .venv/bin/pytest -s tests/skillgate/discovery/test_search_quality.py

- the development set (search_eval.yaml: `tasks`, `held_out`, `dev_kinds`, `unnamed`,
  `chatty_fresh`, `chatty_wide`, `none_wide`, `blind`, `common`,
  `reference_wide`, `misspelled_wide`,
  `chatty_wide2`): top-1/3/10 per kind, the share of no-endpoint requests the
  answer flags and of answerable ones wrongly flagged, with the misses; and a new
  query's p50 in-process;
- the public BFCL v4 `live_multiple` pool (fixtures/bfcl, see its README): top-1/5 of
  this ranker beside plain BM25 over the same pool;
- the sealed set (search_sealed.yaml): aggregate figures only, never its misses. It is
  never used to choose a change (test_search_sealed.py); this report was added after the
  last ranking change of issue 26.

Floors are regression guards at the measured levels rounded down.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import bm25s
import orjson
import pytest
import Stemmer
import yaml

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Endpoint, Integration, Parameter
from skillgate.discovery.search import SearchIndex
from tests.skillgate.discovery.quality import (
    HELD_SETS,
    HERE,
    PHRASINGS,
    PHRASINGS_FIFTH,
    PHRASINGS_FOURTH,
    PHRASINGS_SECOND,
    PHRASINGS_SEVENTH,
    PHRASINGS_SIXTH,
    PHRASINGS_THIRD,
    SEALED,
    dev_figures,
    dev_set,
    measure,
    new_query_p50,
    phrasing_figures,
    ranker,
    table,
    total,
)


def test_development_set_per_kind(index: SearchIndex, capsys: pytest.CaptureFixture[str]) -> None:
    figures = dev_figures(index)
    with capsys.disabled():
        print()
        for section, by_kind in figures.items():
            print(table(f"development set, {section}", by_kind))
        every = [r for by_kind in figures.values() for k, r in by_kind.items() if k != "none"]
        a = total(every)
        print(
            f"development set, all answerable: n={a.count} top-1 {a.rate(1):.3f}"
            f" top-3 {a.rate(3):.3f} top-10 {a.rate(10):.3f}"
        )
        print("misses (top 3) of dev_kinds:")
        for r in figures["dev_kinds"].values():
            if r.misses:
                print("\n".join(r.misses))
    kinds = figures["dev_kinds"]
    assert set(kinds) == {"misspelled", "chatty", "reference", "none"}
    # Regression floors at issue 26's third round, below the measured levels (chatty top-3
    # 0.925, reference top-1 0.667, no-endpoint flagged 0.759, answerable wrongly flagged
    # 0.028).
    assert kinds["chatty"].rate(3) >= 0.9
    assert kinds["reference"].rate(1) >= 0.6
    assert kinds["none"].flag_rate >= 0.75
    # The answerable requests of the sections the third round measured (0.028 then, 0.022
    # after the fifth, 0.014 after the product's share in `match`). The blind section,
    # written after the fifth, is held to its own floors below.
    third_round = ("tasks", "held_out", "dev_kinds", "unnamed", "chatty_fresh")
    before = [r for section in third_round for k, r in figures[section].items() if k != "none"]
    assert total(before).flag_rate <= 0.02
    # Fifth round (chatty_wide, none_wide, written before its changes; measured after them
    # chatty top-3 0.812, wrongly flagged 0.167, no-endpoint flagged 0.875). The product's
    # share in `match` and its floor (bench/flag_fit.py): wrongly flagged 0.104 -> 0.021,
    # no-endpoint flagged 0.750 -> 0.875.
    wide = figures["chatty_wide"]["chatty"]
    assert wide.rate(3) >= 0.9  # 0.917 after the sixth round (0.812 after the fifth)
    assert wide.flag_rate <= 0.05
    assert figures["none_wide"]["none"].flag_rate >= 0.85
    # The blind section (two writers, sixth round): no-endpoint flagged 0.533, answerable
    # wrongly flagged 0.134 -> 0.107 with the product's share.
    blind = figures["blind"]
    assert blind["none"].flag_rate >= 0.5
    answerable = total([r for k, r in blind.items() if k != "none"])
    assert answerable.flag_rate <= 0.12
    # Its ranking: top-3 0.732 on main before the sixth round's changes (the first
    # writer's half), 0.875 after them (both halves).
    assert answerable.rate(3) >= 0.85
    # The `lack` section (eighth round, written before its changes): no-endpoint requests
    # asking a product of ours for a call it lacks, or naming a product nothing here is as
    # a word of the object: flagged 0.311 -> 0.756; its answerable neighbours 0.044 wrongly
    # flagged before and after.
    # The fourth blind writer's development half (eighth round; chatty top-3 0.725 and
    # answerable wrongly flagged 0.206 before the round's chatty changes, 0.850 and 0.048
    # after; no-endpoint flagged 0.538 -> 0.692).
    fourth = figures["blind4"]
    assert fourth["chatty"].rate(3) >= 0.82
    assert total([r for k, r in fourth.items() if k != "none"]).flag_rate <= 0.07
    assert fourth["none"].flag_rate >= 0.6
    # Eighth round's reference_fresh (top-1 0.548 -> 0.571) and recall_fresh (top-10
    # 0.650 -> 0.900, wrongly flagged 0.175 -> 0.150), each written before its changes.
    fresh = total([r for k, r in figures["reference_fresh"].items() if k != "none"])
    assert fresh.rate(1) >= 0.55
    assert fresh.rate(10) >= 0.9
    recall = total([r for k, r in figures["recall_fresh"].items() if k != "none"])
    assert recall.rate(10) >= 0.85
    assert recall.flag_rate <= 0.2
    lack = figures["lack"]
    assert lack["none"].flag_rate >= 0.7
    assert total([r for k, r in lack.items() if k != "none"]).flag_rate <= 0.05


@pytest.mark.parametrize(
    ("path", "count", "floors"),
    [
        # Regression floors below the levels measured (issue 26's thirteenth round): when the
        # set was added, all top-3 0.579 (terse 0.879, chatty 0.652); with the catalog files'
        # `says:` phrasings (another writers' five per endpoint, discovery/own.py) 0.781
        # (terse 0.937, chatty 0.878).
        (PHRASINGS, 646, {"all": 0.75, "terse": 0.9, "chatty": 0.85}),
        # Before those endpoints had phrasings of their own in the catalog files, all top-3
        # 0.322 (terse 0.671, chatty 0.304); with them 0.653 (terse 0.835, chatty 0.774).
        (PHRASINGS_SECOND, 863, {"all": 0.62, "terse": 0.8, "chatty": 0.74}),
        # The third pass: all top-3 0.325 without phrasings (terse 0.644, chatty 0.301);
        # with them and the phrasings as a field of their own (own.fielded) 0.691 (terse
        # 0.838, chatty 0.757).
        (PHRASINGS_THIRD, 800, {"all": 0.66, "terse": 0.8, "chatty": 0.72}),
        # The fourth pass (fifteenth round): all top-3 0.331 without phrasings (terse
        # 0.660, chatty 0.443); with them and the phrasings' values left out of their
        # field (texts.said) 0.709 (terse 0.878, chatty 0.869); 0.697 (0.871, 0.862)
        # once the fifth pass's neighbours had theirs.
        (PHRASINGS_FOURTH, 738, {"all": 0.67, "terse": 0.85, "chatty": 0.84}),
        # The fifth pass (the same round): all top-3 0.372 without phrasings, after the
        # fourth's (terse 0.723, chatty 0.446); with them 0.766 (terse 0.869, chatty 0.876).
        (PHRASINGS_FIFTH, 686, {"all": 0.74, "terse": 0.84, "chatty": 0.85}),
        # The sixth pass (sixteenth round): all top-3 0.337 without phrasings (terse 0.631,
        # chatty 0.355); with them 0.750 (terse 0.856, chatty 0.854). The earlier measures
        # then: curated 0.785, second 0.649, third 0.686, fourth 0.703, fifth 0.775.
        (PHRASINGS_SIXTH, 637, {"all": 0.72, "terse": 0.83, "chatty": 0.83}),
        # The seventh pass (nineteenth round): all top-3 0.304 without phrasings (terse
        # 0.609, chatty 0.294); with them 0.743 (terse 0.841, chatty 0.856). The earlier
        # measures then: curated 0.787, second 0.647, third 0.683, fourth 0.699, fifth
        # 0.769, sixth 0.741.
        (PHRASINGS_SEVENTH, 585, {"all": 0.74, "terse": 0.84, "chatty": 0.85}),
    ],
    ids=["curated", "second", "third", "fourth", "fifth", "sixth", "seventh"],
)
def test_catalog_wide_phrasings(
    index: SearchIndex,
    capsys: pytest.CaptureFixture[str],
    path: Path,
    count: int,
    floors: dict[str, float],
) -> None:
    """search_phrasings.yaml: five requests in users' words for every curated endpoint
    (the development set follows what people ask most; this covers every call a person
    curated); search_phrasings_second.yaml to _seventh.yaml: the same for the endpoints the
    overlay does not curate that people most often ask for, in tiers (issue 26's
    fourteenth to nineteenth rounds). Each counts only for the endpoint it was written for.
    Floors: the levels measured, rounded down."""
    by_style = phrasing_figures(index, path)
    with capsys.disabled():
        print()
        print(table(f"catalog-wide phrasings ({path.name}), per style", by_style))
    assert set(by_style) == {"terse", "question", "chatty", "idiom", "unnamed"}
    assert all(r.count == count for r in by_style.values())
    assert total(list(by_style.values())).rate(3) >= floors["all"]
    assert by_style["terse"].rate(3) >= floors["terse"]
    assert by_style["chatty"].rate(3) >= floors["chatty"]


def test_new_query_cost(index: SearchIndex, capsys: pytest.CaptureFixture[str]) -> None:
    """A new query's answer in-process (ranking and each result's `match`): p50 over
    the development set's requests."""
    dev = dev_set()
    queries = [t["task"] for section in dev.values() for t in section]
    p50 = new_query_p50(lambda q: index.matches(q, index.rank(q, ("*",), None, 10)), queries)
    with capsys.disabled():
        print(f"\nnew query in-process, {len(queries)} requests: p50 {p50:.3f} ms")
    assert p50 <= 20  # the goal is 2 ms on a quiet machine; this guards only gross regressions


BFCL = HERE / "bfcl" / "live_multiple.json"


def _bfcl() -> tuple[list[list[Any]], list[list[str]]]:
    data = orjson.loads(BFCL.read_bytes())
    return data["functions"], data["questions"]


def bfcl_catalog(functions: list[list[Any]]) -> Catalog:
    """The BFCL functions pooled as one integration's endpoints (built without the
    catalog's checks: the pool has no hosts, errors or auth; only the texts count)."""
    endpoints = tuple(
        Endpoint.model_construct(  # type: ignore[call-arg]
            name=name,
            method="POST",
            path="/f",
            category="function",
            description=description,
            parameters=tuple(
                Parameter.model_construct(name=p)  # type: ignore[call-arg]
                for p in params
            ),
            pagination=None,
            curated=False,
            changes_data=None,
            destructive=False,
        )
        for name, description, params in functions
    )
    pool = Integration.model_construct(  # type: ignore[call-arg]
        slug="bfcl", name="BFCL pool", endpoints=endpoints
    )
    return Catalog(integrations={"bfcl": pool})


_IDENT = re.compile(r"([a-z0-9])([A-Z])")


def _plain_text(name: str, description: str, params: list[str]) -> str:
    """A function's text for plain BM25: identifiers split into words, nothing else."""
    idents = _IDENT.sub(r"\1 \2", " ".join([name, *params]))
    return idents.replace("_", " ").replace(".", " ") + " " + description


def bfcl_figures() -> dict[str, dict[int, float]]:
    """Top-1 and top-5 over the pooled BFCL functions: this ranker and plain BM25 (bm25s,
    its defaults, English stop words, Snowball stemming). A hit: a function of the
    expected name among the first k (BFCL describes some names several ways)."""
    functions, questions = _bfcl()
    names = [f[0] for f in functions]
    index = SearchIndex(bfcl_catalog(functions))
    stemmer = Stemmer.Stemmer("english")
    plain = bm25s.BM25()
    texts = [_plain_text(*f) for f in functions]
    plain.index(
        bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    ours = {1: 0, 5: 0}
    bm25 = {1: 0, 5: 0}
    for text, expected in questions:
        ranked = [h.endpoint.name for h in index.rank(text, ("*",), None, 5)]
        tokens = bm25s.tokenize([text], stopwords="en", stemmer=stemmer, show_progress=False)
        docs, _ = plain.retrieve(tokens, k=5, show_progress=False)
        baseline = [names[i] for i in docs[0].tolist()]
        for k in (1, 5):
            ours[k] += expected in ranked[:k]
            bm25[k] += expected in baseline[:k]
    n = len(questions)
    return {
        "ours": {k: v / n for k, v in ours.items()},
        "bm25": {k: v / n for k, v in bm25.items()},
    }


def test_bfcl_public_pool(capsys: pytest.CaptureFixture[str]) -> None:
    functions, questions = _bfcl()
    figures = bfcl_figures()
    with capsys.disabled():
        print(
            f"\nBFCL v4 live_multiple: {len(questions)} questions,"
            f" {len(functions)} pooled functions"
        )
        for who, rates in figures.items():
            print(f"  {who:<5} top-1 {rates[1]:.3f}  top-5 {rates[5]:.3f}")
    assert len(functions) > 900
    assert len(questions) > 1000
    assert figures["ours"][5] >= 0.5


def test_sealed_set_aggregates(index: SearchIndex, capsys: pytest.CaptureFixture[str]) -> None:
    """The sealed set's figures per kind, aggregates only (no per-request result is
    printed or kept: it must not guide a change), then each held-out set's."""
    sets = [(SEALED, "sealed", "sealed set"), *HELD_SETS]
    for path, key, title in sets:
        tasks = yaml.safe_load(path.read_text(encoding="utf-8"))[key]
        by_kind = measure(ranker(index), tasks, "plain")
        for r in by_kind.values():
            r.misses.clear()
        with capsys.disabled():
            print(
                ("\n" if key == "sealed" else "")
                + table(f"{title} ({len(tasks)} requests)", by_kind)
            )
        assert sum(r.count for r in by_kind.values()) == len(tasks)
