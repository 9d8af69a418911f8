"""A request's kind (reading or changing) against the verb an endpoint's name leads with
(discovery/kinds.py)."""

from __future__ import annotations

import pytest

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.kinds import KIND_MISMATCH, Kinds, name_kinds
from skillgate.discovery.search import SearchIndex

NAMES = ["add_postgres_server", "list_servers", "Music_3_LookupMusic", "play_song", "weather"]


def _factors(request: str) -> list[float] | None:
    analyzer = Analyzer()
    found = Kinds(analyzer, name_kinds(analyzer, NAMES)).factors(analyzer.query(request))
    return None if found is None else found.tolist()


def test_a_request_to_read_demotes_calls_named_for_changing() -> None:
    m = KIND_MISMATCH
    assert _factors("can you list all PostgreSQL servers") == [m, 1, 1, m, 1]
    assert _factors("find me a pop song from 2018") == [m, 1, 1, m, 1]
    assert _factors("what's the weather in Hanoi") == [m, 1, 1, m, 1]  # a question: get


def test_a_request_to_change_demotes_calls_named_for_reading() -> None:
    m = KIND_MISMATCH
    assert _factors("please add a new postgres server") == [1, m, m, 1, 1]


def test_the_other_verbs_of_changing_say_a_kind() -> None:
    """Issue 26, twenty-seventh round: verbs.CHANGING holds the other verbs a request
    may say of changing ("resend", "unsubscribe", "suspend", "copy"), not those as often a
    thing past a request's first word ("the open rate", "a link to it")."""
    m = KIND_MISMATCH
    for request in ("resend the server", "unsubscribe the server", "suspend the server"):
        assert _factors(request) == [1, m, m, 1, 1]
    assert _factors("the open rate of the server") is None
    assert _factors("I need a link to the server") is None


def test_a_request_led_by_no_verb_of_either_kind_changes_nothing() -> None:
    assert _factors("postgres servers") is None
    assert _factors("reply to the comment on the budget doc") is None  # as often a noun


def test_a_question_asks_to_read() -> None:
    m = KIND_MISMATCH
    assert _factors("are there any salons in Rohnert Park") == [m, 1, 1, m, 1]
    assert _factors("did you play the new song") == [m, 1, 1, m, 1]
    # "how" asks for the call: the verb after it says the kind
    assert _factors("how do I add a server") == [1, m, m, 1, 1]
    # "what" and things said in the plural (issue 26, twenty-seventh round): a read, where
    # the first word after it had been taken for the verb ("what songs have I played":
    # Spotify's `play` first, "what notifications do i have": `mark_..._as_read`).
    assert _factors("what servers does the team have") == [m, 1, 1, m, 1]
    assert _factors("what songs have i played") == [m, 1, 1, m, 1]
    assert _factors("did acme/web add a server") == [m, 1, 1, m, 1]  # "did" before any word
    assert _factors("am i playing a song") == [m, 1, 1, m, 1]
    assert _factors("how's the server we added") == [m, 1, 1, m, 1]


def test_the_verb_of_the_asking_clause_when_the_first_word_is_none() -> None:
    m = KIND_MISMATCH
    # "finding": the request's verb; "planned" (a participle) and "list" (a noun there) not
    assert _factors("my friends and I would like some help finding a pop song") == [
        m, 1, 1, m, 1
    ]  # fmt: skip
    assert _factors("the servers we planned") is None
    assert _factors("stick the server on my to-do list") is None


def test_get_with_an_indefinite_object_obtains_rather_than_reads() -> None:
    m = KIND_MISMATCH
    assert _factors("can I get three tickets for the 7pm show") is None
    assert _factors("get me a song to play") is None
    assert _factors("get the servers in our environment") == [m, 1, 1, m, 1]


def test_a_word_as_often_a_noun_is_a_verb_before_what_it_acts_on(index: SearchIndex) -> None:
    """Sixteenth round: "star", "book", "tag" (verbs.NOUN_VERBS) lead a request without
    saying its kind ("star count of acme/web"), unless what they act on follows them
    ("star the acme/cli repo"): then the request asks to change, and calls named for
    reading (`get_repo`, `check ... is_starred`) are demoted."""
    assert index.analyzer.query("star the acme/cli repo for me").acts
    assert index.analyzer.query("please tag acme/cli#12 as urgent").acts
    assert not index.analyzer.query("star count of acme/cli").acts
    top = [h.endpoint.name for h in index.rank("star the acme/cli repo", ("*",), None, 3)]
    assert top[0] == "activity_star_repo_for_authenticated_user"


@pytest.mark.parametrize(
    ("request_", "first"),
    [
        ("what notifications came in for acme/web this week?",
         "github/activity_list_repo_notifications_for_authenticated_user"),
        ("what messages are waiting in my outlook junk folder?",
         "outlook/me_mail_folders_list_messages"),
        ("what webhooks are set up on acme/api?", "github/repos_list_webhooks"),
    ],
)  # fmt: skip
def test_a_what_question_of_things_ranks_a_read_first(
    index: SearchIndex, request_: str, first: str
) -> None:
    """Issue 26, twenty-seventh round: each had ranked a call named for changing first
    (`mark_repo_notifications_as_read`, `move_message`, `create_webhook`). Cases written
    for this test."""
    hit = index.rank(request_, ("*",), None, 10)[0]
    assert f"{hit.integration.slug}/{hit.endpoint.name}" == first
