"""Product cues (discovery/cues.py): words and reference shapes that imply an integration
without naming it give it a soft boost, only when the query names no integration."""

from __future__ import annotations

import pytest

from skillgate.catalog.loader import Catalog
from skillgate.discovery import cues, search
from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.cues import CUE_CAP, CUE_STEP, SHAPE_CUES, Cues
from skillgate.discovery.search import NAMED_BOOST, SearchIndex
from tests.skillgate.discovery.test_search_index import _endpoint, _integration

# Two products with the same call: only the request's other words can tell them apart.
TWINS = {
    slug: _integration(slug, [_endpoint("send_message", "messages", "Send a message.")])
    for slug in ("gmail", "slack", "linear", "github")
}


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(Catalog(integrations=TWINS))


def _names(index: SearchIndex, query: str) -> list[str]:
    return [h.integration.slug for h in index.search(query, ("*",), limit=4)]


def _scores(index: SearchIndex, query: str) -> dict[str, float]:
    scores = index.scores(query)
    assert scores is not None
    return {h.integration.slug: float(s) for h, s in zip(index.hits, scores, strict=True)}


def test_a_cue_boosts_its_integration(index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    # Equal documents: catalog order without a cue, the cued product first with one.
    assert _names(index, "send a message") == ["gmail", "slack", "linear", "github"]
    assert _names(index, "send a message in the channel")[0] == "slack"
    assert _names(index, "send a message to her inbox")[0] == "gmail"
    cued = _scores(index, "send a message to the channel")
    monkeypatch.setattr(cues, "CUE_STEP", 0.0)
    plain = _scores(index, "send a message to the channel")
    assert cued["slack"] == pytest.approx(plain["slack"] * (1 + CUE_STEP))
    assert cued["gmail"] == plain["gmail"]


def test_cues_are_summed_up_to_the_cap(index: SearchIndex) -> None:
    analyzer = index.analyzer
    found = Cues(analyzer, set(TWINS))
    text = "send the mail with the attachment from my inbox, unread"
    assert found.found(text, analyzer.terms(text)) == {"gmail": 4}
    assert found.factors(text, analyzer.terms(text)) == {
        "gmail": pytest.approx(1 + CUE_STEP * CUE_CAP)
    }
    # A cue counts once however often it is said; a phrase is one cue (`pull request`).
    text = "merge the pull request, then the other pull request"
    assert found.found(text, analyzer.terms(text)) == {"github": 2}


def test_reference_shapes_are_cues(index: SearchIndex) -> None:
    analyzer = index.analyzer
    found = Cues(analyzer, set(TWINS))
    for text, slug in [
        ("mark ENG-55 as done", "linear"),
        ("close octocat/hello-world#12", "github"),
        ("what changed in #123", "github"),
        ("post it in #general", "slack"),
    ]:
        q = analyzer.query(text)
        assert found.found(text, q.terms) == {slug: SHAPE_CUES}, text
    assert _names(index, "send ENG-55 as a message")[0] == "linear"
    # Not a reference: a date, a ratio, a lower-case word with a number.
    for text in ["send it on 2024-05-01", "send a 50/50 split", "send eng-55"]:
        assert found.found(text, analyzer.query(text).terms) == {}, text


def test_a_named_integration_still_wins(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "channel" cues Slack, but the query names Gmail: only the name counts.
    assert _names(index, "send a message to the channel in Gmail")[0] == "gmail"
    named = _scores(index, "send a message to the channel in Gmail")
    monkeypatch.setattr(search, "NAMED_BOOST", 1.0)
    plain = _scores(index, "send a message to the channel in Gmail")
    assert named["gmail"] == pytest.approx(plain["gmail"] * NAMED_BOOST)
    assert named["slack"] == plain["slack"]  # no cue boost beside a named product
    # The strongest cues stay weaker than naming the product.
    assert 1 + CUE_STEP * CUE_CAP < NAMED_BOOST


def test_no_cue_no_change(index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    found = Cues(index.analyzer, set(TWINS))
    assert found.factors("send a message", ["send", "messag"]) == {}
    before = _scores(index, "send a message")
    monkeypatch.setattr(cues, "CUE_STEP", 5.0)
    assert _scores(index, "send a message") == before


def test_cues_of_integrations_not_loaded_are_ignored() -> None:
    analyzer = Analyzer()
    only_slack = Cues(analyzer, {"slack"})
    text = "reply in the thread to the mail about ENG-55"
    assert only_slack.found(text, analyzer.terms(text)) == {"slack": 1}
    assert Cues(analyzer, set()).found(text, analyzer.terms(text)) == {}
