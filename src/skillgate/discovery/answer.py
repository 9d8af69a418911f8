"""A search's answer as JSON bytes, rendered once per set of the caller's connected
integrations among its results, and kept with the answer (discovery/search.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from skillgate.discovery.confidence import fits
from skillgate.discovery.rendered import STATUS_TAIL

if TYPE_CHECKING:
    from skillgate.discovery.hit import Hit

BODIES = 8  # rendered bodies kept per answer (callers' connected sets among its hits)
# The compact text's first line (SearchAnswer.text), as the JSON's `no_match` says.
FITS_LINE = "no_match: false (best first; get_skill gives an endpoint's parameters)"
NO_MATCH_LINE = "no_match: true (nothing here seems to do the task: do not act on a guess)"


# A `match` field for each hundredth from 0 to 1.
_HUNDREDTHS = [b',"match":' + f"{k / 100:.2f}".encode() for k in range(101)]


def _match_field(m: float) -> bytes:
    """`,"match":` and `m` to two places as `f"{m:.2f}"` writes it (the exact binary
    value rounded, a half to even), for 0 <= m <= 1 read off `m` x 100 when that is not
    within a hair of a half (its rounding error is ~1e-14): a float's formatting costs
    three times as much."""
    scaled = m * 100.0
    if 0.0 <= m <= 1.0 and abs(scaled % 1.0 - 0.5) > 1e-9:
        return _HUNDREDTHS[int(scaled + 0.5)]
    return b',"match":' + f"{m:.2f}".encode()


class SearchAnswer:
    """One search's hits and its JSON answer, rendered once per set of connected
    integrations among the hits' (a kept answer costs a look-up, not a join)."""

    __slots__ = ("_bodies", "_end", "_matches", "_start", "_texts", "hits", "matches", "slugs")

    def __init__(self, query: str, hits: list[Hit], matches: list[float]) -> None:
        """`matches`: each hit's `match` (discovery/confidence.py), in the hits' order."""
        self.hits = hits
        self.matches = matches
        self.slugs = frozenset(h.integration.slug for h in hits)
        self._start = b'{"query":' + orjson.dumps(query) + b',"results":['
        self._end = b'],"no_match":' + (b"true" if self.no_match else b"false") + b"}"
        # Each hit's `match` field, spliced before its status.
        self._matches = [_match_field(m) for m in matches]
        self._bodies: dict[frozenset[str], bytes] = {}
        self._texts: dict[frozenset[str], str] = {}

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
            # Each hit's head (its object without the closing brace), match and status, all
            # joined at once (no bytes made per hit).
            parts = [self._start]
            for h, m in zip(self.hits, self._matches, strict=True):
                parts += (h.head, m, STATUS_TAIL[h.integration.slug in on], b",")
            if len(parts) > 1:
                parts.pop()  # the last result's comma
            parts.append(self._end)
            found = b"".join(parts)
            if len(self._bodies) < BODIES:
                self._bodies[on] = found
        return found

    def text(self, connected: frozenset[str]) -> str:
        """The same answer as compact lines, for a reader that counts tokens (MCP's text
        block): whether nothing fits, the results' integrations by connection status,
        then one line per result, best first: `slug/name METHOD path match 0.91: one
        line` (the category, the one field left out, is in the JSON)."""
        on = self.slugs & connected
        found = self._texts.get(on)
        if found is None:
            lines = [NO_MATCH_LINE if self.no_match else FITS_LINE]
            slugs = sorted(self.slugs)
            for said, these in (
                ("connected", [s for s in slugs if s in on]),
                ("not_connected", [s for s in slugs if s not in on]),
            ):
                if these:
                    lines.append(f"{said}: {', '.join(these)}")
            for h, m in zip(self.hits, self.matches, strict=True):
                e = h.endpoint
                lines.append(
                    f"{h.integration.slug}/{e.name} {e.method} {e.path} match {m:.2f}: {h.line}"
                )
            found = "\n".join(lines)
            if len(self._texts) < BODIES:
                self._texts[on] = found
        return found
