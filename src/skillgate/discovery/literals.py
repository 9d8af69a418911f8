"""The plain text a regular expression's every match holds, read off the expression
itself: the cheap test before a pattern (`"notion." in text` before a link's pattern),
derived, so that a table's entry and its test cannot drift apart (a hand-kept list of
an idiom's first words missed "got a headsup").

Only what the expression surely requires counts: a run of literal characters at its
top level or in a group that is not optional, or, for alternatives, one string of each
("dig|hunt|track": one of the three), or a class of single characters (`['"]`: one of
them). Anything else (a class with a range or a category, a negated class, an optional
part, a look-around, a scoped flag) requires nothing.

Beside them, the hand-given tests the tables use where no pattern is there to read
(`hint`, `hint_pattern`), `CaseFree`, a case-insensitive pattern run as its cheaper
case-sensitive twin over an ASCII text's lower case, and `Runs` and `InRow`, the words of
one class of characters and characters of given classes in a row, found in an ASCII
text without the regex engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import groupby
from re import _constants as sre  # type: ignore[attr-defined]  # the parser's op codes
from re import _parser  # type: ignore[attr-defined]  # the standard library's own parser
from typing import Any, TypeVar

T = TypeVar("T")

# A set of strings one of which every match holds.
Needed = frozenset[str]
_ALTERNATIONS = 1_000  # the alternations of some alternatives an `Alternation` keeps


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


def _repeated(items: Iterable[tuple[Any, Any]]) -> tuple[int, str]:
    """The longest run of one class of characters (a class of literals and ranges repeated
    at least twice) the parsed sequence `items` requires: its length, the class as written
    between brackets; (0, "") for none."""
    found = [(0, "")]
    for op, av in items:
        if op is sre.MAX_REPEAT and av[0] >= 2 and len(av[2]) == 1 and av[2][0][0] is sre.IN:
            ranges = [(c, c) if o is sre.LITERAL else c for o, c in av[2][0][1]
                      if o is sre.LITERAL or o is sre.RANGE]  # fmt: skip
            if len(ranges) == len(av[2][0][1]):  # no negation, no category
                found.append((av[0], "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                             for a, b in ranges)))  # fmt: skip
    return max(found, key=lambda f: f[0])


class Guarded:
    """A pattern run only where the text holds the run of one class of characters its
    every match holds (`[0-9a-f]{40}`: forty hex digits in a row), looked up as `InRow`
    looks: for a shape that holds no literal string to look up instead."""

    def __init__(self, pattern: re.Pattern[str], times: int, chars: str) -> None:
        self.pattern = pattern
        self._row = InRow(*[chars] * times)

    def subn(self, replacement: Callable[[re.Match[str]], str], text: str) -> tuple[str, int]:
        if not self._row(text):
            return text, 0
        return self.pattern.subn(replacement, text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(text) if self._row(text) else None


class Needing:
    """A pattern run only where the text holds one of the strings its every match holds
    one of (`needed`: "youtube.com/watch" or "youtu.be/"): for a shape whose one string
    (`mark`) is no rarer than the table's character, which most requests hold (".")."""

    def __init__(self, pattern: re.Pattern[str], strings: Needed) -> None:
        self.pattern = pattern
        self._strings = tuple(strings)

    def _held(self, text: str) -> bool:
        # A loop, not `any` over a generator: the generator's frame costs more than the
        # look-ups on a request's path (the point of this class).
        for string in self._strings:  # noqa: SIM110
            if string in text:
                return True
        return False

    def subn(self, replacement: Callable[[re.Match[str]], str], text: str) -> tuple[str, int]:
        return self.pattern.subn(replacement, text) if self._held(text) else (text, 0)

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(text) if self._held(text) else None


class Alternation:
    """The alternation of named case-sensitive patterns (`(?P<name>source)|...`), run as
    the alternation of only those the text may match (it holds one of the strings each
    match holds, `needed`): the same matches, as an alternative that matches nowhere in
    the text never wins at a place; the whole is tried at every place of the text (a
    link's optional "https://" first). A text without `char` (a link's "/") is looked up
    only for the strings without it."""

    def __init__(self, alternatives: Iterable[tuple[str, str]], char: str) -> None:
        self._alternatives = [f"(?P<{name}>{source})" for name, source in alternatives]
        self.pattern = re.compile("|".join(self._alternatives))
        needs = [needed(re.compile(a)) for a in self._alternatives]
        self._needs = [tuple(strings) if strings is not None else None for strings in needs]
        strings = [s for n in self._needs for s in n or ()]
        self._plain = tuple(s for s in strings if char not in s)
        self._marked = tuple(s for s in strings if char in s)
        self._char, self._free = char, None in self._needs
        self._kept: dict[tuple[int, ...], re.Pattern[str]] = {}

    def may_match(self, text: str) -> bool:
        """False when no alternative matches in `text`."""
        if self._free or any(s in text for s in self._plain):
            return True
        return self._char in text and any(s in text for s in self._marked)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """`self.pattern.finditer(text)` (matches of the alternatives `text` may hold)."""
        if not self.may_match(text):
            return iter(())
        held = tuple(
            i
            for i, strings in enumerate(self._needs)
            if strings is None or any(s in text for s in strings)
        )
        pattern = self._kept.get(held)
        if pattern is None:
            pattern = re.compile("|".join(self._alternatives[i] for i in held))
            if len(self._kept) < _ALTERNATIONS:
                self._kept[held] = pattern
        return pattern.finditer(text)


def _selective(strings: Needed, default: str) -> bool:
    """Whether looking up `strings` is a test worth its cost beside `default` (a
    character of the table): a few strings, each longer than it (not Stripe's prefixes)."""
    return bool(default and strings and len(strings) <= 4 and min(map(len, strings)) > len(default))


def guarded(pattern: re.Pattern[str], default: str) -> re.Pattern[str] | Guarded | Needing:
    """`pattern` (a case-sensitive table's shape), `Guarded` where it holds no string to
    look up (`mark(pattern, default)` is empty) but a run of one class of characters,
    `Needing` where its mark is only `default` but it holds one of several longer strings
    (a pattern that starts with optional parts is tried at every place of the text)."""
    if pattern.flags & re.IGNORECASE:
        return pattern
    marked = mark(pattern, default)
    strings = needed(pattern)
    if strings is not None and marked == default and _selective(strings, default):
        return Needing(pattern, strings)
    times, chars = _repeated(_parser.parse(pattern.pattern, pattern.flags))
    if marked or times == 0:
        return pattern
    return Guarded(pattern, times, chars)


def runs(items: Iterable[tuple[str, T]]) -> list[tuple[str, list[T]]]:
    """`items` (a character every match of the item's pattern holds, the item) in order,
    in runs of the same character: a text without it passes over the run at once (a
    table's shapes come in such runs: 31 links hold "." and 11 of Stripe's ids "_")."""
    return [(char, [item for _, item in run]) for char, run in groupby(items, lambda i: i[0])]


def hint(*words: str) -> Callable[[str], bool]:
    """A cheap test before a case-insensitive pattern each of whose matches holds one of
    `words` (lower case): False when the pattern cannot match the text, that is when the
    text is all ASCII and its lower case holds none of them (a text not all ASCII always
    passes: the pattern reads letters as Unicode does, "\u017f" as "s", "\u0131" as "i").
    A look-up of each word in C: cheaper than one pass of their alternation, which the
    regex engine tries at every place."""

    def may_match(text: str) -> bool:
        if not text.isascii():
            return True
        lower = text.lower()
        for word in words:  # noqa: SIM110 (a loop: `any` over a generator costs more)
            if word in lower:
                return True
        return False

    return may_match


def hint_pattern(source: str) -> Callable[[str], bool]:
    """`hint` for a case-insensitive pattern each of whose matches holds a match of
    `source` (lower case, case-sensitive: the cheaper pass)."""
    pattern = re.compile(source)

    def may_match(text: str) -> bool:
        return not text.isascii() or pattern.search(text.lower()) is not None

    return may_match


class CaseFree:
    """A case-insensitive pattern (`source`, its letters in lower case) run as its
    case-sensitive twin over a text's lower case when the text is all ASCII: the same
    matches at the same places, for a third of the cost or less. Matches come back as
    spans of the text (a match's groups would be the lower case's)."""

    def __init__(self, source: str) -> None:
        self.pattern = re.compile(source, re.IGNORECASE)
        self._lower = re.compile(source)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Each match's span, first to last (as `finditer`)."""
        if text.isascii():
            return [m.span() for m in self._lower.finditer(text.lower())]
        return [m.span() for m in self.pattern.finditer(text)]

    def search(self, text: str) -> tuple[int, int] | None:
        """The first match's span, or None."""
        found = self._lower.search(text.lower()) if text.isascii() else self.pattern.search(text)
        return None if found is None else found.span()

    def sub(self, replacement: str, text: str) -> str:
        """`text` with each match replaced by `replacement` (plain text; the pattern
        never matches an empty text)."""
        if not text.isascii():
            return self.pattern.sub(replacement, text)
        return cut(text, self.spans(text), replacement)


def _members(chars: str) -> frozenset[int]:
    """The bytes (0-255) of the class `chars`, as written between a pattern's brackets."""
    one = re.compile(f"[{chars}]")
    return frozenset(c for c in range(256) if one.fullmatch(chr(c)))


class Runs:
    """The runs of one class of characters (`[a-z0-9]+`, `\\w+`) a text holds, as the
    pattern's `findall` finds them: for a text all ASCII, its bytes with every character
    outside the class made a space, split (a third of the cost or less: the regex engine
    pays for every character and every match). A text not all ASCII goes through the
    pattern."""

    def __init__(self, chars: str) -> None:
        """`chars`: the class, as written between a pattern's brackets (`a-z0-9`)."""
        self.pattern = re.compile(f"[{chars}]+")
        kept = _members(chars)
        self._spaced = bytes(c if c in kept else ord(" ") for c in range(256))

    def findall(self, text: str) -> list[str]:
        if text.isascii():
            return text.encode().translate(self._spaced).decode().split()
        return self.pattern.findall(text)


class InRow:
    """Whether a text holds characters of these classes in a row (`[a-z0-9][A-Z]`:
    camelCase; `[0-9a-f]{10}`): for a text all ASCII, one look-up in its bytes with each
    class's characters made one letter and the others a space, cheaper by far than a pass
    of the pattern; a text not all ASCII always may."""

    def __init__(self, *classes: str) -> None:
        """`classes`: each as written between a pattern's brackets; two different ones
        share no character."""
        letters = {c: bytes([ord("a") + i]) for i, c in enumerate(dict.fromkeys(classes))}
        marks = [b" "] * 256
        for chars, letter in letters.items():
            for c in _members(chars):
                assert marks[c] == b" ", "classes share a character"
                marks[c] = letter
        self._marked = b"".join(marks)
        self._row = b"".join(letters[c] for c in classes)

    def __call__(self, text: str) -> bool:
        # `find`, not `in`: `bytes in bytes` first reads its operand as an int (a
        # TypeError raised and cleared in C at every call).
        return not text.isascii() or text.encode().translate(self._marked).find(self._row) >= 0


# The punctuation a reference's match may run into that ends its sentence or clause
# ("mail finance@acme.io. Then ...", "see https://x.io/a, then ..."): not the reference's.
_ENDING = re.compile(r"[.,;:!?]+$")


def blank(match: re.Match[str]) -> str:
    """A reference's `match` replaced by a space, the punctuation it ran into kept."""
    end = _ENDING.search(match.group(0))
    return " " if end is None else f" {end.group(0)}"


def cut(text: str, spans: list[tuple[int, int]], replacement: str) -> str:
    """`text` with each of `spans` (in order, not overlapping) replaced by `replacement`."""
    if not spans:
        return text
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces += (text[last:start], replacement)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


# A pattern that ignores case reads these as the ASCII letters (and no other character
# as an ASCII letter): a text's lower case with them made those letters holds every
# literal of the pattern's match (`needed`).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def folded(text: str) -> str:
    """`text` in lower case, its letters as a pattern that ignores case reads them."""
    return text.lower() if text.isascii() else text.translate(_FOLD).lower()


# A character of single-quoted text, in a pattern: any but the quote, or an apostrophe
# between two letters ("'Plan Leo's party'" is one title, not "'Plan Leo'" and "s party").
IN_QUOTES = r"(?:[^']|(?<=\w)'(?=\w))"
