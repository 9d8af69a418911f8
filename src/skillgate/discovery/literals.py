"""The plain text a regular expression's every match holds, read off the expression
itself: the cheap test before a pattern (`"notion." in text` before a link's pattern),
derived, so that a table's entry and its test cannot drift apart (a hand-kept list of
an idiom's first words missed "got a headsup").

Only what the expression surely requires counts: a run of literal characters at its
top level or in a group that is not optional, or, for alternatives, one string of each
("dig|hunt|track": one of the three), or a class of single characters (`['"]`: one of
them). Anything else (a class with a range or a category, a negated class, an optional
part, a look-around, a scoped flag) requires nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import groupby
from re import _constants as sre  # type: ignore[attr-defined]  # the parser's op codes
from re import _parser  # type: ignore[attr-defined]  # the standard library's own parser
from typing import Any, TypeVar

T = TypeVar("T")

# A set of strings one of which every match holds.
Needed = frozenset[str]


def _sequence(items: Iterable[tuple[Any, Any]]) -> list[Needed]:
    """Each set of strings that every match of the parsed sequence `items` holds one of."""
    out: list[Needed] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            run.append(chr(av))
            continue
        if run:  # a run of literals ends: it is required whole
            out.append(frozenset(["".join(run)]))
            run = []
        if op is sre.SUBPATTERN and not av[1] and not av[2]:  # a group, no scoped flags
            out += _sequence(av[3])
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1:  # at least once
            out += _sequence(av[2])
        elif op is sre.IN and all(o is sre.LITERAL for o, _ in av):  # `['"]`: one of them
            out.append(frozenset(chr(c) for _, c in av))
        elif op is sre.BRANCH:
            each = [_best(_sequence(branch)) for branch in av[1]]
            if all(each):
                out.append(frozenset().union(*each))  # type: ignore[arg-type]
    if run:
        out.append(frozenset(["".join(run)]))
    return out


def _best(candidates: list[Needed]) -> Needed | None:
    """The most selective of `candidates`: the longest shortest string, then the fewest."""
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)), default=None)


def _parsed(pattern: re.Pattern[str]) -> tuple[list[Needed], bool]:
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    return _sequence(parsed), bool(parsed.state.flags & re.IGNORECASE)


def needed(pattern: re.Pattern[str]) -> Needed | None:
    """Strings one of which every match of `pattern` holds (in lower case when the pattern
    ignores case, for a text's lower case; only for a text all ASCII, as a pattern that
    ignores case reads "\u017f" as "s"), or None when it requires none."""
    candidates, free = _parsed(pattern)
    if free:
        if not all(s.isascii() for c in candidates for s in c):
            return None
        candidates = [frozenset(s.lower() for s in c) for c in candidates]
    return _best(candidates)


def may_match(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """The cheap test before `pattern`: False when the text holds none of the strings
    every match holds (`needed`), so the pattern cannot match; always True when it
    requires none, and for a text not all ASCII when it ignores case."""
    strings = needed(pattern)
    if strings is None:
        return lambda text: True
    if not pattern.flags & re.IGNORECASE:
        return lambda text: any(s in text for s in strings)

    def free(text: str) -> bool:
        if not text.isascii():
            return True
        lower = text.lower()
        return any(s in lower for s in strings)

    return free


@cache  # the tables' patterns: an index's parts ask again at every build
def mark(pattern: re.Pattern[str], default: str) -> str:
    """The longest string every match of `pattern` (a case-sensitive pattern) holds that
    holds `default` (a character every match holds, a table's own test; "" for none),
    else `default`: a test as sure as the table's, and rarer ("notion.s" for ".")."""
    candidates, free = _parsed(pattern)
    single = [s for c in candidates if len(c) == 1 for s in c if default in s]
    if free or not single:
        return default
    return max(single, key=len)


def runs(items: Iterable[tuple[str, T]]) -> list[tuple[str, list[T]]]:
    """`items` (a character every match of the item's pattern holds, the item) in order,
    in runs of the same character: a text without it passes over the run at once (a
    table's shapes come in such runs: 31 links hold "." and 11 of Stripe's ids "_")."""
    return [(char, [item for _, item in run]) for char, run in groupby(items, lambda i: i[0])]
