"""A search's answer as JSON bytes, rendered once per set of the caller's connected
integrations among its results, and kept with the answer (discovery/search.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from skillgate.discovery.confidence import fits
from skillgate.discovery.rendered import STATUS_TAIL

if TYPE_CHECKING:
    from skillgate.discovery.search import Hit

BODIES = 8  # rendered bodies kept per answer (callers' connected sets among its hits)


class SearchAnswer:
    """One search's hits and its JSON answer, rendered once per set of connected
    integrations among the hits' (a kept answer costs a look-up, not a join)."""

    __slots__ = ("_bodies", "_end", "_matches", "_start", "hits", "matches", "slugs")

    def __init__(self, query: str, hits: list[Hit], matches: list[float]) -> None:
        """`matches`: each hit's `match` (discovery/confidence.py), in the hits' order."""
        self.hits = hits
        self.matches = matches
        self.slugs = frozenset(h.integration.slug for h in hits)
        self._start = b'{"query":' + orjson.dumps(query) + b',"results":['
        self._end = b'],"no_match":' + (b"true" if self.no_match else b"false") + b"}"
        # Each hit's `match` field, spliced before its status.
        self._matches = [b',"match":' + f"{m:.2f}".encode() for m in matches]
        self._bodies: dict[frozenset[str], bytes] = {}

    @property
    def no_match(self) -> bool:
        """Whether no result fits the request: nothing in the catalog does that."""
        return not fits(self.matches)

    def body(self, connected: frozenset[str]) -> bytes:
        """`{"query", "results", "no_match"}` with each result's `match` and status for
        a caller who has connected `connected` (any set: only the hits' integrations
        count)."""
        on = self.slugs & connected
        found = self._bodies.get(on)
        if found is None:
            # Each hit's head (its object without the closing brace) and status.
            results = b",".join(
                h.head + m + STATUS_TAIL[h.integration.slug in on]
                for h, m in zip(self.hits, self._matches, strict=True)
            )
            found = self._start + results + self._end
            if len(self._bodies) < BODIES:
                self._bodies[on] = found
        return found
