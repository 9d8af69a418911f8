"""Values a request carries (an amount, an email address) prefer the calls that take one
(discovery/values.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from skillgate.discovery.values import ITEM_BOOST, VALUE_BOOST, Values, taken


def _hit(*params: str, path: str = "/things") -> Any:
    parameters = [SimpleNamespace(name=p) for p in params]
    return SimpleNamespace(endpoint=SimpleNamespace(parameters=parameters, path=path))


HITS = [
    _hit("amount", "receiver"),
    _hit("email_address"),
    _hit("query", "city"),
    _hit("product_id"),
    _hit("title"),
]


def _values(hits: list[Any]) -> Values:
    return Values(taken(h.endpoint for h in hits))


def _known(name: str) -> bool:
    return name in {"Mailchimp", "Google Calendar", "Review"}


def _factors(text: str) -> list[list[float]]:
    return [f.tolist() for f in _values(HITS).factors(text, _known)]


def test_an_amount_prefers_calls_taking_one() -> None:
    assert _factors("send $125 to Alex") == [[VALUE_BOOST, 1, 1, 1, 1]]
    assert _factors("3 friends gave me 10 euros each") == [[VALUE_BOOST, 1, 1, 1, 1]]


def test_an_email_address_prefers_calls_taking_one() -> None:
    assert _factors("add maria.g@brightpath.io to the newsletter") == [[1, VALUE_BOOST, 1, 1, 1]]


def test_a_request_naming_no_value_changes_nothing() -> None:
    assert _factors("list the 20 newest issues") == []


def test_a_place_prefers_calls_taking_one_but_a_product_is_no_place() -> None:
    assert _factors("find me a psychologist in Santa Rosa") == [[1, 1, VALUE_BOOST, 1, 1]]
    assert _factors("add her to our newsletter audience in Mailchimp") == []
    assert _factors("what's on my agenda in Google Calendar") == []
    assert _factors("the checkout bug sitting in Review") == []  # a word the catalog knows
    assert _factors("a cab to 2508 University Avenue") == [[1, 1, VALUE_BOOST, 1, 1]]


def test_an_id_and_quoted_text_prefer_calls_taking_them() -> None:
    assert _factors("is product ID SK123 in stock") == [[1, 1, 1, VALUE_BOOST, 1]]
    assert _factors("add a card 'Kickoff with Brightline'") == [[1, 1, 1, 1, VALUE_BOOST]]
    assert _factors("it's Sam's") == []  # apostrophes quote nothing


def test_a_year_and_a_limit_prefer_calls_taking_them() -> None:
    hits = [_hit("year"), _hit("max_results"), _hit("query")]
    found = [f.tolist() for f in _values(hits).factors("find 5 songs from 2018", _known)]
    assert found == [[VALUE_BOOST, 1, 1]]
    found = [f.tolist() for f in _values(hits).factors("limit it to 5 articles", _known)]
    assert found == [[1, VALUE_BOOST, 1]]


def test_a_format_prefers_calls_taking_one() -> None:
    hits = [_hit("format"), _hit("query")]
    found = [f.tolist() for f in _values(hits).factors("search apple, respond in json", _known)]
    assert found == [[VALUE_BOOST, 1]]


def test_a_call_on_one_item_is_one_whose_path_ends_with_its_parameter() -> None:
    """`Values.item`: the factor of a reading request naming one item (search.py)."""
    paths = ["/v1/invoices", "/v1/invoices/{invoice}", "/Calls/{Sid}.json", "/i/{id}/void"]
    item = _values([_hit(path=p) for p in paths]).item.tolist()
    assert item == [1, ITEM_BOOST, ITEM_BOOST, 1]
