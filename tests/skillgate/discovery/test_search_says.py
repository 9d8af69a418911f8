"""Requests in users' words (`Endpoint.says`, a catalog file's `says:` block): the ranking
reads them, a result's `match` does not (discovery/own.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import pytest
import yaml

from skillgate.catalog.loader import Catalog, CatalogError, load_catalog
from skillgate.catalog.models import Integration
from skillgate.discovery import own, semantic
from skillgate.discovery.analysed import K1, B, _document, for_catalog
from skillgate.discovery.search import SearchIndex
from tests.skillgate.discovery.test_search_index import CALENDAR, _endpoint, integration_file


def _shop_file(says: dict[str, list[str]]) -> dict[str, Any]:
    """A catalog file's mapping: two endpoints and a `says:` block."""
    endpoints = [
        _endpoint("get_balance", "balance", "Get the balance of the account."),
        _endpoint("list_orders", "orders", "List the orders, newest first."),
    ]
    return {**integration_file("shop", endpoints), "says": says}


def _shop(says: dict[str, list[str]]) -> Integration:
    return Integration.model_validate(_shop_file(says))


@pytest.fixture(autouse=True)
def _first_stage_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(semantic.ENV, "0")


def test_a_files_says_block_goes_on_its_endpoints() -> None:
    shop = _shop({"get_balance": ["what's in the kitty", "how much cash do we have"]})
    balance, orders = shop.endpoints
    assert balance.says == ("what's in the kitty", "how much cash do we have")
    assert orders.says == ()


@pytest.mark.parametrize(
    ("says", "error"),
    [
        ({"get_balanse": ["what's in the kitty"]}, "says: no endpoint named 'get_balanse'"),
        ({"get_balance": "what's in the kitty"}, "says"),
        ({"get_balance": [""]}, "says"),
    ],
)
def test_a_bad_says_block_is_refused(says: dict[str, object], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        _shop(says)  # type: ignore[arg-type]


def test_a_catalog_file_names_a_missing_endpoint(tmp_path: Path) -> None:
    path = tmp_path / "shop.yaml"
    path.write_text(yaml.safe_dump(_shop_file({"trash_it": ["bin the note"]})), "utf-8")
    with pytest.raises(CatalogError, match="says: no endpoint named 'trash_it'") as raised:
        load_catalog([path], shipped=False)
    assert str(raised.value).startswith(str(path))


def test_the_ranking_reads_what_users_say_and_the_match_does_not() -> None:
    plain = SearchIndex(Catalog(integrations={"shop": _shop({}), "calendar": CALENDAR}))
    said = SearchIndex(
        Catalog(
            integrations={
                "shop": _shop({"get_balance": ["what's in the kitty"]}),
                "calendar": CALENDAR,
            }
        )
    )
    assert plain.search("the kitty", ("*",), None, 3) == []
    hits = said.search("the kitty", ("*",), None, 3)
    assert [h.endpoint.name for h in hits] == ["get_balance"]
    # The match reads the endpoint's own words: "kitty" is none of them, so the request
    # holds nothing the call's own texts say (it is found, not vouched for).
    assert said.matches("the kitty", hits) == [0.0]
    # A request in the endpoint's own words matches as it did without the phrasings.
    for index in (plain, said):
        found = index.search("get the account balance", ("*",), None, 3)
        assert found[0].endpoint.name == "get_balance"
    assert said.matches("get the account balance", found) == plain.matches(
        "get the account balance", plain.search("get the account balance", ("*",), None, 3)
    )


def test_own_marks_agree_with_each_documents_own_terms(index: SearchIndex) -> None:
    """On the shipped index: the match's terms of an endpoint with phrasings are its own
    texts' terms, no more (each document's, rebuilt here without them)."""
    seen: dict[str, list[str]] = {}
    said = 0
    for row, h in enumerate(index.hits):
        if not h.endpoint.says:
            continue
        document, length, _ = _document(index.analyzer, h.integration, h.endpoint, seen)
        assert length < len(document)
        mine = frozenset(document[:length])
        assert set(document) > mine
        assert index._documents.terms(row) == mine
        said += 1
    assert said >= 600  # every curated endpoint has its phrasings


def test_document_frequency_counts_own_entries_only() -> None:
    shop = _shop({"get_balance": ["what's in the kitty"]})
    index = SearchIndex(Catalog(integrations={"shop": shop}))
    [kitty], [balance] = index.analyzer.terms("kitty"), index.analyzer.terms("balance")
    documents = index._documents
    assert kitty not in documents.terms(0)
    assert balance in documents.terms(0)
    assert kitty in index.bm25.vocab_dict  # indexed: the ranking reads it
    marks = for_catalog(Catalog(integrations={"shop": shop}), index.analyzer).own
    assert marks.sum() == len(marks) - 1  # one entry, kitty's in get_balance, not own
    frequency = own.document_frequency(index.bm25, marks)
    assert kitty not in frequency
    assert frequency[balance] == 1
    rows = own.Rows(index.bm25, marks)
    found = rows.get(kitty)
    assert found is not None
    assert len(found) == 0
    assert np.array_equal(rows.get(balance), np.array([0]))
    assert rows.get("nowhere") is None


def test_a_phrasings_words_do_not_keep_a_typo_from_being_corrected() -> None:
    """The speller knows the endpoints' own words only: a word only a phrasing holds (an
    id's fragment, a writer's slip) does not keep the same typo in a request as written."""
    said = {"list_orders": ["orders of usr_7Hq2kL", "the balanse of our orders"]}
    index = SearchIndex(Catalog(integrations={"shop": _shop(said)}))
    assert index._speller.word("balanse") == "balance"
    assert index._speller.correct("what is the balanse") == "what is the balance"


def test_a_phrasings_example_values_are_not_its_words() -> None:
    """An id, a repository or a variable's name in a phrasing (texts.said) is a
    made-up or documented example, no word of the endpoint's document: a request carrying
    the same example value is not drawn to it, as a request's own references are read."""
    said = {"list_orders": ["orders of customer 4uLU6hMCjMI75M1A2tKUQC in acme/web, API_URL set"]}
    shop = _shop(said)
    index = SearchIndex(Catalog(integrations={"shop": shop}))
    document, length, _ = _document(index.analyzer, shop, shop.endpoints[1], {})
    phrasing = set(document[length:])
    assert set(index.analyzer.terms("orders of customer in set")) <= phrasing
    values = index.analyzer.terms("4uLU6hMCjMI75M1A2tKUQC acme web API URL")
    assert len(values) >= 5
    assert phrasing.isdisjoint(values)
    assert index.search("4uLU6hMCjMI75M1A2tKUQC", ("*",), None, 3) == []
    assert index.search("customer", ("*",), None, 3)[0].endpoint.name == "list_orders"


def _scored(corpus: list[list[str]], lengths: list[int]) -> tuple[bm25s.BM25, np.ndarray]:
    bm25 = bm25s.BM25(k1=K1, b=B)
    bm25.index(corpus, show_progress=False)
    return bm25, own.fielded(bm25, corpus, lengths, K1, B)[0]


def _score(bm25: bm25s.BM25, scores: np.ndarray, term: str, document: int) -> float:
    column = bm25.vocab_dict[term]
    starts, docs = bm25.scores["indptr"], bm25.scores["indices"]
    at = starts[column] + list(docs[starts[column] : starts[column + 1]]).index(document)
    return float(scores[at])


def test_without_phrasings_the_fields_score_as_bm25s() -> None:
    corpus = [["get", "balanc", "account"], ["list", "order", "order"], ["balanc", "order"]]
    bm25, scores = _scored(corpus, [len(c) for c in corpus])
    np.testing.assert_allclose(scores, bm25.scores["data"], rtol=1e-6)


def test_phrasings_weigh_a_word_by_their_share_and_leave_own_words_as_they_were() -> None:
    """BM25F (own.fielded): more phrasings do not lengthen the endpoint's own texts, and
    a word one phrasing of five uses weighs less than one every phrasing uses."""
    own_texts, other = ["get", "balanc", "account"], ["list", "order", "shop"]
    one = [[*own_texts, "kitti"], other]
    five = [[*own_texts, "kitti", "cash", "money", "bank", "fund"], other]
    bm25_one, one_scores = _scored(one, [3, 2])
    bm25_five, five_scores = _scored(five, [3, 2])
    own_one = _score(bm25_one, one_scores, "balanc", 0)
    assert _score(bm25_five, five_scores, "balanc", 0) == pytest.approx(own_one)
    # One field, as bm25s scores it: the phrasings' length takes from the own words.
    assert _score(bm25_five, bm25_five.scores["data"], "balanc", 0) < own_one
    assert _score(bm25_five, five_scores, "kitti", 0) < _score(bm25_one, one_scores, "kitti", 0)
