"""The texts of an endpoint's search document, and the words of the search's tables
(discovery/search.py builds the index from them)."""

from __future__ import annotations

import re

from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery.analysis import _CAMEL, _WORD, LEAD_INS, STOPWORDS
from skillgate.discovery.cues import CUES
from skillgate.discovery.synonyms import ACTIONS, MEANS, SYNONYMS

__all__ = ["fields", "named_by_path", "summary", "table_words"]


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


def table_words() -> list[str]:
    """The words of the search's tables and the words a request is made of (stop words,
    lead-ins): what a person writes, corrected to as readily as the catalog's words."""
    phrases = [p for group in SYNONYMS for p in group]
    phrases += [said for said, _ in (*MEANS, *ACTIONS)]
    phrases += [p for cues in CUES.values() for p in cues]
    return [*_WORD.findall(" ".join(phrases)), *STOPWORDS, *LEAD_INS]


def summary(description: str) -> str:
    """The description's first sentence."""
    return _SENTENCE.split(description, maxsplit=1)[0]
