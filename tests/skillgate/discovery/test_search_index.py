"""The search index on its own (discovery/search.py, analysis.py): ranking, synonyms,
scopes, read-only keys, the integration filter and the limit, over small real catalogs.
The first stage's rules, with the semantic second look off (it re-orders near-equal
scores by meaning: test_search_semantic.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from skillgate.catalog.loader import Catalog
from skillgate.catalog.models import Integration
from skillgate.discovery import postings, priors, search, semantic
from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.postings import RELATED_WEIGHT
from skillgate.discovery.products import Products
from skillgate.discovery.search import (
    MAX_LIMIT,
    NAME_COVER,
    NAMED_BOOST,
    SearchIndex,
)
from skillgate.discovery.texts import fields

ERRORS = [{"code": 404, "cause": "Not found.", "fix": "Check the id."}]


def _endpoint(name: str, category: str, description: str, method: str = "GET") -> dict[str, Any]:
    return {
        "name": name,
        "method": method,
        "path": "/" + name.replace("_", "/"),
        "category": category,
        "description": description,
        "parameters": [],
        "errors": ERRORS,
    }


def integration_file(slug: str, endpoints: list[dict[str, Any]]) -> dict[str, Any]:
    """A catalog file's mapping for an integration of these tests."""
    return {
        "slug": slug,
        "name": slug.replace("_", " ").title(),
        "description": f"The {slug} integration of these tests.",
        "base_url": f"https://api.{slug.replace('_', '')}.test",
        "auth": {"token": {"help": "Create a token on the site."}},
        "verify": {"path": "/me"},
        "endpoints": endpoints,
    }


def _integration(slug: str, endpoints: list[dict[str, Any]]) -> Integration:
    return Integration.model_validate(integration_file(slug, endpoints))


CODE = _integration(
    "code",
    [
        _endpoint("list_issues", "issues", "List the issues of a repository, newest first."),
        _endpoint("create_issue", "issues", "Open a new issue in a repository.", "POST"),
        _endpoint("list_pull_requests", "pulls", "List pull requests of a repository."),
        _endpoint("merge_pull_request", "pulls", "Merge a pull request into its base.", "PUT"),
        _endpoint("get_repo", "repos", "Get one repository with its default branch."),
    ],
)
CHAT = _integration(
    "chat",
    [
        _endpoint("post_message", "messages", "Send a message to a channel.", "POST"),
        _endpoint("channel_history", "channels", "Read a channel's messages, newest first."),
        _endpoint("add_reaction", "reactions", "Add an emoji reaction to a message.", "POST"),
    ],
)
CALENDAR = _integration(
    "calendar",
    [
        _endpoint("list_events", "events", "List the events of a calendar in a time range."),
        _endpoint("create_event", "events", "Create an event with a start and an end.", "POST"),
    ],
)


@pytest.fixture(scope="module", autouse=True)
def _first_stage_only() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(semantic.ENV, "0")
        yield


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    catalog = Catalog(integrations={i.slug: i for i in (CODE, CHAT, CALENDAR)})
    return SearchIndex(catalog)


def names(index: SearchIndex, query: str, scopes: tuple[str, ...] = ("*",), **kw: Any) -> list[str]:
    return [f"{h.integration.slug}/{h.endpoint.name}" for h in index.search(query, scopes, **kw)]


def test_name_and_category_words_rank_first(index: SearchIndex) -> None:
    assert names(index, "create an issue")[0] == "code/create_issue"
    assert names(index, "list issues")[0] == "code/list_issues"
    assert names(index, "merge the pull request")[0] == "code/merge_pull_request"


def test_best_first_and_only_matching_documents(index: SearchIndex) -> None:
    found = names(index, "repository")
    # Every endpoint with the word, none without it.
    assert set(found) == {
        "code/list_issues",
        "code/create_issue",
        "code/list_pull_requests",
        "code/get_repo",
    }
    assert found[0] == "code/get_repo"  # its name and category say it too
    assert names(index, "zebra quantum") == []
    assert names(index, "the of and") == []  # stop words only


def test_synonyms_are_one_term_both_ways(index: SearchIndex) -> None:
    analyzer = index.analyzer
    assert analyzer.terms("PR") == analyzer.terms("pull request") == analyzer.terms("merge request")
    assert analyzer.terms("repo") == analyzer.terms("repository")
    assert analyzer.terms("mailbox") == analyzer.terms("inbox")
    # "PR" finds pull requests although no document says "PR".
    assert names(index, "merge PR 12")[0] == "code/merge_pull_request"
    assert names(index, "list the PRs")[0] == "code/list_pull_requests"


def test_one_way_meanings_actions_and_plurals(index: SearchIndex) -> None:
    analyzer = index.analyzer
    meeting = analyzer.query("meetings tomorrow")
    assert analyzer.terms("event")[0] in meeting.terms  # meeting is an event (a group)
    bug = analyzer.query("open a bug about the login page")  # an idiom: create a bug
    assert analyzer.terms("issue")[0] in bug.related
    assert analyzer.terms("create")[0] in bug.terms
    # "open" is an action only as the first word.
    assert analyzer.terms("create")[0] not in analyzer.query("issues still open").related
    assert analyzer.terms("create")[0] in analyzer.query("please file a bug").related
    assert analyzer.terms("create")[0] not in analyzer.query("files shared with me").related
    # An action word that is no API verb is replaced by what it stands for.
    assert "show" not in analyzer.query("show the open issues").terms
    assert analyzer.terms("send")[0] in analyzer.query("send the report").terms
    assert analyzer.terms("list")[0] in analyzer.query("which calendars").related
    assert analyzer.terms("list")[0] not in analyzer.query("which calendar").related
    assert names(index, "open a bug")[0] == "code/create_issue"
    assert names(index, "what meetings do I have tomorrow")[0] == "calendar/list_events"
    assert names(index, "schedule a meeting")[0] == "calendar/create_event"


def test_a_meetings_kinds_are_events(index: SearchIndex) -> None:
    """Issue 26, seventh round: a 1:1 and a standup are meetings (one word each, as
    "to-do" is); "1:1" only as a whole word, never inside a time or a ratio."""
    analyzer = index.analyzer
    event = analyzer.terms("event")[0]
    for said in ("my 1:1 with Kim", "my 1:1s", "my one-on-one", "the 1-on-1", "the stand-up"):
        assert event in analyzer.terms(said), said
    assert analyzer.terms("the standup") == [event]
    assert event not in analyzer.terms("at 11:15, a 1:10 ratio, 21:1")
    assert names(index, "what 1:1s do I have tomorrow")[0] == "calendar/list_events"


def test_looking_for_finds_and_looking_up_gets(index: SearchIndex) -> None:
    """Issue 26, fourth round: "I'm looking for ..." asks to find (find, search), "look
    up ..." to read one thing (get, search); "look" itself is in no endpoint's name;
    "search ..." also finds and lists, as "find ..." also searches and lists."""
    analyzer = index.analyzer
    find, search, get = (analyzer.terms(w)[0] for w in ("find", "search", "get"))
    looking = analyzer.query("I'm looking for a therapist in San Jose")
    assert {find, search} <= set(looking.related)
    assert "look" not in looking.terms
    up = analyzer.query("look up the profile of torvalds")
    assert {get, search} <= set(up.related)
    assert find not in up.related
    # "search" also finds and lists, as "find" also searches and lists.
    assert {find, analyzer.terms("list")[0]} <= set(analyzer.query("search for movies").related)
    # Only as the request's first word: "the look of the page" asks nothing.
    assert find not in analyzer.query("change the look of the page").related


def test_reference_shapes(index: SearchIndex) -> None:
    analyzer = index.analyzer
    general = analyzer.query("what happened in #general")
    assert analyzer.terms("channel")[0] in general.related
    assert "general" not in general.terms  # the reference's own words say nothing
    assert analyzer.terms("issue")[0] in analyzer.query("close ENG-123").related
    assert analyzer.terms("repository")[0] in analyzer.query("stars of octo/web").related
    assert names(index, "what happened in #general")[0] == "chat/channel_history"


def test_words_are_split_stemmed_and_filtered(index: SearchIndex) -> None:
    analyzer = index.analyzer
    assert analyzer.terms("addLabelIds") == analyzer.terms("add label id")
    assert analyzer.terms("list_pull_requests") == analyzer.terms("list pull request")
    assert analyzer.terms("the 42 issues") == analyzer.terms("issue")


def test_scopes_filter_integrations(index: SearchIndex) -> None:
    query = "list messages and events"

    def slugs(scopes: tuple[str, ...]) -> set[str]:
        return {n.split("/")[0] for n in names(index, query, scopes, limit=MAX_LIMIT)}

    assert slugs(("*",)) == {"code", "chat", "calendar"}
    assert slugs(("chat", "calendar")) == {"chat", "calendar"}
    assert slugs(("calendar:read",)) == {"calendar"}
    assert "code/create_issue" not in names(index, "create an issue", ("chat", "calendar"))
    assert names(index, "issue", ()) == []


def test_read_only_scope_hides_endpoints_that_change_data(index: SearchIndex) -> None:
    full = names(index, "issue", ("code",))
    read = names(index, "issue", ("code:read",))
    assert "code/create_issue" in full
    assert read == [n for n in full if n != "code/create_issue"]
    # A full scope on one integration and read on another.
    mixed = names(index, "send a message or create an event", ("chat", "calendar:read"))
    assert "chat/post_message" in mixed
    assert "calendar/create_event" not in mixed


def test_integration_filter(index: SearchIndex) -> None:
    found = names(index, "list", integration="calendar")
    assert found == ["calendar/list_events"]
    # The filter does not widen the scopes.
    assert names(index, "list", ("chat",), integration="calendar") == []
    assert names(index, "list", integration="nope") == []


def test_limit(index: SearchIndex) -> None:
    every = names(index, "list", limit=MAX_LIMIT)
    assert len(every) == 3  # the list_* endpoints
    assert names(index, "list", limit=2) == every[:2]
    assert names(index, "list", limit=1) == every[:1]
    for bad in (0, MAX_LIMIT + 1):
        with pytest.raises(ValueError, match="limit"):
            index.search("list", ("*",), limit=bad)


def test_equal_scores_keep_catalog_order() -> None:
    twins = _integration(
        "twins",
        # Letters that are no stop words ("a", "d"), so that the four names are alike.
        [_endpoint(f"get_thing_{c}", "things", "Get one thing by its id.") for c in "wxyz"],
    )
    index = SearchIndex(Catalog(integrations={"twins": twins}))
    assert names(index, "thing", limit=3) == [
        "twins/get_thing_w",
        "twins/get_thing_x",
        "twins/get_thing_y",
    ]


def test_result_head_is_the_answers_object_without_status(index: SearchIndex) -> None:
    hit = index.search("merge pull request", ("*",), limit=1)[0]
    assert orjson.loads(hit.head + b"}") == {
        "integration": "code",
        "name": "merge_pull_request",
        "method": "PUT",
        "path": "/merge/pull/request",
        "category": "pulls",
        "description": "Merge a pull request into its base.",
    }


def test_an_empty_catalog_finds_nothing() -> None:
    assert SearchIndex(Catalog(integrations={})).search("anything", ("*",)) == []


def test_the_analyzer_is_deterministic() -> None:
    a, b = Analyzer(), Analyzer()
    text = "Reply to the last mail from Ana about PR #12 in acme/web"
    assert a.query(text) == b.query(text)


def test_pagination_parameters_are_not_searched() -> None:
    endpoint = {
        **_endpoint("list_widgets", "widgets", "List the widgets, newest first."),
        "parameters": [
            {"name": "color", "type": "string", "in": "query", "description": "Only this color."},
            {"name": "page", "type": "number", "in": "query", "description": "Page number."},
            {"name": "per_page", "type": "number", "in": "query", "description": "Page size."},
        ],
        "pagination": {"style": "page", "param": "page", "size_param": "per_page"},
    }
    shop = _integration("shop", [endpoint])
    assert fields(shop, shop.endpoints[0])["parameters"] == "color"
    index = SearchIndex(Catalog(integrations={"shop": shop}))
    assert names(index, "widgets by color") == ["shop/list_widgets"]
    assert names(index, "the next page") == []


def test_answers_are_reused_and_bounded(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    import skillgate.discovery.search as search

    first = index.search("list the issues", ("*",), None, 5)
    assert first == index.rank("list the issues", ("*",), None, 5)
    assert index.search("list the issues", ("*",), None, 5) is first  # the same answer
    # Each of query, scopes, integration and limit is part of the key.
    assert index.search("list the issues", ("chat",), None, 5) == []
    assert index.search("list the issues", ("*",), "chat", 5) == []
    assert len(index.search("list the issues", ("*",), None, 1)) == 1
    monkeypatch.setattr(search, "_ANSWERS", 2)
    for n in range(5):
        index.search(f"issue {n}", ("*",))
    assert len(index._answers) <= 2


def test_boost_multiplies_an_endpoints_score() -> None:
    catalog = Catalog(integrations={i.slug: i for i in (CODE, CHAT, CALENDAR)})
    plain = SearchIndex(catalog)
    assert names(plain, "list", limit=2) == ["code/list_pull_requests", "code/list_issues"]
    boosted = SearchIndex(catalog, boost={("code", "list_issues"): 2.0})
    assert names(boosted, "list", limit=2) == ["code/list_issues", "code/list_pull_requests"]
    # A boost changes the order, never what a key may see.
    assert names(boosted, "list", ("calendar",)) == ["calendar/list_events"]
    assert "code/create_issue" not in names(boosted, "issue", ("code:read",))


def test_curated_endpoints_come_first_among_near_equals() -> None:
    from skillgate.discovery.priors import CURATED_BOOST

    def shop(curated: bool) -> Catalog:
        # Paths that are not their names' words: both documents alike but for the name.
        endpoints = [
            {**_endpoint("list_orders", "orders", "List the orders of the shop."), "path": "/a"},
            {
                **_endpoint("get_orders", "orders", "List the orders of the shop."),
                "path": "/b",
                "curated": curated,
            },
            _endpoint("list_order_refunds", "refunds", "List the refunds of one order."),
        ]
        integration = _integration("shop", endpoints)
        return Catalog(integrations={"shop": integration})

    assert CURATED_BOOST > 1
    # "order", not "orders": a plural also asks for `list`, which one of the names holds.
    assert names(SearchIndex(shop(False)), "order", limit=1) == ["shop/list_orders"]
    assert names(SearchIndex(shop(True)), "order", limit=1) == ["shop/get_orders"]
    # An explicit boost wins over the curation prior.
    explicit = SearchIndex(shop(True), boost={("shop", "get_orders"): 1.0})
    assert names(explicit, "order", limit=1) == ["shop/list_orders"]
    # A clearly better match still wins over a curated one.
    assert names(SearchIndex(shop(True)), "refunds of an order", limit=1) == [
        "shop/list_order_refunds"
    ]


def test_the_share_of_its_name_the_query_holds_multiplies_a_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """BM25 alone can rank `list_issue_comments` first for "open a bug about the login
    page" (its description's rare "login"); the share of each name the query holds,
    x NAME_COVER, multiplies the score, so the endpoint whose name is the request gains."""
    tracker = _integration(
        "tracker",
        [
            _endpoint(
                "list_issue_comments",
                "issues",
                "List the comments on an issue: id, user.login, body and created_at of each.",
            ),
            _endpoint("create_issue", "issues", "Open a new issue with a title and a body."),
            _endpoint("list_issues", "issues", "List the issues, newest first."),
        ],
    )
    index = SearchIndex(Catalog(integrations={"tracker": tracker}))
    query = "open a bug about the login page"
    share = index.coverage(index.analyzer.query(query))
    # A related term ("bug": issue) counts RELATED_WEIGHT, an own one ("open a": create,
    # idioms.py) 1: comments holds issue of three words, create_issue both of two,
    # list_issues issue of two.
    assert share is not None
    expected = [RELATED_WEIGHT / 3, (1 + RELATED_WEIGHT) / 2, RELATED_WEIGHT / 2]
    assert list(share) == pytest.approx(expected)
    covered = index.scores(query)
    monkeypatch.setattr(search, "NAME_COVER", 0.0)
    plain = index.scores(query)
    assert covered is not None
    assert plain is not None
    assert list(covered) == pytest.approx(list(plain * (1 + NAME_COVER * share)))
    assert index.coverage(index.analyzer.query("zebra")) is None


def test_an_integration_named_in_the_query_ranks_first(monkeypatch: pytest.MonkeyPatch) -> None:
    twins = {
        slug: _integration(slug, [_endpoint("list_items", "items", "List the items.")])
        for slug in ("alpha", "beta")
    }
    index = SearchIndex(Catalog(integrations=twins))
    assert names(index, "list the items") == ["alpha/list_items", "beta/list_items"]
    assert names(index, "list the items in Beta")[0] == "beta/list_items"
    # Only the name as a word counts ("alphabet" names nothing).
    assert names(index, "list the items alphabetically")[0] == "alpha/list_items"
    assert names(index, "list the items of the alphabet beta")[0] == "beta/list_items"
    # The named integration's scores are multiplied by NAMED_BOOST, the others' are not.
    named = index.scores("items in beta")
    monkeypatch.setattr(search, "NAMED_BOOST", 1.0)
    plain = index.scores("items in beta")
    assert named is not None
    assert plain is not None
    assert named[0] == plain[0]
    assert named[1] == pytest.approx(plain[1] * NAMED_BOOST)


def test_a_product_named_without_its_vendor_after_an_article_is_named() -> None:
    """Issue 26, seventeenth round: "make a Teams meeting link" names Microsoft Teams (a
    capital after an article, mid-sentence, as after "on" or "my"); "a teams meeting" and
    "a drive to the coast" name nothing."""
    found = Products({"microsoft_teams": "Microsoft Teams", "google_drive": "Google Drive"})
    assert found.of("make a Teams meeting link") == {"microsoft_teams"}
    assert found.of("put it in this Drive folder") == {"google_drive"}
    assert found.of("make a teams meeting link") == set()
    assert found.of("plan a drive to the coast") == set()


def test_plurals_contractions_and_stems(index: SearchIndex) -> None:
    analyzer = index.analyzer
    known = index.bm25.vocab_dict
    listing = analyzer.terms("list")[0]
    # A plural asks for a listing only when the catalog knows the word.
    assert listing in analyzer.query("which repositories", known).related
    assert listing not in analyzer.query("follow torvalds", known).related
    # An abbreviation's plural is the abbreviation's term, and a plural.
    assert analyzer.terms("PRs") == analyzer.terms("pull request")
    assert listing in analyzer.query("which PRs").related
    # "what's": no term "s"; "re-run" is "rerun".
    assert analyzer.terms("what's new") == analyzer.terms("new")
    assert analyzer.terms("re-run the job") == analyzer.terms("rerun job")
    # Stems Snowball gets wrong for the APIs.
    assert analyzer.terms("issuing") != analyzer.terms("issue")
    assert analyzer.terms("contributors") == analyzer.terms("contributed")
    # Sharing (the verb) is giving access; a shared drive or link is a kind of thing.
    assert analyzer.terms("sharing") == analyzer.terms("share")
    assert analyzer.terms("shared") != analyzer.terms("share")
    permission = analyzer.terms("permission")[0]
    assert permission in analyzer.query("stop sharing the file").related
    assert permission not in analyzer.query("list the shared drives").related
    assert analyzer.terms("shared")[0] in analyzer.query("a shareable link").related


def test_an_answer_renders_each_callers_statuses_once(index: SearchIndex) -> None:
    answer = index.answer("list", ("*",), None, 10)
    assert answer.slugs == {"code", "calendar"}

    def statuses(connected: frozenset[str]) -> dict[str, str]:
        body = orjson.loads(answer.body(connected))
        assert body["query"] == "list"
        assert [r["name"] for r in body["results"]] == [h.endpoint.name for h in answer.hits]
        return {r["integration"]: r["status"] for r in body["results"]}

    assert statuses(frozenset()) == {"code": "not_connected", "calendar": "not_connected"}
    assert statuses(frozenset({"code", "chat"})) == {
        "code": "connected",
        "calendar": "not_connected",
    }
    # Integrations outside the hits do not make another rendering: the same bytes.
    assert answer.body(frozenset({"code"})) is answer.body(frozenset({"code", "chat"}))
    assert answer.body(frozenset({"calendar"})) is not answer.body(frozenset({"code"}))
    assert index.answer("list", ("*",), None, 10) is answer  # kept
    assert orjson.loads(index.answer("zebra", ("*",), None, 10).body(frozenset())) == {
        "query": "zebra",
        "results": [],
        "no_match": True,  # issue 26: nothing fits
    }


def test_a_requests_content_only_breaks_ties(index: SearchIndex) -> None:
    analyzer = index.analyzer
    q = analyzer.query("open a bug about the login page")
    assert (q.terms, q.content) == (("creat", "bug"), ("login", "page"))
    assert "issu" in q.related
    for text, content in [
        ("create a channel called project-x", ("project", "x")),
        ("post to the channel saying we ship today", ("ship", "today")),
        ("a doc titled roadmap", ("roadmap",)),
        ("a doc named roadmap", ("roadmap",)),
        ("find mail regarding the lease", ("leas",)),
    ]:
        assert analyzer.query(text).content == content, text
    # Asking about the thing itself, or nothing before the word: no content.
    for text in ["tell me about the repository", "details about a user", "about the events"]:
        assert analyzer.query(text).content == (), text
    # Content words repeat no term of the call's own, and count CONTENT_WEIGHT of one.
    assert analyzer.query("list events about events").content == ()
    # "about the invoice" no longer outweighs what the request does: the message search,
    # not the channel whose description says "invoice" three times.
    shop = _integration(
        "shop",
        [
            _endpoint("send_message", "messages", "Send a message to a person.", "POST"),
            _endpoint("invoice_channel", "channels", "The invoice channel: invoice, invoice."),
        ],
    )
    plain = SearchIndex(Catalog(integrations={"shop": shop}))
    assert names(plain, "send a message about the invoice") == [
        "shop/send_message",
        "shop/invoice_channel",
    ]
    as_content = plain._postings.sums(Query((), (), ("invoic",)))
    as_own = plain._postings.sums(Query(("invoic",), ()))
    assert as_content is not None
    assert as_own is not None
    assert as_content[0] == pytest.approx(as_own[0] * postings.CONTENT_WEIGHT)


def test_a_question_put_as_a_request_asks_to_see() -> None:
    """Issue 26: "tell me which...", "let me know if...", "I want to know whether..." ask
    to see something (as "show" does), "tell Ana ..." still sends; chatter before the
    verb ("honestly just delete ...") is no part of the request."""
    analyzer = Analyzer()
    get, send = analyzer.terms("get")[0], analyzer.terms("send")[0]
    for text in [
        "could you tell me which projects I'm part of",
        "let me know if the build passed",
        "I want to know whether the invoice was paid",
    ]:
        q = analyzer.query(text)
        assert get in q.related, (text, q)
        assert send not in q.related, (text, q)
    assert send in analyzer.query("tell Ana the meeting moved").related
    assert analyzer.query("honestly just delete the weekly sync").terms[0] == "delet"
    assert analyzer.query("hey, can you open a bug").related == analyzer.query("open a bug").related


def test_a_result_describes_its_endpoint_in_one_line() -> None:
    """The search answer's description is the first sentence (the next one joined while
    the first is terse), cut at a word to at most 100 characters."""
    from skillgate.discovery.texts import ONE_LINE, one_line

    first = "Open a new issue in a repository you can push to."
    assert one_line(f"{first} Returns the issue with its number.") == first
    assert (
        one_line("List stargazers. Lists the people that have starred the repository.")
        == "List stargazers. Lists the people that have starred the repository."
    )
    long = (
        "Add a comment to an issue or to a pull request's conversation"
        " (use create_review for line comments on a diff)."
    )
    line = one_line(long)
    assert len(line) <= ONE_LINE
    assert line.endswith("…")
    assert long.startswith(line[:-1])
    assert one_line("Two\n   lines  of text.") == "Two lines of text."


def test_the_callers_connected_integrations_come_first_when_none_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: a request that names no product prefers the caller's connected
    integrations among near-equal matches (CONNECTED_BOOST); naming one still wins."""
    twins = {
        slug: _integration(slug, [_endpoint("list_items", "items", "List the items.")])
        for slug in ("alpha", "beta")
    }
    index = SearchIndex(Catalog(integrations=twins))
    beta = frozenset({"beta"})
    assert names(index, "list the items") == ["alpha/list_items", "beta/list_items"]
    assert names(index, "list the items", connected=beta) == ["beta/list_items", "alpha/list_items"]
    assert names(index, "list the items in Alpha", connected=beta)[0] == "alpha/list_items"
    # The connected integration's scores are multiplied by CONNECTED_BOOST, no other's.
    text, q = index._analysed("list the items")
    plain_read, boosted_read = index._scores(text, q), index._scores(text, q, beta)
    assert plain_read is not None
    assert boosted_read is not None
    plain, boosted = plain_read[0], boosted_read[0]
    assert boosted[0] == plain[0]
    assert boosted[1] == pytest.approx(plain[1] * search.CONNECTED_BOOST)
    # Kept answers are per connected set.
    one = index.answer("list the items", ("*",), None, 2, beta)
    assert index.answer("list the items", ("*",), None, 2, frozenset()) is not one
    assert index.answer("list the items", ("*",), None, 2, beta) is one


def test_an_endpoint_of_a_generated_family_scores_less() -> None:
    """Issue 26: more than FAMILY_SIZE endpoints of one integration under one parent path
    (Graph's Excel functions) each score FAMILY_PRIOR of an endpoint's usual."""
    family = [
        {**_endpoint(f"fn_{i}", "functions", f"Invoke function {i}."), "path": f"/fn/f{i}"}
        for i in range(priors.FAMILY_SIZE + 1)
    ]
    rest = [_endpoint("days_left", "billing", "The days left in the trial.")]
    index = SearchIndex(
        Catalog(
            integrations={"big": _integration("big", family), "small": _integration("small", rest)}
        )
    )
    assert set(index.prior[: len(family)]) == {priors.FAMILY_PRIOR}
    assert index.prior[len(family)] == 1.0


def test_a_request_that_says_when_prefers_a_call_taking_a_time() -> None:
    """Issue 26: "... at 6pm tomorrow" is an argument: among near-equal matches the call
    with a parameter of time comes first (TIME_BOOST); without a time, catalog order."""
    post = _endpoint("post_note", "notes", "Post a note to a board.", "POST")
    later = {
        **_endpoint("post_note_later", "notes", "Post a note to a board.", "POST"),
        "parameters": [
            {"name": "post_at", "in": "query", "type": "number", "description": "When."}
        ],
    }
    index = SearchIndex(Catalog(integrations={"board": _integration("board", [post, later])}))
    assert names(index, "post a note")[0] == "board/post_note"
    assert names(index, "post a note at 6pm tomorrow")[0] == "board/post_note_later"
    assert index.analyzer.query("post a note at 6pm tomorrow").when
    assert not index.analyzer.query("post a note").when


def test_a_question_or_one_named_item_asks_to_read() -> None:
    """Issue 26, third round: "what's ...", "what does/did ...", "when was ..." ask to read
    one thing (get), "what's on/in ..." to list what it holds, unless the request says how
    to read ("what is the list of ..."); a request naming one item (a reference of a known
    shape, a long hex id) and no action asks to read it. The added terms are related ones,
    kept apart in `asked` (they count in no name agreement of `match`)."""
    analyzer = Analyzer()
    get, list_ = analyzer.terms("get")[0], analyzer.terms("list")[0]
    for text in [
        "what's the status of ENG-301",
        "what is my email address",
        "what does the onboarding doc say",
        "when was the spreadsheet last modified",
        "pi_3PabcDEFghiJKL details",
        "thread 18a1b2c3d4e5f6a7 in gmail",
        "ENG-3 comments",  # a plural is a thing, not "comment on"
    ]:
        q = analyzer.query(text)
        assert get in q.related, (text, q)
        assert get not in q.terms, (text, q)
        assert q.asked == (get,), (text, q)
    held = analyzer.query("what's on my calendar next Monday")
    assert list_ in held.related
    assert held.asked == (list_,)
    # The place asked about ranks as content (its items are asked for, not the place).
    calendar = analyzer.terms("calendar")[0]
    assert held.terms == ()
    assert held.places == (calendar,)
    assert calendar in held.content
    for text in [
        "what is the list of experiences of Ana",  # says how to read
        "close ENG-123",  # says what to do
        "merge acme/web#7",
        "reopen ENG-3",
        "capture pi_3Pabc123",
        "who commented on acme/web#4",
        "what happened in #general",  # a channel is where items are
        "stars of octo/web",  # a repository too
        "calendar events",  # names nothing by its id
    ]:
        assert analyzer.query(text).asked == (), text
    # A first word ACTIONS reads ("tell": send) is an action: no read is added.
    assert get not in analyzer.query("tell C01ABCDEF the release is out").related


def test_a_question_ranks_the_read_first(index: SearchIndex) -> None:
    # Without the question, the calls come first (their names hold "issue").
    assert names(index, "the repository of the issue")[0] != "code/get_repo"
    assert names(index, "what's the repository of the issue")[0] == "code/get_repo"
    assert names(index, "what's in the repository")[0].split("/")[1].startswith("list_")
    # The place's words still count in `match`: the request is not flagged (its first
    # word, unknown, would otherwise be all it asks for).
    place = "what's in my zorblax repository"
    assert max(index.matches(place, index.search(place, ("*",)))) >= 0.3
    # The terms only the question added make no name agree with the request: the match is
    # the same request's without the question (get_repo holds "default branch" in its
    # description only; "moon" is unknown), low enough for the no-match flag.
    asked, plain = "what is the default branch of the moon", "the default branch of the moon"
    hits = index.search(asked, ("*",))
    assert [h.endpoint.name for h in hits] == ["get_repo"]
    assert index.matches(asked, hits) == index.matches(plain, index.search(plain, ("*",)))
    assert index.matches(asked, hits)[0] < 0.3
