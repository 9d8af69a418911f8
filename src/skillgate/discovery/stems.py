"""A word's stem as the analysis takes it (discovery/analysis.py): Snowball English's,
but where it gets the APIs' words wrong, and whether a word looks plural.
"""

from __future__ import annotations

from typing import Any

# Stems Snowball gets wrong for the APIs: Stripe's `issuing` (cards) is no `issue`, a
# `contributor` is one who `contributed`, a `shared` drive or link is a kind of thing,
# not the act of sharing (which `MEANS` turns into permissions), and `production` is where
# a deployment runs, no `product`.
_FIXED = {
    "issuing": "issuing",
    "shared": "shared",
    "contributor": "contribut",
    "contributors": "contribut",
    "production": "production",
}


# Nouns made from verbs whose stem Snowball leaves apart from the verb's ("who subscribed"
# asks for subscriptions; "notify" and "notifications", "describe" and "description").
_DERIVED = ("ription", "riptions", "ification", "ifications", "creation", "creations")


def _verb(noun: str) -> str:
    """The verb a noun of `_DERIVED` is made from: subscription -> subscribe."""
    noun = noun.removesuffix("s")
    if noun.endswith("ription"):
        return noun.removesuffix("ption") + "be"
    if noun.endswith("ification"):
        return noun.removesuffix("ication") + "y"
    return noun.removesuffix("ion") + "e"  # creation -> create


def plural(word: str, stem: str) -> bool:
    """Whether an English word looks plural: `calendars`, not `status` or `access`."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and stem != word


def stem(stemmer: Any, word: str) -> str:
    """`word`'s stem by `stemmer` (Snowball English), but for the words it gets wrong."""
    if word in _FIXED:
        return _FIXED[word]
    if word.endswith(_DERIVED):  # the noun as its verb: subscription, subscribe
        return str(stemmer.stemWord(_verb(word)))
    s = str(stemmer.stemWord(word))
    if len(word) >= 7 and word.endswith(("ee", "ees")) and s.endswith("e"):
        return s[:-1]  # Snowball: assignee -> assigne; as assign, attendee as attend
    return s
