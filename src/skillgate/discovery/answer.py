"""A search's answer as JSON bytes, rendered once per set of the caller's connected
integrations among its results, and kept with the answer (discovery/search.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from skillgate.discovery.rendered import STATUS_TAIL

if TYPE_CHECKING:
    from skillgate.discovery.search import Hit

BODIES = 8  # rendered bodies kept per answer (callers' connected sets among its hits)


class SearchAnswer:
    """One search's hits and its JSON answer, rendered once per set of connected
    integrations among the hits' (a kept answer costs a look-up, not a join)."""

    __slots__ = ("_bodies", "_start", "hits", "slugs")

    def __init__(self, query: str, hits: list[Hit]) -> None:
        self.hits = hits
        self.slugs = frozenset(h.integration.slug for h in hits)
        self._start = b'{"query":' + orjson.dumps(query) + b',"results":['
        self._bodies: dict[frozenset[str], bytes] = {}

    def body(self, connected: frozenset[str]) -> bytes:
        """`{"query", "results"}` with each result's status for a caller who has
        connected `connected` (any set: only the hits' integrations count)."""
        on = self.slugs & connected
        found = self._bodies.get(on)
        if found is None:
            # Each hit's head (its object without the closing brace) and status.
            results = b",".join(h.head + STATUS_TAIL[h.integration.slug in on] for h in self.hits)
            found = self._start + results + b"]}"
            if len(self._bodies) < BODIES:
                self._bodies[on] = found
        return found
