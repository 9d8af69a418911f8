"""How a request is phrased (discovery/phrasing.py, issue 26): the clause that asks leads
the request, politeness is left out, times are context, not the call."""

from __future__ import annotations

import pytest

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.idioms import idioms
from skillgate.discovery.phrasing import phrased
from skillgate.discovery.unknowns import first_clause


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
        # The day's events say when too (seventeenth round: "Before standup, can you show
        # me everything in Jira ..." ranked Google Calendar's list_events first).
        (
            "Before standup, can you show me my open Jira issues",
            "can you show me my open Jira issues",
            "Before standup",
        ),
        ("send the notes after the meeting", "send the notes", "after the meeting"),
        ("after work remind me to call mom", "remind me to call mom", "after work"),
        ("list what happened after the deploy", "list what happened after the deploy", ""),
        # Idioms and phrasal verbs: the plain verb they stand for.
        ("can you dig up the lease email", "can you find the lease email", ""),
        ("drop a note in #eng that I'm late", "post a message in #eng that I'm late", ""),
        ("put on some jazz", "play some jazz", ""),
        ("bounce the prod database", "restart the prod database", ""),
        (
            "can you put it on my calendar",
            "can you add it to my calendar",
            "",
        ),
        # A verdict is no request to look at anything ("looks" is not "look at").
        ("approve PR 91, looks good to me", "approve PR 91,", ""),
        ("look at the logs", "look at the logs", ""),
        # A request of one clause and no time is as written.
        ("list the open pull requests", "list the open pull requests", ""),
        # Sixteenth round: a tag at the end asks with the clause before it, and a list of
        # names is no clause each.
        (
            "my arms are full of boxes. queue up the next podcast episode, would you?",
            "queue up the next podcast episode would you . my arms are full of boxes",
            "",
        ),
        (
            "we plan the offsite. can you make a group chat with Omar, Ines and Kofi",
            "can you make a group chat with Omar Ines and Kofi . we plan the offsite",
            "",
        ),
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


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        # No clause says "can you": the one that starts with a verb of doing asks ...
        (
            "The client wants to talk about the contract. Set up a zoom call with them.",
            "Set up a zoom call with them . The client wants to talk about the contract",
        ),
        # ... else the sentence that asks a question.
        (
            "Honestly I've lost track of my week. What do I have going on?",
            "what's on my agenda . Honestly I've lost track of my week",
        ),
        # Sixteenth round: a request put as a possibility asks, its politeness out.
        (
            "the books close soon. any chance you could list our unpaid invoices?",
            "list our unpaid invoices . the books close soon",
        ),
        (
            "my inbox is a mess. is there a way to archive every newsletter at once",
            "archive every newsletter at once . my inbox is a mess",
        ),
        # "Any suggestions?" says nothing of what to do: no clause asks.
        (
            "I'm looking for a music event. Any suggestions?",
            "I'm looking for a music event. Any suggestions?",
        ),
    ],
)
def test_an_imperative_or_a_question_asks_when_no_clause_says_so(text: str, request_: str) -> None:
    assert phrased(text, imperative=True).request == request_


def test_chat_filler_is_no_term_unless_an_endpoint_is_named_for_it() -> None:
    analyzer = Analyzer()
    q = analyzer.query("I really need to focus, play anything chill")
    assert not {"realli", "anyth"} & set(q.terms)
    analyzer.names({"thing"})  # an API whose things are "things"
    assert "thing" in analyzer.query("list the things").terms


def test_a_negations_contraction_leaves_no_word() -> None:
    """ "isn't", "haven't": "isn" and "haven" are no words of what is asked (sixteenth
    round: they weighed as rare words in the match)."""
    terms = Analyzer().terms("which tasks isn't anyone on and who hasn't replied")
    assert not {"isn", "hasn"} & set(terms)
    assert {"task", "repli"} <= set(terms)


def test_a_noun_made_from_a_verb_shares_its_stem() -> None:
    analyzer = Analyzer()
    for verb, noun in [("subscribed", "subscriptions"), ("notify", "notification"),
                       ("describe", "description"), ("create", "creation")]:  # fmt: skip
        assert analyzer.terms(verb) == analyzer.terms(noun)


@pytest.mark.parametrize("text", ["pl\u017f send the report", "\u0131m late", "\u01c5 pls"])
def test_letters_that_only_fold_to_shorthand_are_left_as_written(text: str) -> None:
    """`_SHORT` matches case-insensitively as Unicode folds ("\u017f" as "s", "\u0131" as "i"); such
    a match is no shorthand, and a request holding one is phrased, not an error."""
    assert phrased(text).request


def test_what_to_be_reminded_of_is_content() -> None:
    """Issue 26, seventh round: "remind me (tomorrow) to renew my passport" asks for a
    reminder; "renew my passport" is its text (no token renewal), and "remind" leads as
    adding one."""
    analyzer = Analyzer()
    renew = analyzer.terms("renew")[0]
    for text in ("remind me to renew my passport", "remind me on friday to renew my passport"):
        q = analyzer.query(text)
        assert renew not in q.terms, text
        assert renew in q.content, text
        assert analyzer.terms("create")[0] in q.related, text
    # "remind me about the dentist": the dentist is the reminder's text as well.
    assert analyzer.terms("dentist")[0] in analyzer.query("remind me about the dentist").content
    # Nor is "about" after "tell me" ("tell me about the repo": what to get).
    assert analyzer.terms("repo")[0] in analyzer.query("tell me about the repo").terms


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("check off the todo", "mark as done the todo"),
        ("cross milk off my list", "mark milk as done my list"),
        ("tick it off", "mark it as done"),
        # Not another phrasal verb that has "off" further on.
        ("check in the code off main", "check in the code off main"),
        ("check the server logs", "check the server logs"),
    ],
)
def test_checking_off_is_marking_done(text: str, plain: str) -> None:
    """Issue 26, seventh round: "check off", "cross off", "tick off" mark a thing done
    ("check" alone reads: get, list)."""
    assert idioms(text) == plain


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("jot a quick note that the order shipped", "write a quick note that the order shipped"),
        ("jot down the plumber's number", "write a note the plumber's number"),
        ("could you look at his schedule", "could you look at his calendar"),
        ("what's on my schedule", "what's on my calendar"),
        # A schedule that is not a person's, or one of something, stays one.
        ("list the pipeline schedules", "list the pipeline schedules"),
        ("update my schedule of payments", "update my schedule of payments"),
    ],
)
def test_jotting_is_writing_and_a_persons_schedule_is_a_calendar(text: str, plain: str) -> None:
    """Issue 26, seventh round (chatty requests): "jot" a note is write one; "his
    schedule" is his calendar."""
    assert idioms(text) == plain


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        # "I just want to read ..." asks, past the background before it.
        (
            "My grandson set this up for me. I just want to read the last email from my daughter",
            "I just want to read the last email from my daughter . My grandson set this up for me",
        ),
        # A lead-in between the conjunction and the ask: the ask is a clause of its own,
        # the clause before it background.
        (
            "the website is fine but honestly I need the task list sorted",
            "I need the task list sorted . the website is fine",
        ),
        # "let ... know" with a longer name than four words: tell them.
        (
            "could you let the Sales channel in Microsoft Teams know that it shipped",
            "could you tell the Sales channel in Microsoft Teams that it shipped",
        ),
    ],
)
def test_wanting_to_read_asks_and_letting_a_long_name_know_tells(text: str, request_: str) -> None:
    """Issue 26, seventh round (chatty requests): the clause that asks, wherever it stands."""
    assert phrased(text).request == request_


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        (
            "I need to find an hour for a review with Dana. Can you look at their calendars",
            "Can you look at their calendars . I need to find an hour for a review with Dana",
        ),
        (
            "I need to get Marcus and Elena together. Could you find a slot that works",
            "Could you find a slot that works . I need to get Marcus and Elena together",
        ),
        # Stating the need is the request when nothing after asks the assistant.
        (
            "I need to see the invoices from March. the accountant asked",
            "I need to see the invoices from March . the accountant asked",
        ),
    ],
)
def test_a_clause_asking_the_assistant_comes_before_one_stating_a_need(
    text: str, request_: str
) -> None:
    """Issue 26, seventeenth round: "I need to get ..." states the speaker's need, and
    "could you find ..." after it is what the assistant is asked to do."""
    assert phrased(text).request == request_


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        (
            "Just curious, how much money is in our Stripe account?",
            "how much money is in our Stripe account?",
        ),
        ("out of curiosity, who starred the repo", "who starred the repo"),
        ("curious: what's on my calendar", "what's on my calendar"),
        ("a curious bug in the parser", "a curious bug in the parser"),
    ],
)
def test_curiosity_leads_in(text: str, request_: str) -> None:
    """Issue 26, seventeenth round: "just curious," before a question is a lead-in, not
    words of what is asked ("curious" and the question's "sitting" were two unknown words
    in the object place, every match x0.25). The match reads the request's first clause
    (since the twenty-first round the question a clause ends with comes first, the
    lead-in after it as background)."""
    assert first_clause(phrased(text, imperative=True).request) == request_.rstrip("?")


def test_gratitude_in_advance_asks() -> None:
    """Issue 26, seventeenth round: "I would be so grateful if you could put that on my
    calendar" asks, as "it'd be great if you could" does (no clause asked: the match read
    the whole story, youtube's reply_to_comment first at 0.00)."""
    said = phrased(
        "The recital is Tuesday. I would be so grateful if you could put that on my calendar"
    )
    assert said.request.startswith("add that to my calendar . The recital is")


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        (
            "I promised to pick her up - can you put 'Airport pickup - Jess' on my calendar",
            "can you add 'Airport pickup - Jess' to my calendar . I promised to pick her up",
        ),
        (
            'it is for the offsite. can you add a card "Q3 plan: draft, v2" to the board',
            'can you add a card "Q3 plan: draft, v2" to the board . it is for the offsite',
        ),
        # An apostrophe opens no quote: its clause still ends at the comma.
        ("it's Sam's, not mine - can you delete it", "can you delete it . it's Sam's . not mine"),
    ],
)
def test_quoted_text_is_one_clauses_whatever_marks_it_holds(text: str, request_: str) -> None:
    assert phrased(text).request == request_


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        # The question a story's clause ends with (issue 26, twenty-first round).
        (
            "trying to fit a gym session in at lunch - what does my day look like?",
            "what does my day look like . trying to fit a gym session in at lunch",
        ),
        # Chat's verbs for an action lead the clause that asks.
        (
            "QA signed off on the login ticket. Drop a comment on it saying so",
            "Drop a comment on it saying so . QA signed off on the login ticket",
        ),
        (
            "my landlord swears he emailed me. dig through my inbox for anything from him",
            "dig through my inbox for anything from him . my landlord swears he emailed me",
        ),
        # "need you to" asks, its "I" left out.
        (
            "so I just got out of a meeting and need you to create a linear issue for it",
            "need you to create a linear issue for it . I just got out of a meeting",
        ),
    ],
)
def test_the_match_reads_a_question_ending_a_clause_and_chats_verbs(
    text: str, request_: str
) -> None:
    assert phrased(text, imperative=True).request == request_


def test_what_a_request_is_for_and_what_a_message_mentions_are_not_what_it_asks() -> None:
    """Issue 26, twenty-first round: "... so people know I'm away" says what the request
    is for (a clause of its own, after the one that asks); what a message "mentions" is
    what to look for in it, as what it is "about"."""
    said = phrased("can you switch on my out-of-office so people know I'm away", imperative=True)
    assert said.request == "can you switch on my out-of-office . people know I'm away"
    analyzer = Analyzer()
    q = analyzer.query("find anything in my inbox that mentions the lease renewal")
    lease = analyzer.terms("lease")[0]
    assert lease not in q.terms
    assert lease in q.content


def test_quoted_words_are_content_and_one_quoted_word_is_not() -> None:
    """Issue 26, twenty-first round: "mark the 'Update privacy policy' item as done" is
    a title, no words of the call (Notion's `create_database` had come first, `update`
    and `policy` counted in full); one word quoted names what is acted on ("move
    'pointA'", BFCL's `set_point`)."""
    analyzer = Analyzer()
    q = analyzer.query("mark the 'Update privacy policy' item in our tasks database as done")
    update, policy = analyzer.terms("update")[0], analyzer.terms("policy")[0]
    assert update not in q.terms
    assert policy not in q.terms
    assert policy in q.content
    assert analyzer.terms("point")[0] in analyzer.query("Move 'pointA' to 2,3,4").terms


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        (
            "Open my notes page 'Garden plans' and tell me what I wrote about tomatoes",
            "Open my notes page 'Garden plans'",
        ),
        # ("pull up" reads as "show" since the twenty-fifth round.)
        ("pull up the Henley contract and tell me who signed it", "show the Henley contract"),
    ],
)
def test_the_match_reads_a_command_before_a_clause_that_asks_to_be_told_of_it(
    text: str, request_: str
) -> None:
    """Issue 26, twenty-third round: "... and tell me what I wrote about ryokans" asks only
    to be told of what the command before it brings up: the match reads the command (it
    had read "tell me what I wrote", which names nothing any call holds: match 0.00). The
    ranking reads the request as before."""
    assert first_clause(phrased(text, imperative=True).request) == request_
    assert first_clause(phrased(text).request) != request_


@pytest.mark.parametrize(
    ("text", "request_"),
    [
        (
            "How many people signed up for the webinar, split by company? The sales team "
            "wants it for their call.",
            "How many people signed up for the webinar",
        ),
        (
            "which tickets did Dana close, oldest first? the client is asking",
            "which tickets did Dana close",
        ),
    ],
)
def test_the_match_reads_a_question_from_the_clause_that_starts_it(
    text: str, request_: str
) -> None:
    """Issue 26, twenty-third round: a question whose sentence runs over clauses is read
    from the one that starts it, not with the story after it ("My boss wants it for the
    Monday update" had been words of what was asked: "boss", "update"); the ranking reads
    the request as before."""
    assert first_clause(phrased(text, imperative=True).request) == request_
    assert phrased(text).request.startswith(text.split(",")[0] + ",")


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("what's Marta's cell number?", "what's Marta's phone number?"),
        ("text his cell phone number to me", "text his phone number to me"),
        ("what's the number in cell B4", "what's the number in cell B4"),
        ("clear cell C2 in the budget sheet", "clear cell C2 in the budget sheet"),
    ],
)
def test_a_cell_number_is_a_phone_number(text: str, plain: str) -> None:
    """Issue 26, twenty-fourth round: "What's Jasmine's cell number? I saved it in my
    contacts" ranked Sheets' `read_values` first (a spreadsheet's cell); a cell of a sheet
    stays one."""
    assert idioms(text) == plain


def test_a_question_offering_its_answers_is_read_as_written() -> None:
    """Issue 26, twenty-fourth round: a question's clauses after its first that offer its
    answers ("premium or free") are the question's, and the match reads it whole (the
    development set's "what plan am i on in spotify, premium or free?", read from its
    first clause alone, held none of `get_my_profile`'s words: match 0.00)."""
    text = "which plan is my zoom account on, basic or pro?"
    assert (
        first_clause(phrased(text, imperative=True).request)
        == "which plan is my zoom account on, basic or pro?"
    )
