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


def _answer_alike(fresh: SearchIndex, kept: SearchIndex) -> None:
    """`kept` scores, ranks and matches every query of `QUERIES` as `fresh` does."""
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


def test_an_index_from_its_snapshot_ranks_as_a_fresh_one(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    analysed_now = _fresh_only(monkeypatch)
    fresh = SearchIndex(catalog)
    assert len(list(cache.glob("index-*.npz"))) == 1
    kept = SearchIndex(catalog)
    assert len(analysed_now) == 1  # the second read the snapshot
    _answer_alike(fresh, kept)


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


def test_a_new_file_analyses_only_its_own_integration(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skillgate catalog import` then a reload: the catalog's digest is new, but each
    integration kept its own part (discovery/parts.py), keyed by its own files; only the
    new one is analysed, and the index scores, ranks and matches as one analysed whole."""
    three = dict(list(catalog.integrations.items())[:3])
    four = dict(list(catalog.integrations.items())[:4])
    parts_of = {slug: catalog.parts[slug] for slug in four}
    SearchIndex(Catalog(integrations=three, digest="three", parts=parts_of))
    assert len(list(cache.glob("part-*.part"))) == 3
    assert len(list(cache.glob("part-semantic-*.npy"))) == 3
    made: list[str] = []
    real = analysed.part

    def counting(analyzer: Analyzer, integration: Any, seen: Any) -> analysed.Part:
        made.append(integration.slug)
        return real(analyzer, integration, seen)

    monkeypatch.setattr(analysed, "part", counting)
    kept = SearchIndex(Catalog(integrations=four, digest="four", parts=parts_of))
    assert made == [list(four)[3]]
    whole = SearchIndex(Catalog(integrations=four))  # no digests: analysed whole, kept nowhere
    assert made == [list(four)[3], *four]
    assert kept.semantic is not None
    assert whole.semantic is not None
    assert np.array_equal(kept.semantic.vectors, whole.semantic.vectors)
    _answer_alike(whole, kept)


def test_a_damaged_part_is_analysed_again(catalog: Catalog, cache: Path) -> None:
    one = dict(list(catalog.integrations.items())[:1])
    parts_of = {slug: catalog.parts[slug] for slug in one}
    fresh = SearchIndex(Catalog(integrations=one, digest="a", parts=parts_of))
    for i, entry in enumerate([*cache.glob("part-*.part"), *cache.glob("part-*.npy")]):
        # Not JSON, or JSON of another shape (a list too short for the endpoints).
        entry.write_bytes(b"{not json" if i % 2 else b'{"documents": [], "lengths": [1]}')
    again = SearchIndex(Catalog(integrations=one, digest="b", parts=parts_of))
    assert again.bm25.vocab_dict == fresh.bm25.vocab_dict
    assert [h.row for h in again.search(QUERIES[0], ("*",))] == [
        h.row for h in fresh.search(QUERIES[0], ("*",))
    ]


def test_each_integration_has_its_own_digest(tmp_path: Path) -> None:
    """A file changed changes its own integration's digest and the catalog's, no other."""
    fixture = Path(__file__).parents[2] / "fixtures" / "catalog" / "oauthy.yaml"
    (tmp_path / "a.yaml").write_text(fixture.read_text().replace("slug: oauthy", "slug: aaa"))
    (tmp_path / "b.yaml").write_text(fixture.read_text().replace("slug: oauthy", "slug: bbb"))
    before = load_catalog([tmp_path], shipped=False)
    (tmp_path / "b.yaml").write_text(
        fixture.read_text().replace("slug: oauthy", "slug: bbb").replace("name:", "name: ", 1)
        + "\n"
    )
    after = load_catalog([tmp_path], shipped=False)
    assert set(before.parts) == {"aaa", "bbb"}
    assert after.parts["aaa"] == before.parts["aaa"]
    assert after.parts["bbb"] != before.parts["bbb"]
    assert after.digest != before.digest


def test_the_catalogs_snapshot_is_keyed_by_the_code_that_loaded_it(
    catalog: Catalog, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalog's digest is its files'; the same files loaded by other code (an overlay
    applied otherwise) may be another catalog: its analysis and vectors are not read."""
    before = analysed._path(catalog)
    monkeypatch.setattr(snapshot, "code", lambda: b"other loading code")
    assert analysed._path(catalog) not in (None, before)
