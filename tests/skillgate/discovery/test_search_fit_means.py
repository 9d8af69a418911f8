"""`FIT_MEANS` (discovery/synonyms.py): a word read as what it stands for where a result's
fit is judged (`match`), never for ranking. "who" asks for people: a call listing them
fits, but ranked as "user" it put calls that take a user first."""

from __future__ import annotations

import pytest

from skillgate.discovery.search import SearchIndex


def _first(index: SearchIndex, request: str) -> str:
    hits = index.rank(request, ("*",), None, 10)
    return f"{hits[0].integration.slug}/{hits[0].endpoint.name}"


@pytest.mark.parametrize(
    "request_", ["who has starred our acme/web repo", "who starred acme/web on github"]
)
def test_who_ranks_the_people_listed_before_a_call_taking_a_user(
    index: SearchIndex, request_: str
) -> None:
    # With "who" ranked as "user", the repos starred *by a user* came first.
    assert _first(index, request_) == "github/activity_list_stargazers_for_repo"


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        ("who has access to the budget sheet", "google_drive/list_permissions"),
        ("who am I logged in as on linear", "linear/viewer"),
    ],
)
def test_who_still_counts_as_people_in_the_match(
    index: SearchIndex, request_: str, expected: str
) -> None:
    # Left out of the match too, these answerable requests were flagged as no match.
    answer = index.answer(request_, ("*",), None, 10)
    names = [f"{h.integration.slug}/{h.endpoint.name}" for h in answer.hits]
    assert expected in names[:3]
    assert not answer.no_match
