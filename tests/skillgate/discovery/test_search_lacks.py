"""The no-match flag for calls a product of ours lacks (discovery/lacks.py) and for a
product nothing here is named as a word of what is acted on (Foreign.modified); cases
written for these tests, none of search_eval.yaml's."""

from __future__ import annotations

import pytest

from skillgate.discovery.confidence import MATCH_FLOOR, fits
from skillgate.discovery.foreign import Foreign
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.unknowns import Unknowns


def _flagged(index: SearchIndex, request_: str) -> bool:
    hits = index.rank(request_, ("*",), None, 10)
    return not fits(index.matches(request_, hits))


@pytest.mark.parametrize(
    "request_",
    [
        "print my errands list from google tasks",  # a verb no document of it holds
        "archive the packing list note in google keep",
        "please mute the roadmap page in notion",
        "remove the wontfix label in linear",  # its names hold labels, none removes one
        "make a new label called tech-debt in linear",  # a noun-verb stays the object
        # "share" stands for creating a permission: a call creating a task does not share
        "share my errands list in google tasks with sam",
    ],
)
def test_a_call_the_named_product_lacks_is_flagged(index: SearchIndex, request_: str) -> None:
    assert _flagged(index, request_), request_


@pytest.mark.parametrize(
    "request_",
    [
        "pin the deploy message in #eng on slack",
        "create a task list called Errands in google tasks",
        "rename my google tasks list to Errands",  # a verb of changing its names hold
        "save a note in google keep: gate code 4412",  # to save: to create
        "show me the labels in linear",  # to read is never judged
        "export the budget Google Sheet as a csv",  # Drive's export names Google Sheets
        "share the Q3 folder in google drive with sam",  # its permissions
        "kick sam out of the marketing group in google admin",  # "kick": only to remove
        # A state the call sets is no object (sixteenth round: "done" stood for complete
        # and state, and Linear's `list_workflow_states` names states but changes none).
        "the fix shipped this morning, can you mark it done in linear",
        # A verb of two words is what they say together: "set up" is to create (the
        # tables' `set up`), where "set" alone is to change and no name of Stripe's
        # changes a coupon (twenty-third round).
        "can you set up a stripe coupon for 15% off the first month",
        "setting up a coupon in stripe for our spring sale",
    ],
)
def test_a_call_the_named_product_has_is_not(index: SearchIndex, request_: str) -> None:
    assert not _flagged(index, request_), request_


def test_a_product_lacking_the_call_earns_no_share_and_keeps_its_order(index: SearchIndex) -> None:
    request_ = "archive the packing list note in google keep"
    hits = index.rank(request_, ("*",), None, 10)
    matches = index.matches(request_, hits)
    assert all(m < MATCH_FLOOR for m in matches)
    # The flag changes `match` only: the ranking is the one `rank` gave.
    assert index.rank(request_, ("*",), None, 10) == hits


@pytest.mark.parametrize(
    "clause",
    [
        "approve the gitlab merge request",  # in the object place
        "escalate the servicenow incident to tier two",
        "deactivate the okta user for Sam",
        "add a sticky note to the miro board",  # after a word that places it
        "reboot the heroku server for the staging app",  # its place, acted on
        "scale down the dynamodb cluster tonight",
    ],
)
def test_a_foreign_product_as_a_word_of_the_object_is_read(clause: str) -> None:
    assert Foreign().modified(clause, Unknowns.head(clause)), clause


@pytest.mark.parametrize(
    "clause",
    [
        "email the Calendly link to Sam",  # carried somewhere of ours
        "forward the Heroku dyno alert to the oncall channel",
        "find the Okta password reset email",  # what the product sends
        "schedule a call with the Zendesk account manager",  # who works there
        "make a sheet of our Datadog costs",  # after "of": what the sheet is about
        "book a table for my Delta flight crew",  # "for my": not a place
        "post the status in the #ops channel after the heroku app restarts",  # after
    ],
)
def test_a_foreign_product_in_passing_is_not(clause: str) -> None:
    assert not Foreign().modified(clause, Unknowns.head(clause)), clause


def test_a_foreign_products_thing_is_flagged_unless_ours_is_named(index: SearchIndex) -> None:
    assert _flagged(index, "approve the gitlab merge request")
    assert not _flagged(
        index, "approve the gitlab merge request mirrored in github pull request 12"
    )
