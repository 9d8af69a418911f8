"""Search over the catalog's endpoints, built once at start-up (docs/catalog.md, "Search").

Each endpoint is one BM25 document (bm25s) made of weighted fields: a field's terms go
into the document `FIELD_WEIGHTS` times (discovery/analysed.py, which keeps the analysed
catalog as a snapshot for the next start), so a word of the name counts more than a word
of the description while all fields share one vocabulary and one length (BM25F
approximated by repetition). Text becomes terms in discovery/analysis.py, the same for
the catalog and the query, with the synonym tables of discovery/synonyms.py; the terms
those tables add to a query count `RELATED_WEIGHT` (postings.py) of the query's own.

A query scores every document at once (one sum over its terms' postings,
discovery/postings.py, read from bm25s's sparse score matrix), each score then
multiplied by the share of the endpoint's name the query holds (`NAME_COVER`) and, for
an integration the query names ("in Asana"), by `NAMED_BOOST` (naming none, by the
product cues of discovery/cues.py: "inbox" implies Gmail, "ENG-55" Linear), by the
request's kind against the call's (reading or changing: discovery/kinds.py) and by the
values the request carries ("$125", "in San Jose": discovery/values.py); endpoints
the caller may not see are masked out (integrations the key's scopes allow; for a
`slug:read` scope only endpoints that do not change data, as in the listing), and the
best `limit` come back, best first. Before all that, words the index does not know are
corrected against the catalog's vocabulary (discovery/spelling.py). The best candidates
are then re-ordered by meaning within the first one's integration
(discovery/semantic.py, a static embedding model; off with SKILLGATE_SEMANTIC=0) and a
call that deletes is not first for a request that does not ask for it
(discovery/rerank.py); each result gets its `match`, and the answer says when none fits
(discovery/confidence.py).
"""

from __future__ import annotations

from collections.abc import Collection, Container, Mapping

import numpy as np

from skillgate.api_keys.scopes import access_for
from skillgate.catalog.loader import Catalog
from skillgate.discovery.analysed import Analysed, for_catalog
from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.answer import SearchAnswer
from skillgate.discovery.confidence import Matcher
from skillgate.discovery.cues import Cues
from skillgate.discovery.fields import Fields
from skillgate.discovery.hit import Hit, hit_for
from skillgate.discovery.kinds import Kinds
from skillgate.discovery.lacks import Lacks
from skillgate.discovery.matching import Matching, Reading
from skillgate.discovery.own import Documents, Rows, document_frequency
from skillgate.discovery.places import PLACE_ITSELF, Places
from skillgate.discovery.postings import Postings, knowing
from skillgate.discovery.priors import priors
from skillgate.discovery.products import Products
from skillgate.discovery.rerank import Reorder
from skillgate.discovery.semantic import Semantic, second_look, unknown_share
from skillgate.discovery.spelling import Speller
from skillgate.discovery.stopwords import LEAD_INS, STOPWORDS
from skillgate.discovery.texts import table_words
from skillgate.discovery.values import TIME_BIT, Things, Values

# An endpoint's name is what it does: its score is multiplied by 1 + `NAME_COVER` x the
# share of its name's terms the query holds (`create_issue` for "open a bug": both terms,
# x1.5; `list_issue_comments`: one of three). The query's related terms count
# `RELATED_WEIGHT` of a term here too. BM25 alone lets a rare word of the request
# ("login" in "open a bug about the login page") outweigh the words that say the action.
NAME_COVER = 0.5
# The score multiplier of every endpoint of an integration the query names by its name
# ("... in Asana", "my Google Calendar").
NAMED_BOOST = 1.5
# The score multiplier of every endpoint of an integration the caller has connected, when
# the query names no product ("cancel the standup on Monday": the caller's Outlook
# calendar before a Google Calendar they never connected); with a product's cues
# (discovery/cues.py) the factors multiply. A preference among near-equal matches only.
CONNECTED_BOOST = 1.3
# A request that says when ("next Tuesday", "at 3pm": discovery/phrasing.py) is for a
# call that takes a time: an endpoint with a parameter of time (values.TIMED: `start`,
# `timeMin`, `post_at`, `due`) has its score multiplied by `TIME_BOOST`.
TIME_BOOST = 1.15
MAX_LIMIT = 50
# Top-k: documents scoring under this share of the best are left out before the
# partition when enough others remain (an exact shortcut: ~50 candidates instead of ~700).
NEAR = 0.3
# Up to this many candidates are sorted whole; more are cut to the best `depth` first (a
# partition, a comparison and two selections cost more than sorting ~200 floats).
SORTED = 200
# Candidates ranked beyond the limit, for the second look to bring up.
SPARE = 3
_MEMO = 10_000
_ANSWERS = 4_096  # recent answers kept: an agent repeats a search, many agents ask alike


# A kept answer's key: query, scopes, integration, limit, connected integrations.
AnswerKey = tuple[str, tuple[str, ...], str | None, int, frozenset[str]]


def _speller(
    analyzer: Analyzer,
    analysed: Analysed,
    table: Collection[str],
    frequency: Container[str],
    products: Mapping[str, str],
) -> Speller:
    """The speller over the catalog's words. It knows only the terms the endpoints' own
    texts hold (`frequency`, discovery/own.py): a term only users' phrasings hold (an id's
    fragment, "usr" of `usr_7Hq2kL`) is no reason to leave a typo ("usre") as written."""
    known = knowing(analyzer, frequency)
    return Speller(dict(analysed.words), table, known, analysed.derived.named, products.values())


class SearchIndex:
    def __init__(
        self, catalog: Catalog, boost: Mapping[tuple[str, str], float] | None = None
    ) -> None:
        """`boost`: a score multiplier per endpoint, (slug, name) -> factor, instead of
        its prior (discovery/priors.py)."""
        self.analyzer = Analyzer()
        analysed = for_catalog(catalog, self.analyzer)
        self.analyzer.names({t for name in analysed.names for t in name})
        # The words that say nothing of what a request is for (semantic.unknown_share).
        self._said = STOPWORDS | LEAD_INS | self.analyzer.filler
        self.hits, self.ranges = _rows(catalog)
        products = {slug: i.name for slug, i in catalog.integrations.items()}
        self.mutates = np.array([h.endpoint.mutates for h in self.hits], dtype=bool)
        derived = analysed.derived  # read off names and parameters (analysed.py)
        self._timed = np.where(derived.taken & TIME_BIT, TIME_BOOST, 1.0)
        self.prior = priors([(h.integration.slug, h.endpoint) for h in self.hits], boost or {})
        self._name_terms = [frozenset(terms) for terms in analysed.names]
        self._kinds = Kinds(self.analyzer, derived.kinds)
        self._places = Places(self.analyzer, [h.endpoint.name for h in self.hits])
        self._values = Values(derived.taken)
        self._things = Things(
            [(h.integration.slug, h.endpoint) for h in self.hits], self.analyzer.terms
        )
        self._products = Products(products)
        self._cues = Cues(self.analyzer, self.ranges)
        self.bm25 = analysed.bm25
        self._indexed = analysed.indexed
        self._postings = Postings(self.bm25, analysed.names)
        table = table_words()
        self._knows = knowing(self.analyzer, self._postings.lists)
        frequency = document_frequency(self.bm25, analysed.own)  # own texts' terms
        self._speller = _speller(self.analyzer, analysed, table, frequency, products)
        # Each result's `match` (discovery/matching.py), each document's terms read from
        # the score matrix when asked.
        self._matcher = matcher = Matcher(
            self.analyzer,
            frequency,
            len(self.hits),
            table,
            self._postings.names,
            products,
            derived.dropped,
        )
        own = Rows(self.bm25, analysed.own)
        fields = Fields([h.endpoint for h in self.hits])
        lacks = Lacks(self.analyzer, own, self._postings.names, self.ranges, products, fields)
        self._documents = Documents(self.bm25, analysed.own) if self._indexed else None
        self._matching = Matching(matcher, lacks, self._documents, self._name_terms, fields)
        self._reorder = Reorder(self.analyzer, self.hits, analysed.names)
        # The semantic second look (discovery/semantic.py); None: the first stage alone.
        self.semantic: Semantic | None = second_look(self.hits, catalog.digest, catalog.parts)
        # The last ranked query's reading, for `matches` on it (`answer` hands it over).
        self._read: tuple[str, Reading] | None = None
        self._masks: dict[tuple[tuple[str, ...], str | None], np.ndarray] = {}
        self._answers: dict[AnswerKey, SearchAnswer] = {}

    def coverage(self, q: Query) -> np.ndarray | None:
        """Each endpoint's share of name terms the query holds (related terms at their
        weight); None when the query holds no term of any name."""
        found = self._postings.sums(q)
        if found is None or not found[1]:
            return None
        return found[0][len(self.hits) :]

    def mask(self, scopes: tuple[str, ...], integration: str | None) -> np.ndarray:
        """Each endpoint's boost if the scopes let the caller see it (in `integration`
        when given), else 0 (memoised per scopes and integration)."""
        key = (scopes, integration)
        found = self._masks.get(key)
        if found is not None:
            return found
        mask = np.zeros(len(self.hits))
        for slug in [integration] if integration is not None else self.ranges:
            access = access_for(scopes, slug)
            if access is None or slug not in self.ranges:
                continue
            start, end = self.ranges[slug]
            mask[start:end] = 1 if access == "full" else ~self.mutates[start:end]
        mask *= self.prior
        if len(self._masks) < _MEMO:
            self._masks[key] = mask
        return mask

    def _analysed(self, query: str) -> tuple[str, Query]:
        """The query with its unknown words corrected, and its analysis."""
        text = self._speller.correct(query)
        return text, self.analyzer.query(text, self.bm25.vocab_dict)

    def scores(self, query: str) -> np.ndarray | None:
        """Every document's score for `query`; None when no term of it is indexed."""
        found = self._scores(*self._analysed(query)) if self._indexed else None
        return None if found is None else found[0]

    def _scores(
        self, query: str, q: Query, connected: frozenset[str] = frozenset()
    ) -> tuple[np.ndarray, Reading] | None:
        """Every document's score for `query` (`q` its analysis), and its reading."""
        found = self._postings.sums(q)
        if found is None:
            return None
        sums, named_in_query = found
        n = len(self.hits)
        total = sums[:n]
        shares = sums[n:] if named_in_query else None  # kept as they are for `coverage`
        if shares is not None:
            cover = shares * NAME_COVER  # 1 + NAME_COVER x share
            cover += 1
            total *= cover
        if q.when:
            total *= self._timed
        kinds = self._kinds.factors(q)  # a call named for changing when reading is asked
        if kinds is not None:
            total *= kinds
        for rows in self._places.rows(q):  # "what's on my calendar": not the calendar
            total[rows] *= PLACE_ITSELF
        for factors in self._values.factors(query, self._knows_name):  # "$125": an amount
            total *= factors
        if q.item and self._kinds.reads(q):  # "in_1MtH...": a call on that one item
            total *= self._values.item
        if q.things:  # "CS-1184": a call on an issue
            things = self._things.factors(q.things)
            if things is not None:
                total *= things
        boosts, named = self._asked(query, q)
        reading = Reading(query, q, shares, frozenset(boosts), named)
        if not named:  # and the caller's connected integrations
            for slug in connected:
                if slug in self.ranges:
                    boosts[slug] = boosts.get(slug, 1.0) * CONNECTED_BOOST
        for slug, factor in boosts.items():
            start, end = self.ranges[slug]
            total[start:end] *= factor
        return total, reading

    def _knows_name(self, name: str) -> bool:
        """Whether a name is the catalog's: a product's, or made of words it knows."""
        return self._products.names(name) or any(self._knows(w.lower()) for w in name.split())

    def _asked(self, query: str, q: Query) -> tuple[dict[str, float], bool]:
        """The integrations the request (`query` as searched, `q` its analysis) names or
        links to, each with `NAMED_BOOST`, else those its words imply with their factors
        (discovery/cues.py); and whether it names one. A link to a product's own page ranks
        as its name would; the match reads it as a cue (a Sheets link's sharing is Drive's)."""
        named = self._products.of(query)
        linked = named | self._cues.linked(query)
        boosts = {slug: NAMED_BOOST for slug in linked} or self._cues.factors(query, q.terms)
        return boosts, bool(named)

    def reading(self, query: str) -> Reading:
        """`query` read as its ranking reads it (`Reading`), without the ranking: the
        integrations it names or links to (`_asked`), else those its words imply: the ones
        the ranking boosts, the caller's connected ones aside."""
        text, q = self._analysed(query)
        boosts, named = self._asked(text, q)
        return Reading(text, q, self.coverage(q), frozenset(boosts), named)

    def search(
        self,
        query: str,
        scopes: tuple[str, ...],
        integration: str | None = None,
        limit: int = 10,
        connected: frozenset[str] = frozenset(),
    ) -> list[Hit]:
        """The best `limit` endpoints for `query` that the scopes allow, best first, equal
        scores in catalog order (the semantic second look, when on, orders them by
        meaning). An endpoint that matches no term is never returned.
        `connected`: the caller's connected integrations (`CONNECTED_BOOST`)."""
        return self.answer(query, scopes, integration, limit, connected).hits

    def answer(
        self,
        query: str,
        scopes: tuple[str, ...],
        integration: str | None,
        limit: int,
        connected: frozenset[str] = frozenset(),
    ) -> SearchAnswer:
        """`search`'s hits with their rendered answer, reused for the same query, scopes,
        integration, limit and connected integrations (an index serves one catalog: a
        reload builds a new one)."""
        if not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"limit must be 1..{MAX_LIMIT}, not {limit}")
        key = (query, scopes, integration, limit, connected)
        found = self._answers.get(key)
        if found is None:
            hits, reading = self._ranked(query, scopes, integration, limit, connected)
            found = SearchAnswer(query, hits, self._matches(reading, hits))
            if len(self._answers) >= _ANSWERS:
                self._answers.clear()  # simpler than an LRU, and as good for bursts
            self._answers[key] = found
        return found

    def matches(self, query: str, hits: list[Hit]) -> list[float]:
        """How well each hit fits `query`, 0 to 1 (discovery/confidence.py); the last
        ranked query's reading is kept for its matches."""
        if not hits:
            return []
        read = self._read
        return self._matches(read[1] if read and read[0] == query else self.reading(query), hits)

    def _matches(self, reading: Reading | None, hits: list[Hit]) -> list[float]:
        """`matches`, with the request's `reading` (None only when there are no hits)."""
        if not hits:
            return []
        assert reading is not None  # hits come from a ranking, which read the request
        return self._matching.of(reading, hits)

    def rank(
        self,
        query: str,
        scopes: tuple[str, ...],
        integration: str | None,
        limit: int,
        connected: frozenset[str] = frozenset(),
    ) -> list[Hit]:
        """`search` without the reuse of recent answers (its reading kept for `matches`)."""
        hits, reading = self._ranked(query, scopes, integration, limit, connected)
        self._read = None if reading is None else (query, reading)
        return hits

    def _ranked(
        self,
        query: str,
        scopes: tuple[str, ...],
        integration: str | None,
        limit: int,
        connected: frozenset[str],
    ) -> tuple[list[Hit], Reading | None]:
        """`rank`, and the request's reading (None when nothing scores)."""
        if not self._indexed:
            return [], None
        text, q = self._analysed(query)
        scored = self._scores(text, q, connected)
        if scored is None:
            return [], None
        scores, reading = scored
        scores *= self.mask(scopes, integration)
        # A few more than asked: the second look (discovery/rerank.py) may bring one up;
        # the semantic one (discovery/semantic.py) re-orders the best `depth` of them.
        wanted = limit + SPARE
        semantic = self.semantic
        depth = wanted if semantic is None else max(wanted, semantic.depth)
        found = best_of(scores, wanted, depth)
        if found is None:
            return [], reading
        best, values = found
        if semantic is not None:
            unknown = unknown_share(text, self._knows, self._said)
            best = semantic.reorder(text, best, values, unknown)[:wanted]
        hits = self.hits
        ranked = self._reorder.first([hits[i] for i in best.tolist()], {*q.terms, *q.related})
        return ranked[:limit], reading


def best_of(scores: np.ndarray, wanted: int, depth: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The best `depth` documents' rows by `scores`, best first (equal scores in catalog
    order), and their scores; None when none scores. The candidates: the documents within
    `NEAR` of the best (ascending: catalog order) when they are at least `wanted` (the
    wanted-th best is then among them), else every document that scores."""
    top = scores.max()
    if top <= 0:
        return None
    found = (scores >= top * NEAR).nonzero()[0]
    if len(found) < wanted:
        found = (scores > 0).nonzero()[0]
    values = scores[found]
    if len(found) > max(depth, SORTED):
        # Keep every document scoring at least the depth-th best (ties included): the
        # sort's first `depth` are the same, only the documents after them go.
        cut = len(found) - depth
        keep = values >= np.partition(values, cut)[cut]
        found, values = found[keep], values[keep]
    # A stable sort keeps equal scores in catalog order.
    order = (-values).argsort(kind="stable")[:depth]
    return found[order], values[order]


def _rows(catalog: Catalog) -> tuple[list[Hit], dict[str, tuple[int, int]]]:
    """Each endpoint's hit, in index order, and each integration's documents [start, end)."""
    hits: list[Hit] = []
    ranges: dict[str, tuple[int, int]] = {}
    for slug, integration in catalog.integrations.items():
        start = len(hits)
        for e in integration.endpoints:
            hits.append(hit_for(integration, e, len(hits)))
        ranges[slug] = (start, len(hits))
    return hits, ranges
