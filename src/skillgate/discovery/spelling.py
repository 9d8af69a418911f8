"""Spelling correction of a query's words against the catalog's own vocabulary
(docs/catalog.md, "Search").

Requests relayed from people carry typos ("clsoe the isue", "list my calenders"); a word
the index does not know finds nothing, so the ranking falls to the other words. Each
word of a query that the index does not know (its term is in no endpoint's document nor
in the synonym tables) is replaced by the closest word of the catalog's texts, by
Damerau-Levenshtein distance (a swap of two letters is one edit); of equally close ones
the likelier slip, then the most frequent or the word of more endpoint names
(`Speller._closest`): SymSpell (symspellpy, with editdistpy's compiled distance),
whose look-up costs microseconds whatever the vocabulary's size.

Left as written: English words (the frequency list symspellpy ships, words counted at
least `ENGLISH_COUNT` times in its corpus: "passport", "crash", "many" are words, not
typos of "password", "trash", "any"; "calenders" and "finalise", counted less, are
corrected), words of fewer than `SHORTEST` letters, words with a capital after the
request's first word (a name: "Ana", "Priya"; but one that is no catalog or English word
and a typo away from a product's brand is that brand: "Mailchmp", "Slak", `_brand`), words
joined to digits, `_`, `-`, `/`, `.` or `@` (ids, references, addresses), the words of the
names of products nothing here is (discovery/foreign.py: "uber" is no typo of "user"), and
words no catalog word is close to. An uncommon English word much rarer than a word of
endpoint names one edit away is corrected all the same ("calender"); a product's name
written as two words is joined ("git hub"), and two words written as one split
("pullrequests").
"""

from __future__ import annotations

import importlib.resources
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import cache

from editdistpy import damerau_osa
from symspellpy import SymSpell, Verbosity

from skillgate.discovery.foreign import WORDS as FOREIGN_WORDS

# The shortest word corrected, and the edits allowed by a word's length: one edit up to
# `ONE_EDIT_UP_TO` letters, two beyond (a 4-letter word two edits away from a catalog
# word is another word more often than a typo).
SHORTEST = 4
ONE_EDIT_UP_TO = 7
MAX_EDITS = 2
# A word of the tables (synonyms, actions, cues, stop words) counts as this many
# occurrences in the catalog: people's words win a tie with a rare word of a description.
TABLE_COUNT = 1_000
# An English word counted at least this many times in symspellpy's frequency list (a
# web corpus of about 10^11 words) is a word, not a typo: never corrected.
ENGLISH_COUNT = 1_000_000
_ENGLISH = "frequency_dictionary_en_82_765.txt"
_KEPT = 100_000  # words whose correction is kept (`_memo`, `_branded`)
# A word standing alone: letters only, nothing joined to it that makes it an id,
# a reference, an address or part of a hyphenated or dotted name.
_ALONE = re.compile(r"(?<![\w\-/.@#:])[A-Za-z]+(?![\w\-/.@])")


# An English word is still a typo when a word of the catalog's endpoint names one edit
# away is at least `TYPO_RATIO` times as common in English ("calender", 1.3 million, of
# "calendar", 101 million; "passport" is 9 million to "password"'s 132 million). Only
# words counted under `TYPO_COUNT` and of `TYPO_SHORTEST` letters or more are looked at
# (short words have many real neighbours: "typo" is no "type", "bred" no "red").
TYPO_RATIO = 50
TYPO_COUNT = 5_000_000
TYPO_SHORTEST = 6
# The shortest part of a word written as two ("git hub") or of two written as one.
SHORTEST_PART = 3


@cache
def english() -> dict[str, int]:
    """The English words of symspellpy's frequency list counted `ENGLISH_COUNT` or more,
    with their counts."""
    text = importlib.resources.files("symspellpy").joinpath(_ENGLISH).read_text("utf-8")
    words = {}
    for line in text.splitlines():
        word, _, count = line.partition(" ")
        if count and int(count) >= ENGLISH_COUNT:
            words[word] = int(count)
    return words


def _slip(term: str, word: str) -> int:
    """How unlikely a slip turns `term` into `word`: 0 two adjacent letters swapped,
    1 a letter left out or added, 2 anything else."""
    if len(term) != len(word):
        return 1 if abs(len(term) - len(word)) == 1 else 2
    diff = [i for i, (a, b) in enumerate(zip(term, word, strict=True)) if a != b]
    swapped = len(diff) == 2 and diff[1] == diff[0] + 1
    return 0 if swapped and term[diff[0]] == word[diff[1]] and term[diff[1]] == word[diff[0]] else 2


def name_words(names: Iterable[str]) -> dict[str, int]:
    """How many of the endpoints' `names` hold each word (kept in the index's snapshot:
    discovery/analysed.py)."""
    return dict(Counter(w for name in names for w in set(name.split("_")) if w.isalpha()))


class Speller:
    def __init__(
        self,
        catalog_words: Mapping[str, int],
        table_words: Iterable[str],
        known: Callable[[str], bool],
        named: Mapping[str, int] | None = None,
        products: Iterable[str] = (),
    ) -> None:
        """`catalog_words`: each word of the catalog's texts, how often it occurs;
        `table_words`: the words of the search's tables; `known(word)`: whether the index
        knows the word (a word it knows is never corrected); `named`: how many endpoint
        names hold each word (`name_words`: their words win a tie, "asign" is "assign",
        not "sign"); `products`: the
        integrations' names ("git hub" is "github", "Gogle Tasks" Google's)."""
        counts = Counter({w: n for w, n in catalog_words.items() if w.isalpha() and len(w) >= 2})
        for w in table_words:
            if w.isalpha():
                counts[w] += TABLE_COUNT
        self._symspell = SymSpell(max_dictionary_edit_distance=MAX_EDITS, prefix_length=7)
        for word, count in counts.items():
            self._symspell.create_dictionary_entry(word, count)
        # The names of products nothing here is are no typos of catalog words ("uber" is
        # not "user"; discovery/foreign.py).
        self._vocabulary = frozenset(counts) | english().keys() | FOREIGN_WORDS
        self._counts = counts
        self._named = Counter(named)
        # A product's one-word name written as two words: "git hub", "you tube".
        products = list(products)
        joined = {p.lower() for p in products if p.isalpha()}
        words = self._vocabulary
        self._split = {
            (p[:i], p[i:]): p
            for p in joined
            for i in range(SHORTEST_PART, len(p) - SHORTEST_PART + 1)
            if p[:i] in words and p[i:] in words  # written as two words, each a word
        }
        self._heads = frozenset(a for a, _ in self._split)
        # The products' brands, each name's first word ("google" of "Google Tasks", not
        # "tasks": "Teems" may be a person), for a capitalised word that is no catalog or
        # English word ("Mailchmp", "Gogle", "Slak": `_brand`), and what each such word
        # was found to be ("" for none).
        self._brands = sorted(
            {w for w in (p.lower().split()[0] for p in products if p.strip()) if w.isalpha()}
        )
        self._branded: dict[str, str] = {}
        self._known = known
        self._memo: dict[str, str] = {}
        self._kept: set[str] = set()  # the words of `_memo` left as written

    def word(self, word: str) -> str:
        """The catalog's word for `word` (lower case): itself when known or when nothing
        is close enough."""
        found = self._memo.get(word)
        if found is not None:
            return found
        found = word
        if len(word) >= SHORTEST and not self._known(word):
            if word not in self._vocabulary:
                found = self._closest(word)
            elif len(word) >= TYPO_SHORTEST and english().get(word, TYPO_COUNT) < TYPO_COUNT:
                found = self._rarer(word)
        if len(self._memo) < _KEPT:
            self._memo[word] = found
            if found == word:
                self._kept.add(word)
        return found

    def _closest(self, word: str) -> str:
        """The closest catalog word, else `word` split in two catalog words, else `word`.
        Of equally close words the most frequent, unless it is a word of endpoint names
        and another is a word of more of them ("asign": "assign" of 27 names, not "sign"
        of 9; "gcal" stays "cal", no name's word, not "goal")."""
        edits = 1 if len(word) <= ONE_EDIT_UP_TO else MAX_EDITS
        near = self._symspell.lookup(word, Verbosity.CLOSEST, max_edit_distance=edits)
        if near:
            terms: list[str] = [s.term for s in near]
            # The likelier slip first: two letters swapped, then one left out or
            # doubled, then one mistyped ("contarct": "contract", not "contact").
            likeliest = min(map(_slip, terms, itertools.repeat(word)))
            terms = [t for t in terms if _slip(t, word) == likeliest]
            if not self._named[terms[0]]:
                return terms[0]
            return max(terms, key=self._named.__getitem__)
        return self._parts(word) or word

    def _brand(self, written: str) -> str:
        """A capitalised word after the first (a name: left as written), unless it is no
        word of the catalog or of English and a product's name is as close as a typo
        ("Mailchmp": mailchimp; "Priya", "Dana" stay)."""
        lower = written.lower()
        if len(lower) < SHORTEST or lower in self._vocabulary:
            return written
        found = self._branded.get(lower)
        if found is None:
            edits = 1 if len(lower) <= ONE_EDIT_UP_TO else MAX_EDITS
            near = [b for b in self._brands if damerau_osa.distance(lower, b, edits) >= 0]
            found = min(near, key=lambda b: _slip(lower, b)) if near else ""
            if len(self._branded) < _KEPT:
                self._branded[lower] = found
        return found or written

    def _parts(self, word: str) -> str | None:
        """`word` as two words the index knows ("pullrequests": "pull requests")."""
        counts = self._counts
        best = None
        for i in range(SHORTEST_PART, len(word) - SHORTEST_PART + 1):
            a, b = word[:i], word[i:]
            if a in counts and b in counts and self._known(a) and self._known(b):
                n = min(counts[a], counts[b])
                if best is None or n > best[0]:
                    best = (n, f"{a} {b}")
        return best[1] if best else None

    def _rarer(self, word: str) -> str:
        """An uncommon English word's correction: the word of an endpoint's name one edit
        away that is `TYPO_RATIO` times as common in English, else `word`."""
        count: int = english()[word]
        for s in self._symspell.lookup(word, Verbosity.CLOSEST, max_edit_distance=1):
            term: str = s.term
            if term in self._named and english().get(term, 0) >= count * TYPO_RATIO:
                return term
        return word

    def _joined(self, text: str) -> str:
        """`text` with a product's name written as two words joined ("git hub")."""
        words = list(_ALONE.finditer(text))
        out: list[str] = []
        last = 0
        for m, n in itertools.pairwise(words):
            if m.start() < last or n.start() != m.end() + 1 or text[m.end()] != " ":
                continue
            found = self._split.get((m.group(0).lower(), n.group(0).lower()))
            if found:
                out += [text[last : m.start()], found]
                last = n.end()
        return "".join(out) + text[last:] if out else text

    def correct(self, text: str) -> str:
        """`text` with each unknown word replaced by the catalog's closest word, written
        in its compatibility forms' plain letters first (`plain`)."""
        text = plain(text)
        alone = _ALONE.findall(text)
        lowered = list(map(str.lower, alone))
        if not self._heads.isdisjoint(lowered):  # perhaps a product's name in two words
            text = self._joined(text)
            alone = _ALONE.findall(text)
            lowered = list(map(str.lower, alone))
        if self._kept.issuperset(lowered):
            return text  # every word known to be left as written (no word looked up)
        # The words `fix` looks up (the first, and the others in lower case; the names
        # as products' names): when none changes, neither does the text (no second pass).
        looked = (w.lower() for i, w in enumerate(alone) if not i or w.islower())
        names = (w for i, w in enumerate(alone) if i and not w.islower())
        if all(self.word(w) == w for w in looked) and all(self._brand(w) == w for w in names):
            return text
        first = True

        def fix(m: re.Match[str]) -> str:
            nonlocal first
            written = m.group(0)
            named = not first and not written.islower()  # a name, "Ana", or "ENG"
            first = False
            if named:
                return self._brand(written)
            lower = written.lower()
            found = self.word(lower)
            return written if found == lower else found

        return _ALONE.sub(fix, text)


def plain(text: str) -> str:
    """`text` in Unicode's compatibility normal form (NFKC): full-width letters (an East
    Asian keyboard's, U+FF41 for "a"), ligatures a PDF's copy gives (U+FB01 for "fi"), a
    non-breaking space, as the plain characters the catalog's words are written in;
    otherwise no word of them is known. An ASCII text is its own form."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)
