"""Chatty requests, eighth round (issue 26; docs/catalog.md, "Search"): a clause that only
asks joins the next, a title's period ends no sentence, everyday idioms of loudness and
the bin, and a story's words count at a share when the clause that asks names nothing
but what to do. Cases written for these tests, not taken from the evaluation sets."""

from __future__ import annotations

import pytest

from skillgate.discovery import confidence
from skillgate.discovery.idioms import idioms
from skillgate.discovery.phrasing import commanded, phrased
from skillgate.discovery.search import SearchIndex


@pytest.mark.parametrize(
    ("text", "asking"),
    [
        # "hey could you" names nothing: the clause that asks is the one after it.
        ("hey could you, um, archive the old repo, nobody uses it", "archive the old repo"),
        ("so, please, like, rename the channel to ops", "rename the channel to ops"),
    ],
)
def test_a_clause_that_only_asks_joins_the_next(text: str, asking: str) -> None:
    first = phrased(text).request.split(" . ")[0]
    assert first.endswith(asking)


def test_a_titles_period_ends_no_sentence() -> None:
    said = phrased("email Dr. Okafor that the lab results are in")
    assert " . " not in said.request
    assert "Okafor that the lab results" in said.request


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("turn the sound up", "set the playback volume"),
        ("can you turn down the music", "can you set the playback volume"),
        ("chuck the receipts in the bin", "trash the receipts"),
        # What is turned down and not heard is declined, not quieter.
        ("turn down the invitation", "turn down the invitation"),
        # Handing over is assigning; sliding or dragging over is moving.
        ("hand the onboarding checklist over to Priya", "assign the onboarding checklist to Priya"),
        ("drag the bug card over to In Review", "move the bug card to In Review"),
    ],
)
def test_idioms_of_loudness_the_bin_and_handing_over(text: str, plain: str) -> None:
    assert " ".join(idioms(text).split()) == plain


def test_a_louder_request_finds_the_players_volume(index: SearchIndex) -> None:
    hits = index.search("ok can you, well, turn the volume up, the party is starting", ("*",))
    assert hits[0].endpoint.name == "set_volume_for_users_playback"


def test_a_story_counts_at_a_share_when_the_ask_names_no_object(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "the inbox filled up with 30 newsletters from vendors during the launch, just trash them"
    hits = index.search(text, ("*",))
    shared = max(index.matches(text, hits))
    monkeypatch.setattr(confidence, "STORY_SHARE", 1.0)
    index._answers.clear()
    full = max(index.matches(text, hits))
    assert shared > full


def test_laughter_ends_a_thought_and_a_kind_verb_may_ask() -> None:
    # No comma: "lol" parts the story from the ask; "restart" (a verb of changing) asks.
    said = phrased("the printer jammed again lol just restart it", imperative=True)
    assert said.background == "the printer jammed again"
    assert said.request.startswith("just restart it")


def test_a_word_of_kind_is_no_unknown_object(index: SearchIndex) -> None:
    # "spare" says what kind of copy, not a thing the catalog does not know.
    text = "the template is perfect, could you make me a spare copy of it"
    assert max(index.matches(text, index.search(text, ("*",)))) >= confidence.MATCH_FLOOR


@pytest.mark.parametrize(
    ("text", "leads"),
    [
        # A story, then what to do: that clause leads the ranking's request.
        (
            "the movers broke two chairs yesterday, refund the delivery fee",
            "refund the delivery fee",
        ),
        # A question in it: as written.
        ("we're out of paper, order more?", "we're out of paper"),
        ("I'm after a dentist near work. Find one for me?", "I'm after a dentist near work"),
        # A clause that asks is the request already (its idiom read: "open a": create).
        ("the printer is down, can you open a ticket", "can you create a ticket"),
    ],
)
def test_the_ranking_reads_a_command_after_a_story(text: str, leads: str) -> None:
    assert commanded(text).request.startswith(leads)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("flip the card to Blocked", "move the card to Blocked"),
        ("let Omar see my travel calendar", "share my travel calendar with Omar"),
        ("start by pulling the refunds", "pulling the refunds"),
    ],
)
def test_idioms_of_states_sharing_and_first_steps(text: str, plain: str) -> None:
    assert " ".join(idioms(text).split()) == plain
