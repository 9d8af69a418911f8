"""How a request is phrased (discovery/phrasing.py, issue 26): the clause that asks leads
the request, politeness is left out, times are context, not the call."""

from __future__ import annotations

import pytest

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.phrasing import phrased


@pytest.mark.parametrize(
    ("text", "request_", "context"),
    [
        # The clause that asks leads; the others follow it (their words still search).
        (
            "my boss wants the numbers, can you append a row to the sheet",
            "can you append a row to the sheet . my boss wants the numbers",
            "",
        ),
        # Politeness is no part of the request.
        ("would you mind adding Tom to the channel", "adding Tom to the channel", ""),
        ("if it's not too much trouble, play some music", "play some music", ""),
        ("sorry to bother you, but could you archive the issue", "could you archive the issue", ""),
        ("we leave on Friday. Help us get a bus?", "get a bus . we leave", "on Friday"),
        # Asking whether: "see if" shows, "check whether" checks.
        ("see if the deploy went through", "show me the deploy went through", ""),
        ("check whether the invoice was paid", "check the invoice was paid", ""),
        # "let Sam know" tells Sam ("let me know" asks to be told).
        ("let Sam know I'll be late", "tell Sam I'll be late", ""),
        # Times are arguments: context, never the request.
        (
            "push my dentist appointment to next Tuesday",
            "reschedule my dentist appointment",  # "push" as the verb it stands for
            "to next Tuesday",
        ),
        ("message the ops channel at 6pm tomorrow", "message the ops channel", "at 6pm tomorrow"),
        (
            "book a 30 minute call with Leo on Wednesday",
            "book a call with Leo",
            "30 minute on Wednesday",
        ),
        ("find a bus on 2023-06-15", "find a bus", "on 2023-06-15"),
        ("book it for 05/10/2023", "book it", "for 05/10/2023"),
        # A request of one clause and no time is as written.
        ("list the open pull requests", "list the open pull requests", ""),
    ],
)
def test_the_request_and_its_context(text: str, request_: str, context: str) -> None:
    found = phrased(text)
    assert found.request == request_
    assert found.context == context


def test_times_are_content_and_the_asking_verb_leads() -> None:
    analyzer = Analyzer()
    # "next" is no word of the request (Spotify's skip_to_next): it is content.
    q = analyzer.query("what's on my calendar next Monday")
    assert analyzer.terms("next")[0] not in q.terms
    assert analyzer.terms("next")[0] in q.content
    # The verb of the clause that asks is the request's first word (ACTIONS apply).
    chatty = analyzer.query("ugh, the job failed again, could you open a bug for it")
    assert chatty.related == analyzer.query("open a bug for it, the job failed again").related
    # A request that is nothing but a time keeps its words.
    assert analyzer.query("tomorrow").terms == tuple(analyzer.terms("tomorrow"))
