"""The shortcuts of a new query's cost, second file (issue 26; test_search_cost.py has the
first): each replaced implementation answers as the one it replaced, over random inputs
drawn from the shipped catalog's own terms and products."""

from __future__ import annotations

import random
from collections.abc import Collection
from types import SimpleNamespace

import numpy as np
import pytest

from skillgate.discovery import lacks as lacks_module
from skillgate.discovery import postings, search, semantic
from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.foreign import _TOKEN, Foreign
from skillgate.discovery.lacks import Lacks
from skillgate.discovery.postings import RELATED_WEIGHT
from skillgate.discovery.search import SearchIndex
from skillgate.discovery.world import World, words
from tests.skillgate.discovery.test_search_cost import TEXTS


def _in_documents(lacks: Lacks, terms: Collection[str], slug: str) -> bool:
    start, end = lacks._ranges[slug]
    only = lacks._fields.only  # a word only a field's name says is not said (fields.py)
    return any(
        not only(int(r), t) for t in terms for r in lacks._rows(t, start, end, False).tolist()
    )


def _elsewhere(lacks: Lacks, terms: Collection[str], slug: str) -> bool:
    product = lacks._product[slug]
    if not product:
        return False
    start, end = lacks._ranges[slug]
    rows = np.concatenate([lacks._rows(t, 0, lacks._n, True) for t in terms])
    rows = rows[(rows < start) | (rows >= end)]
    for term in product:
        if not len(rows):
            return False
        rows = rows[np.isin(rows, lacks._rows(term, 0, lacks._n, False))]
    return bool(len(rows))


def _named_apart(lacks: Lacks, verbs: Collection[str], objects: Collection[str], slug: str) -> bool:
    start, end = lacks._ranges[slug]
    held = [lacks._rows(t, start, end, True) for t in objects]
    things = np.concatenate(held) if held else np.zeros(0, np.intp)
    if not len(things):
        return False
    doing = np.concatenate([lacks._rows(t, start, end, True) for t in verbs])
    return not np.isin(things, doing).any()


def test_a_products_lack_is_read_off_kept_sets_as_off_the_postings(
    index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    lacks = index._matching._lacks
    monkeypatch.setattr(lacks_module, "_KEPT", 500)  # the kept sets cleared now and then
    rng = random.Random(26)
    slugs = sorted(lacks._ranges)
    verbs = sorted(lacks._verbs)
    names = sorted({t for name in index._name_terms for t in name})
    products = sorted({t for terms in lacks._product.values() for t in terms})
    pool = [*verbs, *names, *products, "zzz", "unknownword"]
    outcomes: dict[str, set[bool]] = {"documents": set(), "elsewhere": set(), "apart": set()}
    for _ in range(3_000):
        slug = rng.choice(slugs)
        doing = {rng.choice(verbs) for _ in range(rng.randint(1, 4))}
        objects = {rng.choice(pool) for _ in range(rng.randint(0, 4))}
        # Twice each: the second reads the kept sets.
        for _ in range(2):
            found = lacks._in_documents(doing | objects, slug)
            assert found == _in_documents(lacks, doing | objects, slug)
            outcomes["documents"].add(found)
            found = lacks._elsewhere(doing, slug)
            assert found == _elsewhere(lacks, doing, slug), (doing, slug)
            outcomes["elsewhere"].add(found)
            found = lacks._named_apart(doing, objects, slug)
            assert found == _named_apart(lacks, doing, objects, slug), (doing, objects, slug)
            outcomes["apart"].add(found)
    assert all(seen == {False, True} for seen in outcomes.values())  # both answers exercised


def test_a_names_agreement_is_read_for_all_hits_at_once_as_one_by_one(index: SearchIndex) -> None:
    def slow(q: Query, row: int, shares: np.ndarray | None) -> float:
        if shares is None:
            return 0.0
        share = float(shares[row])
        if q.asked:
            name = index._name_terms[row]
            share -= RELATED_WEIGHT * sum(t in name for t in q.asked) / max(len(name), 1)
        return share

    rng = random.Random(26)
    requests = ["what's the price of bitcoin", "list my open issues", "zebra", "what's on my cal"]
    requests += ["show me the channels in slack", "get the weather", "send an email to ana"]
    asked = 0
    for request in requests:
        _, q, shares, _, _ = index.reading(request)
        asked += bool(q.asked and shares is not None)
        rows = [rng.randrange(len(index.hits)) for _ in range(12)]
        found = index._matching._agreements(q, rows, shares)
        assert found == [slow(q, row, shares) for row in rows], request
    assert asked  # a question's own terms exercised


def _with_names(texts: list[str], names: list[str]) -> list[str]:
    """`texts`, and each with one of `names` put in at random, as written and upper case."""
    rng = random.Random(26)
    out = list(texts)
    for text in texts:
        words = text.split(" ")
        at = rng.randrange(len(words) + 1)
        name = rng.choice(names)
        out.append(
            " ".join([*words[:at], rng.choice([name, name.upper(), name + "'S"]), *words[at:]])
        )
    return out


def test_a_foreign_name_is_looked_for_only_where_a_word_may_start_one() -> None:
    foreign = Foreign()
    texts = _with_names(TEXTS, [*sorted(foreign._names)[::7], "Venmo", "h&r block", "disney+"])
    skipped = 0
    for text in texts:
        lower = [t.lower() for t, _ in _TOKEN.findall(text)]
        if foreign._names_none(text):
            skipped += 1
            assert foreign._starts.isdisjoint(lower), text
    assert 0 < skipped < len(texts)


def test_a_worlds_entry_is_looked_for_only_where_a_word_may_start_one() -> None:
    world = World()
    texts = _with_names(TEXTS, ["the lights", "a flight", "driver's license", "two tickets"])
    skipped = 0
    for text in texts:
        if world._none_start(text):
            skipped += 1
            assert world._starts.isdisjoint(words(text)), text
    assert 0 < skipped < len(texts)


def test_a_texts_first_term_is_the_first_of_its_terms() -> None:
    analyzer = Analyzer()
    phrases = ["pull request", "to do list", "1:1", "re-run", "PRs", "direct message"]
    for text in _with_names(TEXTS, phrases):
        assert analyzer.first_term(text) == analyzer.terms(text)[:1], text


def test_a_request_read_without_its_ranking_asks_of_what_the_ranking_boosts(
    index: SearchIndex,
) -> None:
    """`reading` (a match asked for without a ranking first) names, links and cues the
    integrations its ranking boosts: a link to a product's page among them."""
    requests = [
        "share https://docs.google.com/spreadsheets/d/1AbC/edit with the band: our song list",
        "add the song list from https://www.notion.so/Playlist-0123456789abcdef0123456789abcdef",
        "list my open issues in github",
        "play some music",
    ]
    linked = 0
    for request in requests:
        index.rank(request, ("*",), None, 10)
        assert index._read is not None
        ranked = index._read[1]
        alone = index.reading(request)
        assert (alone.text, alone.asked, alone.named) == (ranked.text, ranked.asked, ranked.named)
        linked += bool(index._cues.linked(ranked.text))
    assert linked == 2  # the links exercised


def _bincount_sums(index: SearchIndex, q: Query) -> tuple[np.ndarray, bool] | None:
    """`Postings.sums` as one `bincount` over every row of the query's terms."""
    lists = index._postings.lists
    found = [
        (lists[t], related, weight)
        for terms, related, weight in ((q.terms, False, 1.0), (q.related, True, 1.0),
                                       (q.content, False, postings.CONTENT_WEIGHT))
        for t in terms
        if t in lists
    ]  # fmt: skip
    if not found:
        return None
    rows = np.concatenate([p[0] for p, _, _ in found])
    values = np.concatenate([(p[2] if r else p[1]) * w for p, r, w in found])
    sums = np.bincount(rows, weights=values, minlength=2 * index._postings.n)
    return sums, any(p[3] for p, _, _ in found)


def test_the_commonest_terms_sum_as_vectors_to_the_same_floats(index: SearchIndex) -> None:
    lists = index._postings.lists
    dense = [t for t in lists if len(lists[t][0]) >= postings.DENSE_FROM]
    assert dense == list(index._postings._dense)
    terms = sorted(lists)
    rng = random.Random(26)

    def some() -> tuple[str, ...]:  # a few terms, common ones among them, in any order
        picked = rng.sample(terms, rng.randrange(4)) + rng.sample(dense, rng.randrange(3))
        return tuple(rng.sample(picked, len(picked)))

    for _ in range(300):
        q = Query(some(), some(), some())
        found, expected = index._postings.sums(q), _bincount_sums(index, q)
        if expected is None:
            assert found is None
            continue
        assert found is not None
        assert found[1] == expected[1]
        assert found[0].tobytes() == expected[0].tobytes()  # bit for bit


def test_candidates_sorted_whole_are_the_best_as_when_cut_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Up to `SORTED` candidates are sorted whole, more are cut to the best `depth` first:
    the same rows and scores either way (scores with many ties, all counts of candidates
    one way then the other), as `np.argsort` of the negated scores orders them."""
    rng = np.random.default_rng(26)
    for _ in range(400):
        n = int(rng.integers(1, 3_000))
        scores = rng.random(n).round(int(rng.integers(1, 4))) * (rng.random(n) < rng.random())
        wanted, depth = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        depth = max(depth, wanted)
        found = {}
        for sorted_up_to in (0, 1_000_000):
            monkeypatch.setattr(search, "SORTED", sorted_up_to)
            found[sorted_up_to] = search.best_of(scores, wanted, depth)
        if scores.max() <= 0:
            assert found == {0: None, 1_000_000: None}
            continue
        top = scores.max()
        rows = (scores >= top * search.NEAR).nonzero()[0]
        rows = rows if len(rows) >= wanted else (scores > 0).nonzero()[0]
        expected = rows[np.argsort(-scores[rows], kind="stable")][:depth]
        for got in found.values():
            assert got is not None
            assert got[0].tolist() == expected.tolist()
            assert got[1].tobytes() == scores[expected].tobytes()


def test_the_semantic_blend_and_pooling_are_numpys_own_formulas() -> None:
    """`Semantic.reorder` and `Model._pooled` give the bits of the formulas they replaced:
    `np.mean` of the float16 rows and `np.linalg.norm`, and the blend with `np.where`
    sorted negated."""
    model = semantic.model()
    assert model is not None
    rng = np.random.default_rng(26)
    tokens = len(model._weights)
    shipped = model._weights.astype(np.float16)  # the file's values, as it holds them
    assert shipped.astype(np.float32).tobytes() == model._weights.tobytes()
    for _ in range(500):
        ids = rng.integers(0, tokens, rng.integers(1, 40)).tolist()
        mean = shipped[ids].mean(axis=0, dtype=np.float32)
        expected = mean / np.linalg.norm(mean)
        assert model._pooled(ids).tobytes() == expected.tobytes()
    groups = rng.integers(0, 6, 400)
    hits = [SimpleNamespace(integration=SimpleNamespace(slug=str(g))) for g in groups]
    vectors = rng.standard_normal((400, semantic.DIMS)).astype(np.float32)
    second = semantic.Semantic(model, hits, vectors)  # type: ignore[arg-type]
    for i in range(300):
        rows = rng.choice(400, rng.integers(2, 60), replace=False)
        values = np.sort(rng.random(len(rows)).round(rng.integers(1, 4)))[::-1] + 0.01
        unknown = float(rng.choice([0.0, 0.25, 1 / 3]))
        text = f"list the open issues {i}"
        cosine = vectors[rows] @ model.vector(text)
        group = second.group[rows]
        weight = semantic.WEIGHT * (1 + semantic.UNKNOWN_GAIN * unknown)
        blended = values / values[0] + weight * np.where(group == group[0], cosine, cosine[0])
        expected_rows = rows[np.argsort(-blended, kind="stable")]
        assert second.reorder(text, rows, values, unknown).tolist() == expected_rows.tolist()
