"""A request's references as the no-match flag reads them (discovery/confidence.py, issue
26): as what they refer to, never as words of the request. "did re_3Mtw... go through?"
asks of a refund though no word of it says so; a link's "https" is no word asked for and
its "?eid=" no unknown object; a Drive file's id "1AbCdEf..." gives no pieces ("ab",
"op", "st" are catalog words). The shapes are the analysis's (discovery/synonyms.py's
`SHAPES`, `Analyzer.references`); the ranking reads them there, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from skillgate.discovery.analysis import Analyzer

# An id of no known shape (`1AbCdEfGh...`, a Drive file's): eight or more letters and
# digits, both in it, standing alone.
_ID = re.compile(r"(?<![\w/.-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{8,}(?![\w/])")
# What every reference holds (the shapes, `_ID`): a digit, "_", "/", "#", "@", or a dot
# inside a word ("acme.vercel.app"); a request without one has none.
_REFERENCE = re.compile(r"[\d_/#@]|\w\.\w")
# An ASCII text's bytes with every digit made "0": a look-up of "0" finds any (`_zeroed`).
_ZEROED = bytes.maketrans(b"123456789", b"000000000")


class Referents:
    def __init__(self, analyzer: Analyzer) -> None:
        self._analyzer = analyzer
        # What a reference to a place where items are refers to (`asked`).
        self._where = frozenset(analyzer.terms("repository channel"))

    def read(self, text: str) -> tuple[str, set[str], frozenset[str]]:
        """`text` without its references (a link, `re_3Mtw...`, `#general`) and ids of no
        known shape (`1AbCdEf...`), the terms of what the references refer to, and the
        terms only the ids gave."""
        if not _may_refer(text):
            return text, set(), frozenset()  # most requests: no reference to read
        text, meant = self._analyzer.references(text)
        found = _ID.findall(text) if _may_hold_id(text) else []
        if not found:
            return text, meant, frozenset()
        text = _ID.sub(" ", text)
        ids = set(self._analyzer.terms(" ".join(found)))
        return text, meant, frozenset(ids.difference(self._analyzer.terms(text)))

    def asked(self, meant: Iterable[str], alone: bool) -> list[str]:
        """The terms of `meant` (`read`) the request asks for. A place (`#random`: a
        channel; `acme/web`) says where, not what, unless the request names nothing else
        (`alone`: "what's been said in #marketing"): "mute #random" asks to mute, which
        no channel call does."""
        return [t for t in meant if alone or t not in self._where]


# The cheap tests before the patterns: look-ups in C over a text's bytes instead of a pass
# of the regex engine, which pays for every character (a request numbered as the cost
# bench numbers them holds a digit at its end: `_REFERENCE` scanned it all).


def _zeroed(text: str) -> bytes | None:
    """An ASCII text's bytes with every digit a "0"; None for a text not all ASCII (its
    digits and word characters are Unicode's: for the patterns to read)."""
    return text.encode().translate(_ZEROED) if text.isascii() else None


def _may_refer(text: str) -> bool:
    """Whether `_REFERENCE` finds a reference's character in `text`."""
    zeroed = _zeroed(text)
    if zeroed is not None:
        if any(c in zeroed for c in b"0_/#@"):
            return True
        if "." not in text:
            return False  # `\w\.\w` holds one
    return _REFERENCE.search(text) is not None


def _may_hold_id(text: str) -> bool:
    """False when `_ID` finds none in `text`: each id is eight characters or more with a
    digit among them, none a space."""
    zeroed = _zeroed(text)
    return zeroed is None or any(len(t) >= 8 and b"0" in t for t in zeroed.split())
