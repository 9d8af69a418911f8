"""The search index's analysed catalog kept as a snapshot (discovery/analysed.py): an
index read from it scores and ranks exactly as one analysed afresh, with the same parts
derived from names and parameters; a catalog of another digest is analysed again, those
parts too; an old index is freed when a reload drops it."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from skillgate.catalog import snapshot
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.discovery import analysed
from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.values import KINDS

QUERIES = [
    "open a bug about the login page",
    "send an email to ana",
    "list my calendar events tomorrow",
    "delete the file report.pdf in box",
    "refund the payment",
    "forwrd the invoice email to finance",  # corrected by the speller
    "zzzz qqqq",  # nothing matches
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(snapshot.ENV, str(tmp_path))
    return tmp_path


def _fresh_only(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the catalogs analysed (not read from a snapshot)."""
    count: list[int] = []
    real = analysed.analyse

    def counting(*args: Any) -> analysed.Analysed:
        count.append(1)
        return real(*args)

    monkeypatch.setattr(analysed, "analyse", counting)
    return count


def test_an_index_from_its_snapshot_ranks_as_a_fresh_one(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    analysed_now = _fresh_only(monkeypatch)
    fresh = SearchIndex(catalog)
    assert len(list(cache.glob("index-*.npz"))) == 1
    kept = SearchIndex(catalog)
    assert len(analysed_now) == 1  # the second read the snapshot
    assert kept.bm25.vocab_dict == fresh.bm25.vocab_dict
    for query in QUERIES:
        a, b = fresh.scores(query), kept.scores(query)
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert np.array_equal(a, b)
        first = fresh.answer(query, ("*",), None, 10)
        again = kept.answer(query, ("*",), None, 10)
        assert [h.row for h in again.hits] == [h.row for h in first.hits]
        assert again.matches == first.matches


def test_another_catalog_is_analysed_again(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    analysed_now = _fresh_only(monkeypatch)
    SearchIndex(catalog)
    fewer = dict(list(catalog.integrations.items())[:3])
    other = Catalog(integrations=fewer, digest="another")
    index = SearchIndex(other)
    assert len(analysed_now) == 2
    assert len(index.hits) == sum(len(i.endpoints) for i in fewer.values())
    assert len(list(cache.glob("index-*.npz"))) == 2
    SearchIndex(Catalog(integrations=fewer))  # no digest: nothing to key it by
    assert len(analysed_now) == 3
    assert len(list(cache.glob("index-*.npz"))) == 2


def test_the_derived_parts_round_trip(catalog: Catalog, cache: Path) -> None:
    """What the index reads off names and parameters (values, kinds, the world table's
    entries taken out, the speller's name words) is read back as it was derived."""
    fresh = analysed.for_catalog(catalog, Analyzer()).derived
    kept = analysed.for_catalog(catalog, Analyzer()).derived
    assert kept is not fresh
    assert np.array_equal(kept.taken, fresh.taken)
    assert np.array_equal(kept.kinds, fresh.kinds)
    assert (kept.dropped, kept.named) == (fresh.dropped, fresh.named)
    assert fresh.taken.any()
    assert fresh.kinds.any()
    assert fresh.named["list"] > 100


def test_a_changed_catalog_derives_its_parts_again(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reload after a catalog change (another digest) reads no part of the old one."""
    first = next(iter(catalog.integrations.values()))
    before = Catalog(integrations={first.slug: first}, digest="before")
    old = analysed.for_catalog(before, Analyzer()).derived
    e = first.endpoints[0]
    amount = e.parameters[0].model_copy(update={"name": "amount"})
    weather = e.model_copy(update={"name": "get_weather", "parameters": (amount,)})
    changed = first.model_copy(update={"endpoints": (weather, *first.endpoints[1:])})
    analysed_now = _fresh_only(monkeypatch)
    after = Catalog(integrations={first.slug: changed}, digest="after")
    new = analysed.for_catalog(after, Analyzer()).derived
    assert len(analysed_now) == 1
    amount_bit = 1 << next(i for i, (_, takes) in enumerate(KINDS) if takes.search("amount"))
    assert not old.taken[0] & amount_bit
    assert new.taken[0] & amount_bit
    assert "weather" not in old.dropped
    assert "weather" in new.dropped
    assert new.named["weather"] == 1
    assert "weather" not in old.named


def test_a_damaged_snapshot_is_analysed_again(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = SearchIndex(catalog)
    for entry in cache.glob("index-*.npz"):
        entry.write_bytes(b"PK\x03\x04 not a zip")
    analysed_now = _fresh_only(monkeypatch)
    again = SearchIndex(catalog)
    assert len(analysed_now) == 1
    assert [h.row for h in again.search(QUERIES[0], ("*",))] == [
        h.row for h in first.search(QUERIES[0], ("*",))
    ]


def test_an_index_dropped_is_freed_without_the_collector(catalog: Catalog, cache: Path) -> None:
    """The server freezes what it built at start-up (gc.freeze): an index in a reference
    cycle would never be freed, and every reload would keep the one it replaced."""
    gc.disable()
    try:
        index = SearchIndex(catalog)
        index.search(QUERIES[0], ("*",))
        dropped = weakref.ref(index)
        del index
        assert dropped() is None
    finally:
        gc.enable()
