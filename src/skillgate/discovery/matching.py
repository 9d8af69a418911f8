"""Each result's `match` for a request, from the request's reading by its ranking
(discovery/search.py: the request is read once for both; discovery/confidence.py says
what a match is)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from skillgate.discovery.analysis import Query
from skillgate.discovery.confidence import FOREIGN_PENALTY, Matcher, product_share
from skillgate.discovery.fields import Fields
from skillgate.discovery.hit import Hit
from skillgate.discovery.lacks import Lacks
from skillgate.discovery.own import Documents
from skillgate.discovery.phrasing import phrased
from skillgate.discovery.postings import RELATED_WEIGHT


class Reading(NamedTuple):
    """A request as its ranking read it, handed to its matches: read once for both."""

    text: str  # as searched, its unknown words corrected
    q: Query  # its analysis
    shares: np.ndarray | None  # each endpoint's share of name terms it holds
    asked: frozenset[str]  # the integrations it names, else those its words imply
    named: bool  # whether it names them


class Matching:
    def __init__(
        self,
        matcher: Matcher,
        lacks: Lacks,
        documents: Documents | None,
        name_terms: list[frozenset[str]],
        fields: Fields,
    ) -> None:
        """`documents`: each document's terms (None: no index, no hits); `name_terms`:
        the terms of each endpoint's name, in index order; `fields`: the words each
        endpoint writes only as fields' names."""
        self._matcher = matcher
        self._fields = fields
        self._lacks = lacks
        self._documents = documents
        self._name_terms = name_terms

    def of(self, reading: Reading, hits: list[Hit]) -> list[float]:
        """How well each hit fits the request `reading` read, 0 to 1."""
        text, q, shares, asked, named = reading
        said = phrased(text, imperative=True)  # the match's reading of the phrasing
        wanted = self._matcher.wanted(text, q, named, said)
        documents = self._documents
        assert documents is not None  # hits come from an index with documents
        share = product_share(named)
        # The one product named lacks the call ("pin the note in google keep"): as a
        # product nothing here is, and its results earn nothing for being asked of.
        if (
            named
            and len(asked) == 1
            and self._lacks.lacks(text, next(iter(asked)), bool(q.asked), said)
        ):
            wanted, share = (wanted[0], wanted[1] * FOREIGN_PENALTY), 0.0
        # The product's own name says which product, not which of its calls: for its
        # results it does not count; another product's lack it ("change my spotify
        # password": `google_admin.update_user` does not hold "spotify").
        inside = self._matcher.unbranded(wanted, asked) if named else wanted
        rows = [h.row for h in hits]
        match, terms, names = self._matcher.match, documents.terms, self._name_terms
        # The action asked ("archive"), held only as a field's name, is not held (`Fields`).
        action = self._lacks.action(said.request or text)
        out = []
        for h, row, agrees in zip(hits, rows, self._agreements(q, rows, shares), strict=True):
            mine = h.integration.slug in asked
            document = terms(row)
            if action is not None and action[0] in document and self._fields.only(row, *action):
                document = document - {action[0]}
            out.append(
                match(
                    inside if mine else wanted,
                    document,
                    agrees,
                    share if mine else 0.0,
                    names[row],
                )
            )
        return out

    def _agreements(self, q: Query, rows: list[int], shares: np.ndarray | None) -> list[float]:
        """The share of each row's name the request holds, without the terms only its
        question form added ("what's the price of bitcoin": `get_subscription` agrees on
        nothing)."""
        if shares is None:
            return [0.0] * len(rows)
        found: list[float] = shares[rows].tolist()  # one call for the rows' floats
        if q.asked:
            for i, row in enumerate(rows):
                name = self._name_terms[row]
                found[i] -= RELATED_WEIGHT * sum(t in name for t in q.asked) / max(len(name), 1)
        return found
