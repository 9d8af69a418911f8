"""A reference to one item as the ranking reads it (issue 26, eighth round, references):
the thing it names prefers the calls on that thing (values.Things), a verb of reading
before it stands for get alone, and a link to a product's own page names the product."""

from __future__ import annotations

import pytest

from skillgate.discovery.search import SearchIndex
from skillgate.discovery.values import THING_BOOST

ISSUE_KEY = "SUP-912"
CHARGE = "ch_3AbCdEfGh1234567"


def _first(index: SearchIndex, text: str) -> str:
    h = index.search(text, ("*",), limit=1)[0]
    return f"{h.integration.slug}/{h.endpoint.name}"


def _row(index: SearchIndex, name: str) -> int:
    return next(
        i for i, h in enumerate(index.hits) if f"{h.integration.slug}/{h.endpoint.name}" == name
    )


def test_a_reference_says_its_thing_but_a_place_or_a_person(index: SearchIndex) -> None:
    analyzer = index.analyzer
    assert set(analyzer.terms("issue")) <= set(analyzer.query(f"bump {ISSUE_KEY}").things)
    assert set(analyzer.terms("charge")) <= set(analyzer.query(f"show {CHARGE}").things)
    assert analyzer.query("email bo@example.org the notes").things == ()
    assert analyzer.query("who starred acme/web").things == ()
    assert analyzer.query("what's new in #eng").things == ()


def test_calls_on_the_thing_are_preferred(index: SearchIndex) -> None:
    """A path taking one of the thing (`/issue/{issueIdOrKey}/...`) is preferred, another
    thing's (`/priority/{id}`) is not; an API whose paths take none (GraphQL) is alike."""
    factors = index._things.factors(index.analyzer.terms("issue"))
    assert factors is not None
    assert factors[_row(index, "jira/get_issue")] == THING_BOOST
    assert factors[_row(index, "jira/add_worklog")] == THING_BOOST
    assert factors[_row(index, "jira/get_priority")] == 1.0
    assert factors[_row(index, "linear/update_issue")] == THING_BOOST
    assert factors[_row(index, "linear/list_teams")] == THING_BOOST
    assert index._things.factors(["nosuchthingatall"]) is None


def test_reading_one_item_asks_for_it_not_a_listing(index: SearchIndex) -> None:
    """ "show me ch_...": get, not list; with a plural named, a listing again."""
    analyzer = index.analyzer
    (listing,) = analyzer.terms("list")
    assert listing not in analyzer.query(f"show me {CHARGE}").related
    assert listing in analyzer.query(f"show me the refunds of {CHARGE}").related
    assert listing in analyzer.query("show me my invoices").related


def test_a_link_names_its_product(index: SearchIndex) -> None:
    cues = index._cues
    assert cues.linked("who is on https://calendar.google.com/calendar/event?eid=QWxh") == {
        "google_calendar"
    }
    assert cues.linked("ask https://acme.slack.com/archives/C01/p1700 again") == {"slack"}
    assert cues.linked("move it to Done. thanks") == set()


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (f"show me {CHARGE}", "stripe/get_charge"),
        (f"what does {ISSUE_KEY} say in jira", "jira/get_issue"),
        ("change the due date of jira DOC-55 to june 3", "jira/update_issue"),
        ("grab po_1XyZ9aBcDeFgHi for me", "stripe/get_payout"),
    ],
)
def test_the_call_on_the_item_comes_first(index: SearchIndex, request_: str, expected: str) -> None:
    assert _first(index, request_) == expected
