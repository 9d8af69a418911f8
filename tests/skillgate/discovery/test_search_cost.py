"""The shortcuts of a new query's cost (issue 26) change no answer: each cheap test passes
every text its pattern matches, each case-sensitive twin finds what the case-insensitive
pattern finds, and the semantic model's per-word ids are the tokenizer's own.

The texts: the development set's requests (never the sealed set's) as written, in upper
and mixed case, with the forms each pattern reads put in, and texts not all ASCII."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.discovery import (
    analysis,
    answer,
    confidence,
    content,
    cues,
    foreign,
    idioms,
    literals,
    phrasing,
    postings,
    products,
    referents,
    semantic,
    shorthand,
    spelling,
    times,
    unknowns,
    values,
    world,
)
from skillgate.discovery.answer import SearchAnswer
from skillgate.discovery.rendered import STATUS_TAIL
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.spelling import Speller

EVAL = Path(__file__).parent / "search_eval.yaml"
# Forms the patterns read, put into the requests.
FORMS = [
    "3pm", "at 10", "around 4", "12:30", "2024-05-01", "5/10", "10 min", "2 hours", "May 5th",
    "5th of june", "next week", "this quarter", "on Monday", "tomorrow morning", "tonight",
    "check if", "see whether", "can you", "could u", "pls", "would you mind", "go ahead and",
    "the user wants me to", "it'd be great if", "tell me", "let me know", "I'm curious",
    "about the invoice", "called Q3", "to my instagram", "from our bank", "at my office",
    '"quoted"', "pi_3Pab12", "18a1b2c3d4e5", "acme/web", "#general", "w/o", "b4", "fyi", "u.", ".u",
    "Around 5", "NEXT MONTH", "AT 5PM", "\u017fep 5", "\u0131f", "caf\u00e9", "\u212aelvin",
    # idioms (idioms.py) and references of every shape (synonyms.SHAPES, cues.CUE_SHAPES)
    "dig it up", "Sam got a headsup", "give him a heads-up", "Put it on my calendar",
    "pu\u017fh back the", "\u212aick the", "D\u0130G up", "hop on a call", "nuke",
    "https://notion.so/Weekly-4f2a", "www.youtube.com/watch?v=1", "youtu.be/x", "acme.vercel.app",
    "app.netlify.com/sites/x", "1drv.ms/x", "acme.sharepoint.com/x", "github.com/a/b/pull/3",
    "cus_9Xab", "in_1Abc", "C01ABCDEF2", "U024BE7LH", "123e4567-e89b-12d3-a456-426614174000",
    "to #eng", "@ana", "ana@example.com", "ENG-55", "acme/web#12", "+1 555 123 4567",
]  # fmt: skip


def _texts() -> list[str]:
    sets = yaml.safe_load(EVAL.read_text(encoding="utf-8"))
    tasks = [t["task"] for section in sets.values() for t in section]
    rng = random.Random(26)
    texts = list(tasks)
    for task in tasks:
        words = task.split(" ")
        for _ in range(2):
            at = rng.randrange(len(words) + 1)
            texts.append(" ".join([*words[:at], rng.choice(FORMS), *words[at:]]))
        texts.append(task.upper())
        texts.append("".join(c.upper() if rng.random() < 0.3 else c for c in task))
    return texts


TEXTS = _texts()


@pytest.mark.parametrize(
    ("test", "pattern"),
    [
        (times.may_say_when, times.WHEN.pattern),
        (phrasing._ASKS_WORDS, phrasing._ASKS.pattern),
        (phrasing._IF, phrasing._WHETHER),
        (phrasing._CLAUSE_MARK, phrasing._CLAUSE),
        (content.CONTENT_WORDS, content.CONTENT.pattern),
        (content.ASKING_WORDS, content.ASKING),
        (analysis._HEX_RUN, analysis._HEX_ID),
        (unknowns._MY, unknowns._MY_PLACE),
        (confidence._MAY_ASK, confidence._ASKING),
        (analysis._MAY_CAMEL, analysis._CAMEL),
        (referents._may_refer, referents._REFERENCE),
        (referents._may_hold_id, referents._ID),
    ],
    ids=[
        "when",
        "asks",
        "whether",
        "clause",
        "content",
        "asking",
        "hex id",
        "my place",
        "asking (match)",
        "camel case",
        "reference",
        "id",
    ],
)
def test_a_cheap_test_passes_every_text_its_pattern_matches(
    test: Callable[[str], bool], pattern: re.Pattern[str]
) -> None:
    matched = [t for t in TEXTS if pattern.search(t)]
    assert matched  # the texts exercise the pattern
    assert [t for t in matched if not test(t)] == []
    assert not all(test(t) for t in TEXTS)  # and the test does skip some


def test_shorthand_is_spelt_out_only_where_it_stands() -> None:
    def slow(text: str) -> str:
        return shorthand._SHORT.sub(lambda m: shorthand._SHORTHAND[m.group(0).lower()], text)

    shapes = ["u", "(u)", "u#1", "w/ Sam", "w/x", "x/u", "u-turn", "@u", "_u_", "#u", "a.im", "U."]
    for text in [*_odd_texts(), *shapes]:
        assert shorthand.unshorten(text) == slow(text), text


@pytest.mark.parametrize(
    "twin",
    [times.WHEN, phrasing._ASKS, phrasing._POLITE, content.CONTENT],
    ids=["when", "asks", "polite", "content"],
)
def test_a_case_free_twin_finds_what_the_pattern_finds(twin: literals.CaseFree) -> None:
    for text in TEXTS:
        spans = [m.span() for m in twin.pattern.finditer(text)]
        first = twin.pattern.search(text)
        assert twin.spans(text) == spans, text
        assert twin.search(text) == (first.span() if first else None), text
        assert twin.sub(" ", text) == twin.pattern.sub(" ", text), text


def _odd_texts() -> list[str]:
    """The requests as they are and in lower case, and random strings of ASCII and a few
    characters that are not."""
    rng = random.Random(26)
    chars = [*map(chr, range(128)), "\u00e9", "\u017f", "\u212a", "\u2019", "\u0661", "\u00a0"]
    made = ["".join(rng.choice(chars) for _ in range(rng.randrange(40))) for _ in range(3000)]
    return [*TEXTS, *(t.lower() for t in TEXTS), *made]


@pytest.mark.parametrize("runs", [analysis._WORD, products._RUN], ids=["word", "run"])
def test_runs_of_a_class_are_found_as_the_pattern_finds_them(runs: literals.Runs) -> None:
    texts = _odd_texts()
    assert sum(runs.findall(t) != runs.pattern.findall(t) for t in texts) == 0


def test_a_requests_clauses_part_as_the_whole_pattern_parts_them() -> None:
    made = [
        "so - done lol. ok",
        "A - b",
        "x \u2014 y",
        "done \U0001f389 next",
        "HAHA ok, go",
        "a -- b",
    ]
    texts = [*_odd_texts(), *made]
    assert sum(phrasing._parts(t) != phrasing._CLAUSE.split(t) for t in texts) == 0
    assert any(len(phrasing._parts(t)) > 2 for t in made)  # the texts part


def test_the_world_tables_words_are_the_patterns_words() -> None:
    lower = [t.lower() for t in _odd_texts()]
    assert sum(world._words_of(t) != world._WORD.findall(t) for t in lower) == 0


def test_a_requests_head_is_read_as_the_case_insensitive_split_reads_it() -> None:
    for text in TEXTS:
        quoted = unknowns._QUOTED.sub(" ", text)
        expected = unknowns._BOUNDARY.split(quoted, maxsplit=1)[0]
        assert unknowns.Unknowns.head(text) == expected, text


def test_the_spellers_shortcuts_correct_as_the_word_by_word_pass() -> None:
    words = {"issue": 50, "calendar": 40, "close": 30, "mail": 20, "message": 10}
    speller = Speller(words, [], lambda w: w in words)

    def slow(text: str) -> str:  # every word through `word`, as before the shortcuts
        first = True

        def fix(m: re.Match[str]) -> str:
            nonlocal first
            written, named = m.group(0), not first and not m.group(0).islower()
            first = False
            found = written if named else speller.word(written.lower())
            return written if named or found == written.lower() else found

        return spelling._ALONE.sub(fix, spelling.plain(text))  # its letters' plain forms

    for text in ["clsoe the isue", "list my calenders", "Clsoe Isue", "close the issue", *TEXTS]:
        assert speller.correct(text) == slow(text), text
        assert speller.correct(text) == slow(text), text  # again, from what it kept


def test_a_texts_token_ids_are_the_tokenizers_own() -> None:
    shipped = semantic.model()
    if shipped is None:
        pytest.skip("wordllama is not installed")
    model = semantic.Model(shipped._tokenizer, shipped._weights)  # no word kept yet
    texts = [
        *TEXTS,
        "",
        " x",
        "x ",
        "a  b",
        "a <s> b",
        "a\u2581b",
        "tab\there",
        "\u00e9t\u00e9 \U0001f600",
        "x\u00a0y \u200b z\u0301 \ufeffa \x00 \U0010ffff \u4e2d\u6587",
    ]
    for text in texts:
        ids = model._tokenizer.encode(text, add_special_tokens=False).ids
        assert model.ids(text) == ids, text


def test_idioms_pass_only_where_the_text_holds_their_guards() -> None:
    def slow(text: str) -> str:  # every idiom, unguarded
        for pattern, plain in idioms._IDIOMS:
            text = pattern.sub(plain, text)
        return text

    changed = 0
    for text in TEXTS:
        assert idioms.idioms(text) == slow(text), text
        changed += slow(text) != text
    assert changed  # the texts exercise the idioms


def test_a_clause_read_for_a_foreign_product_is_read_once_as_afresh() -> None:
    shared, fresh = foreign.Foreign(), foreign.Foreign()
    made = ["send $20 to Sam on Venmo", "retry the gitlab pipeline", "get me an Uber"]
    named = 0
    for text in [*TEXTS, *made]:
        head = unknowns.Unknowns.head(text)
        fresh._last = None
        placed = fresh.placed(text, head)
        fresh._last = None  # nothing kept: each reads the clause afresh
        expected = placed, fresh.modified(text, head)
        assert (shared.placed(text, head), shared.modified(text, head)) == expected, text
        named += any(expected)
    assert named >= len(made)  # the texts exercise both


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


def test_reference_shapes_and_cues_run_only_where_the_text_holds_their_mark() -> None:
    analyzer = analysis.Analyzer()
    every = cues.Cues(analyzer, {slug for slug, _, _ in cues.CUE_SHAPES} | set(cues.CUES))
    shapes, cue_shapes, firsts = analyzer._shapes, every._shapes, every._firsts
    marks = [m for _, run in shapes for m, _, _ in run]
    assert marks != [c for c, _, _ in analysis.SHAPES]  # marks derived
    assert len(shapes) < len(marks)  # in runs
    slow = [("", re.compile(p), tuple(analyzer.terms(t))) for _, p, t in analysis.SHAPES]
    slow_shapes = [("", slow)]  # each pattern itself, none `literals.Guarded`
    slow_cues = [("", [(slug, "", p) for _, run in cue_shapes for slug, _, p in run])]
    found = cued = 0
    for text in TEXTS:
        terms = analyzer.terms(text)
        fast = analyzer._read_references(text), every.found(text, terms)
        analyzer._shapes, every._shapes, every._firsts = slow_shapes, slow_cues, _Everything()
        try:
            assert (analyzer._read_references(text), every.found(text, terms)) == fast, text
        finally:
            analyzer._shapes, every._shapes, every._firsts = shapes, cue_shapes, firsts
        found += bool(fast[0][1])
        cued += bool(fast[1])
    assert found  # the texts exercise the shapes
    assert cued  # and the cues


def test_a_shape_holding_no_string_runs_only_where_the_text_holds_its_run() -> None:
    shapes = analysis.Analyzer()._shapes
    guarded = [p for _, run in shapes for _, p, _ in run if isinstance(p, literals.Guarded)]
    assert len(guarded) == 4  # a commit's SHA, Slack's two ids, a UUID
    sha = "9fceb02d0ae598e95dc970b74767f19372d61af8"
    made = [f"revert {sha}", f"revert {sha[:39]}", f"{sha}.", sha.upper(), "C01ABCDE", "G1234567"]
    texts = [*_odd_texts(), *made]
    for shape in guarded:
        assert any(shape.pattern.search(t) for t in texts)  # the texts exercise the shape
        for text in texts:
            assert shape.subn(literals.blank, text) == shape.pattern.subn(literals.blank, text)
        assert not all(shape._row(t) for t in texts)  # and the test does skip some


def test_a_shape_whose_mark_is_its_character_runs_only_where_it_holds_a_needed_string() -> None:
    analyzer = analysis.Analyzer()
    every = cues.Cues(analyzer, {slug for slug, _, _ in cues.CUE_SHAPES} | set(cues.CUES))
    shapes = [p for _, run in analyzer._shapes for _, p, _ in run]
    shapes += [p for _, run in every._shapes for _, _, p in run]
    needing = [p for p in shapes if isinstance(p, literals.Needing)]
    assert len(needing) >= 6  # YouTube's, Netlify's, SharePoint's links, in both tables
    made = ["see youtu.be/x1.", "site acme.netlify.app", "open https://acme.sharepoint.com/a"]
    texts = [*_odd_texts(), *made]
    for shape in needing:
        assert any(shape.pattern.search(t) for t in texts)  # the texts exercise the shape
        for text in texts:
            assert shape.subn(literals.blank, text) == shape.pattern.subn(literals.blank, text)
            found, expected = shape.search(text), shape.pattern.search(text)
            assert (found and found.span()) == (expected and expected.span()), text


def test_links_are_found_as_their_whole_alternation_finds_them() -> None:
    analyzer = analysis.Analyzer()
    links = cues.Cues(analyzer, {slug for _, slug, _ in cues.LINKS})._links
    assert links is not None
    made = [
        f"see https://{a.replace(chr(92), '')}x/1 and www.github.com/a" for a, _, _ in cues.LINKS
    ]
    texts = [*_odd_texts(), *made, "acme/web", "https://notion.so/a?u=https://trello.com/c/b"]
    found = 0
    for text in texts:
        expected = [(m.span(), m.lastgroup) for m in links.pattern.finditer(text)]
        assert [(m.span(), m.lastgroup) for m in links.finditer(text)] == expected, text
        assert links.may_match(text) or not expected, text
        found += bool(expected)
    assert found >= len(made)  # the texts exercise the links


SOME_PRODUCTS = {
    "google_calendar": "Google Calendar",
    "microsoft_teams": "Microsoft Teams",
    "onedrive": "OneDrive and SharePoint",
    "microsoft_todo": "Microsoft To Do",
    "github": "GitHub",
    "monday": "monday.com",
}


@pytest.mark.parametrize("shipped", [False, True], ids=["some", "shipped"])
def test_products_are_found_as_the_regex_alone_finds_them(shipped: bool) -> None:
    names = SOME_PRODUCTS
    if shipped:
        names = {slug: i.name for slug, i in load_catalog().integrations.items()}
    found = products.Products(names)
    named = [
        "in Google Calendar", "on Teams", "gdrive", "use MS Teams", "my Drive", "in SharePoint",
        "To Do", "github's", "x-github", "monday.com board", "GOOGLE CALENDAR", "google cal",
        "our GCP org", "in Microsoft 365",
    ]  # fmt: skip
    rng = random.Random(26)
    texts = [*TEXTS, *named]
    for text in TEXTS[::5]:
        words = text.split(" ")
        at = rng.randrange(len(words) + 1)
        texts.append(" ".join([*words[:at], rng.choice(named), *words[at:]]))

    def slow(text: str) -> set[str]:  # each regex on every text
        text = products._ADDRESS.sub(" ", text)  # an address's domain names no product
        assert found._lower is not None
        assert found._capital is not None
        return {s for n in found._lower.findall(text.lower()) for s in found.named[n]} | {
            found._short[n] for n in found._capital.findall(text)
        }

    assert sum(bool(slow(t)) for t in texts) > len(named)  # the texts exercise the names
    for text in texts:
        assert found.of(text) == slow(text), text


def test_a_request_is_phrased_for_its_match_as_without_the_kept_reading() -> None:
    for text in TEXTS:
        for imperative in (False, True):
            kept = phrasing.phrased(text, imperative)
            assert phrasing._phrased.__wrapped__(text, imperative) == kept, text


def test_a_match_is_written_as_float_formatting_writes_it() -> None:
    rng = random.Random(26)
    values = [rng.random() for _ in range(20_000)] + [k / 800 for k in range(801)]
    values += [0.0, 1.0, 5e-324, 0.005, 0.015, 0.125, 0.375, 0.995, math.nextafter(0.125, 1)]
    values += [math.nextafter(0.125, 0), 1.5, -0.25]  # (out of 0..1: formatted as before)
    halves = [k / 200 for k in range(201)]  # a hair either side of a half: formatted
    values += [math.nextafter(h, 0) for h in halves] + [math.nextafter(h, 1) for h in halves]
    for value in values:
        assert answer._match_field(value) == b',"match":' + f"{value:.2f}".encode(), value


def test_an_answers_body_is_the_results_joined_as_before() -> None:
    from tests.skillgate.discovery.test_search_cues import TWINS

    index = SearchIndex(Catalog(integrations=TWINS))
    for query in ("send a message", "send a message in the channel", "water the garden"):
        for connected in (frozenset(), frozenset({"slack"}), frozenset(TWINS)):
            found = index.answer(query, ("*",), None, 3, connected)
            on = found.slugs & connected
            results = b",".join(
                h.head + m + STATUS_TAIL[h.integration.slug in on]
                for h, m in zip(found.hits, found._matches, strict=True)
            )
            assert found.body(connected) == found._start + results + found._end
    empty = SearchAnswer("x", [], [])
    assert empty.body(frozenset()) == empty._start + empty._end


def test_a_documents_terms_are_its_terms_in_the_score_matrix_kept_or_not() -> None:
    from tests.skillgate.discovery.test_search_cues import TWINS

    index = SearchIndex(Catalog(integrations=TWINS))
    documents = index._documents
    assert documents is not None
    matrix, vocab = index.bm25.scores, index.bm25.vocab_dict
    starts, docs = matrix["indptr"], matrix["indices"]
    for row in [*range(len(index.hits)), 0, 1]:  # the last two kept from the first pass
        held = {t for t, i in vocab.items() if i + 1 < len(starts)
                and row in docs[starts[i] : starts[i + 1]].tolist()}  # fmt: skip
        assert documents.terms(row) == held


def test_whether_the_index_knows_a_word_is_answered_as_its_terms_say_kept_or_not() -> None:
    from tests.skillgate.discovery.test_search_cues import TWINS

    index = SearchIndex(Catalog(integrations=TWINS))
    lists = index._postings.lists
    knows = postings.knowing(index.analyzer, lists)
    words = [w.lower() for t in TEXTS for w in re.findall(r"\w+", t)]
    random.Random(26).shuffle(words)
    for word in [*words, *words[:50], "", "-", "x"]:  # the first 50 again: kept answers
        terms = index.analyzer.terms(word)
        assert knows(word) == (bool(terms) and terms[0] in lists), word
    assert any(knows(w) for w in words)  # the words exercise both answers
    assert not all(knows(w) for w in words)


def test_a_texts_references_are_read_as_without_the_last_one_kept() -> None:
    from tests.skillgate.discovery.test_search_cues import TWINS

    analyzer = SearchIndex(Catalog(integrations=TWINS)).analyzer
    rng = random.Random(26)
    texts = [t for t in TEXTS for _ in range(rng.randrange(1, 3))]  # some asked twice running
    assert any(analyzer._read_references(t)[1] for t in texts)  # the texts hold references
    for text in texts:
        found = analyzer._references(text)
        assert found == analyzer._read_references(text), text
        found[1].add("changed")  # a caller adding to what it got changes no later answer


def test_a_kind_of_value_is_looked_for_only_where_the_text_holds_its_strings() -> None:
    extra = ["send $5", "50 EUROS", "a@b.co", "product ID SK1", "id: 12", "'Kickoff call'",
             "from 2018", "LIMIT IT TO 5", "as JSON", "in San Jose", "2508 University Avenue",
             "50 eur\u017f", "\u017ftop 5", "Max 3", "in Video Format", "\u201cKickoff\u201d",
             "\u2018Q3 plan\u2019"]  # fmt: skip
    texts = [*TEXTS, *extra, *(f"{t} {e}" for t, e in zip(TEXTS, extra * 99, strict=False))]
    skipped = 0
    for (says, _), held in zip(values.KINDS, values._HELD, strict=True):
        for text in texts:
            lower = text.lower() if text.isascii() else None
            may = values.may_say(held, text, lower)
            assert may or says.search(text) is None, (says.pattern, text)
            skipped += not may
    assert skipped  # and the tests do pass over some
    # A place's kinds: never a match in a text with no capital after its first character.
    capitalised = [says for (says, _), c in zip(values.KINDS, values._CAPITALISED) if c]
    assert len(capitalised) == 2
    plain = [*(t[0] + t[1:].lower() for t in texts), "in san jose", "2508 university avenue"]
    for says in capitalised:
        for text in [*texts, *plain]:
            assert not text[1:].islower() or says.search(text) is None, (says.pattern, text)
    assert sum(t[1:].islower() for t in texts) > 1_000  # requests passed over


def test_a_class_of_characters_is_required_as_one_of_them() -> None:
    """`literals.needed` reads a class of single characters as one of them: random patterns
    of literals, classes and optional parts, each test passes every text its pattern
    matches (and skips some)."""
    rng = random.Random(9)
    alphabet = "ab'\"\u2018\u201cK\u212a"
    parts = ["a", "b", "ab", "[ab]", "['\"]", "[\u2018\u201c']", "[^a]", "[a-b]", "b?", "\\w", "k"]
    skipped = 0
    for _ in range(400):
        source = "".join(rng.choice(parts) for _ in range(rng.randint(1, 4)))
        pattern = re.compile(source, re.IGNORECASE if rng.random() < 0.3 else 0)
        test = literals.may_match(pattern)
        for _ in range(40):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
            assert test(text) or pattern.search(text) is None, (source, pattern.flags, text)
            skipped += not test(text)
    assert skipped


def test_a_texts_terms_are_read_as_without_the_recent_ones_kept() -> None:
    analyzer = analysis.Analyzer()
    rng = random.Random(5)
    texts = [rng.choice(TEXTS) for _ in range(3 * analysis._RECENT)]  # repeats, and clears
    for text in texts:
        found = analyzer.terms(text)
        assert found == analyzer.canonical(analyzer.stems(analyzer.words(text))), text
        found.append("changed")  # a caller changing what it got changes no later answer
