"""A description's clause pointing to another call is no word of this call's document
(issue 26, twenty-seventh round): "to cancel at the period's end use update_subscription"
(Stripe's cancel_subscription), "then write cells with update_values or append_values"
(Sheets' create_spreadsheet) say what the other call does (texts.others). The clause is
left out of the document but not of its length (analysed._document, own.fielded): a
document made shorter would score higher for every word it keeps ("add a new tab called
June to the Timesheet sheet" had ranked create_spreadsheet first when it was left out of
both)."""

from __future__ import annotations

from collections.abc import Mapping

import bm25s
import numpy as np
import pytest

from skillgate.catalog.loader import load_catalog
from skillgate.discovery import own
from skillgate.discovery.analysed import K1, B
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.texts import others
from tests.skillgate.discovery.quality import first


def _description(slug: str, name: str) -> tuple[str, Mapping[str, object]]:
    integration = load_catalog().integrations[slug]
    return integration.named[name].description, integration.named


def test_a_clause_pointing_to_another_call_is_left_out() -> None:
    text, names = _description("stripe", "cancel_subscription")
    kept, aside = others(text, names, "cancel_subscription")
    assert (
        aside == "to cancel at the period's end use update_subscription with cancel_at_period_end."
    )
    assert kept.startswith("Cancel a subscription at once")
    assert "right away" in kept
    text, names = _description("google_sheets", "create_spreadsheet")
    kept, aside = others(text, names, "create_spreadsheet")
    assert aside == "then write cells with update_values or append_values."
    assert "Create a new spreadsheet" in kept


def test_a_call_named_as_where_an_input_comes_from_stays() -> None:
    """ "the root folder's id from get_drive_root" says what this call takes: kept."""
    text, names = _description("onedrive", "list_folder")
    assert "get_drive_root" in text
    assert others(text, names, "list_folder") == (text, "")
    # Nor is the call's own name, nor a name no call of the integration has.
    assert others("Use get_balance for the rest.", {"get_balance"}, "get_balance")[1] == ""
    assert others("Use other_call for the rest.", {"get_balance"}, "get_balance")[1] == ""


def _scored(corpus: list[list[str]], lengths: list[int], aside: list[int]) -> float:
    """The score of term "x" in document 0."""
    bm25 = bm25s.BM25(k1=K1, b=B)
    bm25.index(corpus, show_progress=False)
    scores = own.fielded(bm25, corpus, lengths, K1, B, aside)[0]
    column = bm25.vocab_dict["x"]
    starts, docs = bm25.scores["indptr"], bm25.scores["indices"]
    at = starts[column] + list(docs[starts[column] : starts[column + 1]]).index(0)
    return float(scores[at])


def test_the_terms_left_out_still_count_in_the_documents_length() -> None:
    # Document 0's own texts: "x" and three words left out; a phrasing "s" after them.
    whole = _scored([["x", "a", "b", "c", "s"], ["y", "s"]], [4, 1], [0, 0])
    left_out = _scored([["x", "s"], ["y", "s"]], [1, 1], [3, 0])
    shorter = _scored([["x", "s"], ["y", "s"]], [1, 1], [0, 0])
    assert left_out == pytest.approx(whole)
    assert shorter > whole
    assert np.isfinite(left_out)


def test_the_ranking_reads_the_call_the_clause_points_to(index: SearchIndex) -> None:
    # Written for this test; ranked cancel_subscription first before.
    asked = "let her subscription run until the end of the period, then stop it"
    assert first(index, asked) == "stripe/update_subscription"
    # From the catalog-wide measure (search_phrasings_second.yaml): add_labels first before.
    asked = "can you replace all labels on acme/api#301 with just needs-review?"
    assert first(index, asked) == "github/issues_set_labels"
    # The common call the shorter document had lost stays first.
    asked = "add a new tab called June to the Timesheet sheet"
    assert first(index, asked) == "google_sheets/batch_update_spreadsheet"
