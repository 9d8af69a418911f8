"""Spelling correction of query words against the catalog's vocabulary
(discovery/spelling.py): typos found, real words, names and ids left as written."""

from __future__ import annotations

import pytest

from skillgate.discovery.search import SearchIndex
from skillgate.discovery.spelling import Speller, name_words

CATALOG_WORDS = {"close": 40, "issue": 90, "calendars": 12, "password": 8, "trash": 5}


def _speller() -> Speller:
    return Speller(CATALOG_WORDS, ["who", "mail"], lambda w: w in CATALOG_WORDS)


def test_a_typo_becomes_the_catalog_word() -> None:
    speller = _speller()
    assert speller.correct("clsoe the isue") == "close the issue"  # a swap, a letter left out
    assert speller.correct("list my calenders") == "list my calendars"
    assert speller.correct("whos in there") == "who in there"  # a word of the tables


def test_words_names_and_references_are_left_alone() -> None:
    speller = _speller()
    # English words are not typos of the catalog's ("passport" is no "password").
    assert speller.correct("renew my passport") == "renew my passport"
    assert speller.correct("empty the crash") == "empty the crash"
    # A capitalised word after the first is a name; ids and references are not words.
    assert speller.correct("issue for Clsoe") == "issue for Clsoe"
    assert (
        speller.correct("isue cus_Isue ENG-12 acme/isue isu.e")
        == "issue cus_Isue ENG-12 acme/isue isu.e"
    )
    # The first word of a request may be capitalised and is corrected, its case kept when right.
    assert speller.correct("Clsoe it") == "close it"
    assert speller.correct("Close it") == "Close it"


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("list my calenders", "google_calendar/list_calendars"),
        ("clsoe the isue about the typo", "github/update_issue"),
        ("show my gmial drafts", "gmail/list_drafts"),
        ("serach notion for the hiring plan", "notion/search"),
        # The seventh round's: transpositions, rare words near a name word, split names.
        ("asign the jira bug PROJ-31 to kevin", "jira/assign_issue"),
        ("whats on my calender today", "google_calendar/list_events"),
        ("search you tube for sour dough bread tutorials", "youtube/search_videos"),
        (
            "who has starred our acme/web repo on git hub",
            "github/activity_list_stargazers_for_repo",
        ),
    ],
)
def test_misspelled_requests_find_the_endpoint(
    index: SearchIndex, request_: str, expected: str
) -> None:
    ranked = [f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(request_, ("*",))]
    assert expected in ranked[:3], ranked[:3]


def test_a_product_nothing_here_is_stays_as_written() -> None:
    """discovery/foreign.py's names are no typos ("uber" is one edit from "user")."""
    speller = Speller({"user": 50}, [], lambda w: w == "user")
    assert speller.correct("get me an uber") == "get me an uber"
    assert speller.correct("list the usre") == "list the user"


def test_a_word_of_more_endpoint_names_wins_a_tie() -> None:
    """ "asign" is one edit from "sign" (more frequent) and "assign" (in more names)."""
    words = {"sign": 600, "assign": 90, "cal": 900, "goal": 70}
    names = ["assign_issue", "assign_role", "assign_field", "sign_envelope", "get_goal"]
    speller = Speller(words, [], lambda w: w in words, name_words(names))
    assert speller.correct("asign the bug") == "assign the bug"
    # The most frequent word, of no endpoint's name, is kept: "gcal" is no "goal".
    assert speller.correct("check gcal") == "check cal"


def test_a_rare_english_word_near_a_much_commoner_name_word_is_a_typo() -> None:
    """ "calender" is an English word, 80 times rarer than "calendar" (in `list_calendar`);
    "passport" (14 times rarer than "password") and words of no name stay."""
    words = {"calendar": 50, "password": 20, "type": 30}
    names = ["list_calendar", "reset_password", "get_type"]
    speller = Speller(words, [], lambda w: w in words, name_words(names))
    assert speller.correct("whats on my calender") == "whats on my calendar"
    assert speller.correct("renew my passport") == "renew my passport"
    # A short word has many real neighbours: "typo" is no "type" (144 times commoner).
    assert speller.correct("fix the typo") == "fix the typo"


def test_a_product_name_in_two_words_is_joined_and_two_words_in_one_split() -> None:
    words = {"pull": 30, "requests": 40, "github": 10, "youtube": 5}
    speller = Speller(words, [], lambda w: w in words, [], ["GitHub", "YouTube", "Google Drive"])
    assert speller.correct("stars on git hub") == "stars on github"
    assert speller.correct("search you tube for it") == "search youtube for it"
    assert speller.correct("you and a tube") == "you and a tube"  # not side by side
    assert speller.correct("list pullrequests") == "list pull requests"


def test_a_misspelled_product_name_is_corrected_though_capitalised() -> None:
    """A capitalised word after the first is a name, unless it is no catalog or English
    word and a product's brand is a typo away (sixteenth round)."""
    words = {"newsletter": 5, "mailchimp": 3, "google": 9, "tasks": 4}
    brands = ["Mailchimp", "Google Tasks", "Google Drive"]
    speller = Speller(words, [], lambda w: w in words, [], brands)
    assert speller.correct("add her to our Mailchmp newsletter") == (
        "add her to our mailchimp newsletter"
    )
    assert speller.correct("add it to my Gooogle Tasks") == "add it to my google Tasks"
    # Names stay: no brand is a typo away, or they are words.
    assert speller.correct("email Priya and Gina") == "email Priya and Gina"
    assert speller.correct("ask Drew about Tasks") == "ask Drew about Tasks"


def test_the_likelier_slip_wins_a_tie() -> None:
    """ "contarct" is one edit from "contact" (more frequent) and "contract" (two letters
    swapped); "planing" from "playing" (mistyped) and "planning" (a letter left out)."""
    words = {"contact": 2400, "contract": 1, "playing": 6, "planning": 2}
    speller = Speller(words, [], lambda w: w in words)
    assert speller.correct("the contarct") == "the contract"
    assert speller.correct("the planing doc") == "the planning doc"


def _wide(text: str) -> str:
    """`text` in full-width letters, as an East Asian keyboard types them (a space stays)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def test_compatibility_forms_are_read_as_their_plain_letters(index: SearchIndex) -> None:
    """Full-width letters, a PDF's ligatures (U+FB01 for "fi") and non-breaking spaces
    are the plain words (spelling.plain, NFKC): before, "show my open issues" in
    full-width letters found nothing and "find the file" with its ligatures found Excel's
    workbook calls."""
    speller = _speller()
    assert speller.correct(_wide("clsoe") + " the\u00a0" + _wide("isue")) == "close the issue"
    assert speller.correct("clsoe the isue") == "close the issue"  # ASCII as before
    for written, plain in (
        (
            _wide("SHOW my open issues") + " on " + _wide("acme/web"),
            "SHOW my open issues on acme/web",
        ),
        ("\ufb01nd the \ufb01le budget.xlsx in drive", "find the file budget.xlsx in drive"),
        (
            "list\u00a0my open\u00a0pull requests on acme/web",
            "list my open pull requests on acme/web",
        ),
    ):
        got = [(h.integration.slug, h.endpoint.name) for h in index.search(written, ("*",))]
        want = [(h.integration.slug, h.endpoint.name) for h in index.search(plain, ("*",))]
        assert want, plain
        assert got == want, written
