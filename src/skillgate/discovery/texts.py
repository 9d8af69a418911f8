"""The texts of an endpoint's search document, and the words of the search's tables
(discovery/search.py builds the index from them)."""

from __future__ import annotations

import re
from collections.abc import Container

from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery.analysis import _CAMEL, _WORD
from skillgate.discovery.cues import CUES
from skillgate.discovery.products import NICKNAMES
from skillgate.discovery.stopwords import FILLER, LEAD_INS, STOPWORDS
from skillgate.discovery.synonyms import ACTIONS, MEANS, SHAPES, SYNONYMS
from skillgate.discovery.times import DAYS, MONTHS

__all__ = ["fields", "named_by_path", "one_line", "others", "said", "summary", "table_words"]


def fields(integration: Integration, e: Endpoint) -> dict[str, str]:
    """The text of each field of an endpoint's document. Pagination parameters (`page`,
    `per_page`, `pageToken`) say nothing about what an endpoint does: left out."""
    paging = {e.pagination.param, e.pagination.size_param} if e.pagination else set()
    return {
        "name": e.name,
        "category": e.category,
        "integration": f"{integration.slug} {integration.name}",
        "description": e.description,
        "parameters": " ".join(p.name for p in e.parameters if p.name not in paging),
    }


# A phrasing's values are no evidence of which call a request is for: the writer made
# them up or took them from the product's documentation, and a request carrying the same
# example value matched them ("4uLU6hMCjMI75M1A2tKUQC", Spotify's; Stripe's
# "cus_NffrFeUfNV2Hib"). Left out of them (`said`): the shapes a request's references
# are read in and their words dropped (discovery/synonyms.SHAPES: a repository "acme/api",
# an environment variable's name "API_URL"), and ids: a run of six letters and digits or
# more that holds two digits, or a digit and letters of both cases.
_VALUES = re.compile(
    "|".join(
        [p for _, p, meant in SHAPES if meant in ("repository", "environment variable")]
        + [
            r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]{6,}(?![A-Za-z0-9]))(?=[A-Za-z]*\d)"
            r"(?:(?=[A-Za-z0-9]*\d[A-Za-z]*\d)|(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z]))"
            r"[A-Za-z0-9]+"
        ]
    )
)


def said(e: Endpoint) -> str:
    """The endpoint's phrasings (`Endpoint.says`) as one text, without their values: what
    the index's phrasings field (discovery/own.py) and the semantic look read of them."""
    return _VALUES.sub(" ", " ".join(e.says))


_PATH_WORD = re.compile(r"[a-z0-9]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s")


def named_by_path(e: Endpoint) -> bool:
    """Whether the endpoint's name is only the words of its method and path (what an
    importer derives from an operation id like `PostAccountsAccountLoginLinks`, or from
    no id at all); a short hash suffix that kept a long name unique does not count."""
    if e.curated:
        return False
    spoken = set(_PATH_WORD.findall(_CAMEL.sub(r"\1 \2", f"{e.method} {e.path}").lower()))
    spoken.add("v3")
    words = e.name.split("_")
    if len(words[-1]) == 6 and len(e.name) >= 60:
        words = words[:-1]  # `..._18acd1`: the importer's hash of an over-long name
    return all(w in spoken for w in words)


# A description's clauses (`others`): the text between sentence ends, parentheses, commas
# and dashes; a call's name in one (two or more words joined by underscores); and the words
# after which a name is what the clause points the reader to ("add contacts *with*
# add_contacts", "*use* search_customers", "*then* send_invoice"), or a clause starting
# with it ("archive_card keeps it restorable"). Not a name after "from", "by", "as in"
# ("the root folder's id from get_drive_root": where this call's input comes from).
_CLAUSE = re.compile(r"(?<=[.;:!?])\s+|\s*[()]\s*|,\s+|\s+[\u2014\u2013-]\s+")
_CALL = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_POINTING = frozenset(
    ["with", "use", "using", "call", "through", "then", "see", "check", "poll", "prefer",
     "and", "or"]
)  # fmt: skip


def others(description: str, names: Container[str], own: str) -> tuple[str, str]:
    """`description` without its clauses pointing to another call of the integration
    (`names`, not `own`), and those clauses: "then write cells with update_values or
    append_values" (create_spreadsheet), "to cancel at the period's end use
    update_subscription" (cancel_subscription) say what the other call does, and no
    request for that is one for this call."""
    if "_" not in description:
        return description, ""
    kept: list[str] = []
    aside: list[str] = []
    for clause in _CLAUSE.split(description):
        (aside if _points(clause, names, own) else kept).append(clause)
    return (description, "") if not aside else (" ".join(kept), " ".join(aside))


def _points(clause: str, names: Container[str], own: str) -> bool:
    """Whether `clause` points to a call of `names` other than `own`."""
    for found in _CALL.finditer(clause):
        if found[0] != own and found[0] in names:
            before = clause[: found.start()].split()
            if not before or before[-1].lower() in _POINTING:
                return True
    return False


def table_words() -> list[str]:
    """The words of the search's tables and the words a request is made of (stop words,
    lead-ins): what a person writes, corrected to as readily as the catalog's words."""
    phrases = [p for group in SYNONYMS for p in group]
    phrases += [said for said, _ in (*MEANS, *ACTIONS)]
    phrases += [p for cues in CUES.values() for p in cues]
    phrases += [p for names in NICKNAMES.values() for p in names]
    return [*_WORD.findall(" ".join(phrases)), *STOPWORDS, *LEAD_INS, *FILLER, *_CALENDAR]


# The days and months (a request's times, phrasing.py): "wendesday" is a typo of one.
_CALENDAR = (*DAYS, *MONTHS)


def summary(description: str) -> str:
    """The description's first sentence."""
    return _SENTENCE.split(description, maxsplit=1)[0]


# A search result's description: at most this many characters (docs/api.md, search).
ONE_LINE = 100
# A first sentence shorter than this says little ("List stargazers."): the next follows.
_TERSE = 40


def one_line(description: str) -> str:
    """What a search result says of its endpoint: the description's first sentence (and
    the next while the first is terse), cut at a word to at most `ONE_LINE` characters
    with an ellipsis; the whole is in the endpoint's documentation."""
    sentences = _SENTENCE.split(" ".join(description.split()))
    line = sentences[0]
    for more in sentences[1:]:
        if len(line) >= _TERSE or len(line) + 1 + len(more) > ONE_LINE:
            break
        line = f"{line} {more}"
    if len(line) <= ONE_LINE:
        return line
    cut = line[: ONE_LINE - 1].rsplit(" ", 1)[0].rstrip(" ,;:(")
    return cut + "…"
