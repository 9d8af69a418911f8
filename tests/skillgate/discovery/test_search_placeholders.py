"""The made-up company names of the providers' documentation and of our phrasings
("acme/web", "Acme Corp", "jane@contoso.com", Gmail's label "Clients/Acme") are names, as a
caller's own company's is: no term of a request or of a document (stopwords.PLACEHOLDERS;
issue 26, twenty-sixth round). A request saying one had matched the phrasings that happen
to use it (3,441 of them said "acme")."""

from __future__ import annotations

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.search import SearchIndex


def test_a_placeholder_name_is_no_term() -> None:
    terms = Analyzer().terms("which teams exist in the Acme org, and is jane@contoso.com in one")
    assert "acm" not in terms
    assert "contoso" not in terms
    assert "team" in terms


def test_no_document_holds_a_placeholder_name(index: SearchIndex) -> None:
    documents = index._matching._documents
    assert documents is not None
    held = [h.endpoint.name for h in index.hits if {"acm", "contoso"} & documents.terms(h.row)]
    assert held == []


def test_a_placeholder_name_ranks_nothing_first(index: SearchIndex) -> None:
    # Gmail's `create_label` says "Clients/Acme": the only call whose text held the name.
    text = "Acme Logistics is now Acme Freight. Replace 'Acme Logistics' in the vendor contract doc"
    first = [f"{h.integration.slug}/{h.endpoint.name}" for h in index.rank(text, ("*",), None, 3)]
    assert "gmail/create_label" not in first
