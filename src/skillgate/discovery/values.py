"""Values a request carries, as evidence of the call that takes them (docs/search-history.md,
seventh round).

A request that names an amount of money ("send $125 to Alex", "50 euros") is for a call
that takes an amount, one that names an email address ("add maria.g@brightpath.io to the
newsletter") for a call that takes an email, one that names a place ("in San Jose", "near
Palo Alto": a capitalised name after in, near, at or around that the catalog does not
know, neither a product, "in Mailchimp", nor its words, "in Review") for a call that takes
a place, an id said as one ("product ID
SK123") for a call taking an id, quoted text ("add a card 'Kickoff with Brightline'") for
one taking a title, a name or a message, a year or how many at most for a call taking
one: an endpoint with a parameter of that kind
(`KINDS`: `amount`, `email`, `city`, `destination`, `product_id`, `title`...) has its
score multiplied by `VALUE_BOOST`, as one taking a time is for a request that says when
(search.TIME_BOOST).

Measured (`PYTHONPATH=src:. .venv/bin/python bench/search_dev.py`): development set, all
answerable, top-1/3/10 0.714/0.898/0.957 -> 0.714/0.900/0.957; BFCL pool top-1/5 0.711/
0.829 -> 0.713/0.829 (the amount: BFCL +2 top-1; the email: the development set's top-3
+1). x1.15: 0.712/0.898/0.957, BFCL 0.713/0.829; x1.5: 0.709/0.900/0.957. A link (a URL
for a `url` parameter) changed nothing and is left out. The place: the development set
unchanged, BFCL 0.713/0.829 -> 0.717/0.833. The id and the quoted text: 0.714/0.900/0.957
-> 0.718/0.900/0.957, BFCL 0.717/0.833 -> 0.721/0.835 (quoted text for any parameter
holding query, keyword, text, name...: development top-1 0.718 but BFCL 0.716; without
name and query: 0.712/0.896). With all five kinds, x1.25 instead of x1.3: the development
set unchanged, BFCL 0.721/0.835 -> 0.724/0.836 (x1.2: BFCL 0.725 but top-3 0.898; x1.4:
top-1 0.717). Then a year ("songs from 2018") for a `year` parameter and how many at most
("limit it to 5 articles") for a limit, count or size: the development set unchanged,
BFCL 0.724/0.836 -> 0.727/0.837 (a rating, "rated 4.2 or higher", for rating or star
parameters: BFCL top-5 0.835, left out). A place only when the catalog does not know its
words (before, only when it was no product): the development set unchanged, BFCL
0.727/0.837 -> 0.730/0.839. A person ("send $125 to Alex", "with Rachel") for receiver,
recipient, contact or attendee parameters: BFCL 0.732/0.840 but the development top-1
0.717 ("reply to the last mail from Ana"), left out. A street address ("2508 University
Avenue") for the place parameters: the development set unchanged, BFCL top-1 0.733 ->
0.734. A format ("respond in json", "in video format") for a `format` parameter: the
development set unchanged, BFCL top-1 0.735 -> 0.736 (a unit, "in Fahrenheit", for
unit parameters: no change, left out).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from skillgate.discovery.literals import Needed, needed
from skillgate.discovery.synonyms import EMAIL_ADDRESS

if TYPE_CHECKING:
    from skillgate.catalog.models import Endpoint

VALUE_BOOST = 1.25
# A request that reads and names one item by a reference (analysis.Query.item:
# `in_1MtH...`, `ENG-12`, a link to a pull request) is for the call reading that item:
# one whose path ends with the item's parameter (`/v1/invoices/{invoice}`,
# `/Calls/{Sid}.json`) rather than the listing of its kind (`/v1/invoices`). Only for a
# request that reads (kinds.py): "refund ch_..." creates a refund of the charge.
ITEM_BOOST = 1.2
_ONE_ITEM = re.compile(r"\{[^}/]+\}(?:\.json)?$")
# The parameters that take a place (not an email's or an IP's address).
_PLACES = re.compile(
    r"(?i)(?<!email_)(?<!ip_)(?:city|location|place|area|address|destination|where)$"
)
# Each kind of value: how a request says it, and the names of parameters that take it.
KINDS = (
    (
        re.compile(
            r"\$\s?\d|\b\d+(?:\.\d+)?\s?(?:dollars?|euros?|usd|eur|bucks|gbp|pounds)\b",
            re.IGNORECASE,
        ),
        re.compile(r"(?i)amount|price|cost|total|sum"),
    ),
    (re.compile(EMAIL_ADDRESS), re.compile(r"(?i)e_?mail|recipient")),
    # An id said as one ("product ID SK123", "id is 1234"): a call taking an id.
    (
        re.compile(r"\b(?:id|ID|Id)\b\s*(?:is|:|=|#|of)?\s*['\"]?[\w\-]*\d"),
        re.compile(r"(?i)(?:^|_)id$|[a-z]Id$|^id"),
    ),
    # Quoted text ("add a card 'Kickoff with Brightline'"): a title, a name, a message.
    (
        re.compile(r"(?<!\w)['\"\u2018\u201c][^'\"\u2019\u201d]{2,}['\"\u2019\u201d](?!\w)"),
        re.compile(r"(?i)(?:^|_)(?:text|content|title|message|subject|body|summary|name)$"),
    ),
    # A year ("songs from 2018"): a call taking a year.
    (re.compile(r"\b(?:19|20)\d\d\b(?![-/.:]\d)"), re.compile(r"(?i)(?:^|_)year$|[a-z]Year$")),
    # How many at most ("limit it to 5 articles", "top 10"): a call taking a limit.
    (
        re.compile(
            r"(?i)\b(?:limit(?:\s+it)?(?:\s+to)?|max(?:imum)?(?:\s+of)?|top|at most|up to"
            r"|no more than)\s+\d+"
        ),
        re.compile(r"(?i)limit|max|count|num|size|top"),
    ),
    # A format ("respond in json", "in video format"): a call taking a format.
    (
        re.compile(
            r"(?i)\b(?:in|as)\s+(?:a\s+)?(?:json|csv|pdf|xml|html|markdown|plain text|text|video"
            r"|audio)(?:\s+format)?\b|\b(?:json|csv|pdf|xml|html|markdown|video|audio|text)"
            r"\s+format\b"
        ),
        re.compile(r"(?i)format$|^output"),
    ),
    # A place ("in San Jose"; `Values.factors` leaves out the names the catalog knows).
    (
        re.compile(r"\b(?:in|near|at|around)\s+(?!the\b)(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"),
        _PLACES,
    ),
    # A street address ("2508 University Avenue"): a place too.
    (
        re.compile(
            r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard"
            r"|Blvd|Drive|Dr|Lane|Ln|Way|Real|Place|Court|Ct)\b"
        ),
        _PLACES,
    ),
)


def _held(pattern: re.Pattern[str]) -> tuple[Needed | None, bool]:
    """The strings one of which every match of `pattern` holds (literals.needed; None: no
    cheap test), and whether they are to be looked for in a text's lower case."""
    return needed(pattern), bool(pattern.flags & re.IGNORECASE)


# Each kind's cheap test (`Values.factors`): a text holding none of its strings is passed
# over without the pattern's pass (a request of the development set holds the strings of
# two or three kinds of nine).
_HELD = [_held(says) for says, _ in KINDS]


# The kinds of a place ("in San Jose", "2508 University Avenue"): every match holds a
# capital (`[A-Z]`, case-sensitive) after a word or a number, so a text whose characters
# after the first hold no capital (most requests, written in lower case) has none.
# One flag per kind, in `KINDS`' order (a pattern's hash is computed at every look-up).
_CAPITALISED = tuple(takes is _PLACES for _, takes in KINDS)


def may_say(held: tuple[Needed | None, bool], text: str, lower: str | None) -> bool:
    """Whether a kind's pattern may match `text` (`held`: its `_HELD`; `lower`: the
    text's lower case when it is all ASCII, else None: a pattern that ignores case reads
    "\u017f" as "s", so a text not all ASCII always may)."""
    strings, free = held
    if strings is None:
        return True
    if free:
        if lower is None:
            return True
        text = lower
    for s in strings:  # noqa: SIM110 (a loop: `any` over a generator costs more)
        if s in text:
            return True
    return False


# The parameters that take a time (`start`, `timeMin`, `post_at`, `due`: search.TIME_BOOST).
TIMED = re.compile(r"(?i)time|date|start|end|due|_at$|^at$|when|schedule|duration|until")
# An endpoint's bits (`taken`): bit k a parameter of `KINDS`' k-th kind, then one of time
# (`TIMED`), then a path that ends with one item's parameter (`ITEM_BOOST`).
TIME_BIT = 1 << len(KINDS)
ITEM_BIT = TIME_BIT << 1


def taken(endpoints: Iterable[Endpoint]) -> np.ndarray:
    """Each endpoint's bits (`TIME_BIT`, `ITEM_BIT`): what its parameters take and whether
    it acts on one item; each distinct parameter name matched once (the catalog's 55,742
    parameters have 10,013 names). Kept in the index's snapshot (discovery/analysed.py)."""
    patterns = [*(takes for _, takes in KINDS), TIMED]
    seen: dict[str, int] = {}
    out = []
    for e in endpoints:
        bits = ITEM_BIT if _ONE_ITEM.search(e.path) is not None else 0
        for p in e.parameters:
            found = seen.get(p.name)
            if found is None:
                found = seen[p.name] = sum(
                    1 << k for k, pattern in enumerate(patterns) if pattern.search(p.name)
                )
            bits |= found
        out.append(bits)
    return np.array(out, dtype=np.int32)


class Values:
    def __init__(self, bits: np.ndarray) -> None:
        """Per kind of value, each endpoint's factor (`bits`: `taken`'s, in row order)."""
        self._factors = [np.where(bits & (1 << k), VALUE_BOOST, 1.0) for k in range(len(KINDS))]
        self.item = np.where(bits & ITEM_BIT, ITEM_BOOST, 1.0)

    def factors(self, text: str, known: Callable[[str], bool]) -> list[np.ndarray]:
        """The factors of the kinds of value `text` (a request) names; `known`: whether a
        name is the catalog's (a product, "in Mailchimp", or a word it knows, "in
        Review": then no place)."""
        found = []
        lower = text.lower() if text.isascii() else None
        plain = text[1:].islower()  # no capital after the first character: no place
        kinds = zip(KINDS, self._factors, _HELD, _CAPITALISED, strict=True)
        for (says, _), factors, held, capitalised in kinds:
            if (plain and capitalised) or not may_say(held, text, lower):
                continue  # the pattern cannot match: none of the strings it holds
            m = says.search(text)
            if m is not None and not ("place" in says.groupindex and known(m["place"])):
                found.append(factors)
        return found


# A request naming one item by a reference (analysis.Query.things: `cus_...` a customer,
# `ENG-12` an issue) is for a call on that thing: one whose path takes an item of it
# (`/v1/customers/{customer}/...`, `/issue/{issueIdOrKey}`), not another thing's
# (`/priority/{id}`) nor a listing of all (`/v1/events`).
THING_BOOST = 1.2
_RPC = 0.2


class Things:
    def __init__(
        self, endpoints: Sequence[tuple[str, Endpoint]], terms: Callable[[str], list[str]]
    ) -> None:
        """`endpoints`: (integration, endpoint) in row order; `terms`: the analyzer's."""
        rows: dict[str, list[int]] = {}
        words, rpc = _thing_words(endpoints)
        seen: dict[str, list[str]] = {}  # a segment's terms (most segments recur)
        for row, found in enumerate(words):
            said = [t for w in found for t in seen.get(w) or seen.setdefault(w, terms(w))]
            for t in dict.fromkeys(said):
                rows.setdefault(t, []).append(row)
        self._rows = {t: np.array(r, dtype=np.intp) for t, r in rows.items()}
        # An API whose paths take no item (GraphQL's, Slack's methods): any call may be
        # on the thing, so each is preferred alike (none before another product's).
        self._any = np.array(rpc, dtype=np.intp)
        self._size = len(endpoints)

    def factors(self, things: Iterable[str]) -> np.ndarray | None:
        """Each endpoint's factor for a request's `things`: `THING_BOOST` for those on
        one of them, else 1; None when none is known."""
        out: np.ndarray | None = None
        for t in things:
            rows = self._rows.get(t)
            if rows is not None:
                if out is None:
                    out = np.ones(self._size)
                    out[self._any] = THING_BOOST
                out[rows] = THING_BOOST
        return out


def _thing_words(endpoints: Sequence[tuple[str, Endpoint]]) -> tuple[list[list[str]], list[int]]:
    """Per endpoint, the words of the things it takes one of (its path's segments before a
    parameter), and the rows of the APIs whose paths take none (fewer than `_RPC` of its
    paths hold a parameter: GraphQL's, Slack's methods)."""
    paths: dict[str, list[int]] = {}
    for slug, e in endpoints:
        counts = paths.setdefault(slug, [0, 0])
        counts[0] += 1
        counts[1] += "{" in e.path
    rpc = {slug for slug, (n, with_one) in paths.items() if with_one < n * _RPC}
    words = [_one_of(e.path) for _, e in endpoints]
    return words, [row for row, (slug, _) in enumerate(endpoints) if slug in rpc]


def _one_of(path: str) -> list[str]:
    """The segments of `path` just before a parameter (`/v1/customers/{customer}/tax_ids`:
    customers)."""
    parts = path.split("/")
    return [a for a, b in pairwise(parts) if b.startswith("{") and a and "{" not in a]
