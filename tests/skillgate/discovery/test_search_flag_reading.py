"""What the no-match flag and the ranking read (issue 26, twenty-second round): a verb a
description writes only as a field's name is not what the call does (fields.py); a
conditional "if I need" asks nothing and "new ..." opens no request
(discovery/phrasing.py, leading.py); a link in what a request acts on is what it refers
to, not its words (discovery/lacks.py); a command after a request's questions leads its
ranking (phrasing.commanded). Cases written for these tests but where noted."""

from __future__ import annotations

import pytest

from skillgate.discovery.confidence import MATCH_FLOOR
from skillgate.discovery.fields import Fields
from skillgate.discovery.phrasing import _asks, commanded, phrased
from skillgate.discovery.search import SearchIndex
from tests.skillgate.discovery.quality import best_match


def _row(index: SearchIndex, slug: str, name: str) -> int:
    return next(h.row for h in index.hits if h.integration.slug == slug and h.endpoint.name == name)


def test_a_field_a_link_or_a_reads_filter_is_no_action(index: SearchIndex) -> None:
    fields = Fields([h.endpoint for h in index.hits])
    archive = index.analyzer.terms("archive")[0]
    # "Returns `channels` (..., is_archived, ...)" and the filter `exclude_archived` of a
    # read: fields; ".../archives/..." in a link: a path.
    assert fields.only(_row(index, "slack", "list_channels"), archive)
    assert fields.only(_row(index, "slack", "get_permalink"), archive)
    # Said in prose (Gmail's modify: "archive ..."), or a parameter of a call that changes
    # (GitHub's repository update takes `archived`): what the call does.
    assert not fields.only(_row(index, "gmail", "modify_message"), archive)
    assert not fields.only(_row(index, "github", "repos_update"), archive)
    # A word the description holds nowhere is not "only a field" either, nor no word.
    assert not fields.only(_row(index, "slack", "list_channels"), "zzz")
    assert not fields.only(_row(index, "slack", "list_channels"), "")


@pytest.mark.parametrize(
    "request_",
    [
        "orion shipped last month, so can you archive the #proj-orion channel in slack?",
        "Archive the #offsite-2024 channel on Slack, it's been quiet since June.",
    ],
)
def test_an_action_only_a_field_names_is_flagged(index: SearchIndex, request_: str) -> None:
    # Slack has no call that archives: every result under the floor.
    assert best_match(index, request_) < MATCH_FLOOR


@pytest.mark.parametrize(
    "request_",
    [
        "archive the latest email from Dana in gmail",
        "archive the acme/legacy repo on github",
    ],
)
def test_an_action_a_call_does_still_fits(index: SearchIndex, request_: str) -> None:
    assert best_match(index, request_) >= MATCH_FLOOR


def test_if_i_need_asks_nothing() -> None:
    # A need said as a condition ("if I need", "whether I need") is no ask; said as one is.
    assert not _asks("trying to decide if I need a coat")
    assert not _asks("not sure whether I need to see the logs")
    assert _asks("I need the invoices from March")
    assert _asks("if it's not too late, can you move it to friday")
    text = "what's the weather looking like in Chicago tomorrow? trying to decide if I need a coat"
    # The question asks; "trying to decide if I need a coat" is why.
    assert phrased(text, imperative=True).request.startswith("what's the weather")


def test_the_weather_asked_with_its_reason_is_flagged(index: SearchIndex) -> None:
    text = "what's the weather looking like in Chicago tomorrow? trying to decide if I need a coat"
    assert best_match(index, text) < MATCH_FLOOR


def test_new_opens_no_request() -> None:
    text = (
        "new job and embarrassingly I already forgot my manager's name lol. "
        "who's my manager in our Microsoft 365 directory?"
    )
    # No clause asks in words; "new job ..." is no command, the question is the request.
    assert phrased(text, imperative=True).request.startswith("who's my manager")


def test_a_link_acted_on_is_what_it_refers_to(index: SearchIndex) -> None:
    lacks = index._matching._lacks
    text = "add https://www.youtube.com/watch?v=dQw4w9WgXcQ to my Party playlist"
    # The link is a video: YouTube adds one to a playlist (not "watch" or "com").
    assert not lacks.lacks(text, "youtube", False)
    assert best_match(index, text) >= MATCH_FLOOR
    # A call the product lacks is still read so.
    assert lacks.lacks(
        "pin the https://www.youtube.com/watch?v=dQw4w9WgXcQ video", "youtube", False
    )


def test_a_command_after_the_questions_leads_the_ranking() -> None:
    text = (
        "my manager wants a status update by 3. what's on my plate in our tracker? "
        "list the tickets assigned to me that aren't closed yet"
    )
    assert commanded(text).request.startswith("list the tickets")
    # A question after the command: as written (BFCL's "... Find me a comedy?").
    laugh = "I'm in the mood for a laugh. Find me a comedy?"
    assert commanded(laugh).request == phrased(laugh).request
