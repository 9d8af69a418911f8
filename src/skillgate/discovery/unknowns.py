"""Where a request's words the catalog does not know stand (discovery/confidence.py, the
`match`): in its object place, before any preposition or clause ("book a *hotel* in
rome"), or where the caller's own place is named ("post the picture to my
*instagram*"). Names, ids, quoted text, times, counts and pronouns never count; nor does
a word just before a place or thing the catalog holds, which names it ("to my *expenses*
sheet", "the *redesign* card"), nor what is added to such a place ("add *milk* and *eggs*
to my grocery list").
"""

from __future__ import annotations

import re
from collections.abc import Collection

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.literals import IN_QUOTES, hint_pattern
from skillgate.discovery.verbs import CHANGING, CHAT_VERBS, DOING, MORE_VERBS, READING

# What ends a request's object place: prepositions, clause words, content markers.
_BOUNDARY = re.compile(
    r"\b(?:for|to|in|on|at|about|with|from|into|onto|by|where|that|which|who|when|so"
    r"|because|since|until|before|after|if|as|saying|called|named|titled|regarding)\b",
    re.IGNORECASE,
)
# The same, case-sensitive, for a text all ASCII in lower case (its positions are the
# text's; a case-insensitive pass costs several times more).
_BOUNDARY_LOWER = re.compile(_BOUNDARY.pattern)
# Words that say when, not what: never the request's object.
_WHEN = frozenset(
    [
        "now", "today", "tonight", "tomorrow", "yesterday", "morning", "afternoon",
        "evening", "night", "nightly", "daily", "weekly", "monthly", "yearly", "soon",
        "later", "earlier", "asap", "sometime", "anytime",
    ]
)  # fmt: skip
# Words that say how many: an argument of the call, never what it is.
COUNTS = frozenset(
    ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "dozen", "many",
     "much", "few", "several", "once", "twice"]
)  # fmt: skip
# Words that stand for a person already named: never what the catalog must know.
_PRONOUNS = frozenset(
    ["him", "her", "them", "us", "everyone", "everybody", "someone", "somebody", "anyone",
     "anybody", "nobody", "myself", "himself", "herself", "themselves", "ourselves"]
)  # fmt: skip
# People named by who they are to the caller ("remove *the contractor* from acme/web", "text
# *my mom*"): after a determiner of one already known (`_KNOWN_ONE`, below), a person, whom the
# catalog's calls on users, members and contacts act on; after "a" ("hire *a* plumber",
# "find *a* dentist") a service nothing here is, and still unknown.
_PEOPLE = frozenset(
    ["contractor", "contractors", "intern", "interns", "freelancer", "freelancers", "volunteer",
     "volunteers", "trainee", "trainees", "consultant", "wife", "husband", "mom", "mum",
     "mother", "dad", "father", "sister", "brother", "son", "daughter", "kid", "kids", "child",
     "children", "parents", "landlord", "landlady", "tenant", "tenants", "plumber",
     "electrician", "lawyer", "accountant", "recruiter", "nanny", "babysitter", "tutor",
     "doctor", "dentist", "therapist", "roommate", "flatmate", "cousin", "uncle", "aunt",
     "grandma", "grandpa", "grandmother", "grandfather", "neighbor", "neighbour", "boyfriend",
     "girlfriend", "fiance", "fiancee", "coworker", "coworkers", "colleague", "colleagues",
     "teammate", "teammates", "boss", "supplier", "cleaner", "caterer", "hire", "hires"]
)  # fmt: skip
# Who did what the next word says ("the contractor we *brought* in", "the csv I *dumped* in
# #data"): that word is a verb, never an object ("you" is not one: "can you *vacuum* ..."
# asks for what nothing here does).
_SUBJECTS = frozenset(["i", "we", "they", "he", "she"])
# Words that say what kind of a thing, never which thing ("make me a *fresh* copy", "a
# *spare* key"): never the request's object. (Only words the catalog does not know count
# at all; those it knows, "blank", "extra", "new", are no unknown object anyway.)
_QUALITIES = frozenset(["fresh", "spare", "little", "tiny", "huge", "nice"])
# The places the catalog's calls hold, as people name them, and the things in them: a word
# just before one names which ("my *expenses* sheet", "the *redesign* card": one of them;
# "my *zanzibarina* calendars" are a kind nothing here knows), never an object or a place
# nothing here is ("my *zanzibarina* card" is a bank's: no place here).
_PLACE_WORDS = [
    "sheet", "spreadsheet", "project", "folder", "channel", "board", "repo", "list", "doc",
    "document", "calendar", "page", "database", "bucket", "space", "team", "group", "drive",
    "workspace", "notebook", "section", "playlist", "site", "table", "dataset",
]  # fmt: skip
_THINGS = [
    "repository", "card", "ticket", "issue", "task", "note", "file", "event", "meeting",
    "branch", "checklist",
]  # fmt: skip
_PLACES = "(?:" + "|".join(f"{w}s?" for w in _PLACE_WORDS) + ")"
_ONE_HELD = frozenset([*_PLACE_WORDS, *_THINGS])  # one of them
_HELD = _ONE_HELD | {f"{w}s" for w in _PLACE_WORDS} | {"branches", "repositories"}
# Where a request is to be done, when it is the caller's own ("to my instagram", "from
# our bank"): a word here the catalog does not know names a place nothing here is (not
# one naming a place the catalog holds: "to my *expenses* sheet").
_MY_PLACE = re.compile(
    r"\b(?:to|into|onto|from|at|in|on|via|using|through)\s+(?:my|our)\s+([A-Za-z]+)\b"
    rf"(?!\s+{_PLACES}\b)",
    re.I,
)
# What stands before the words naming a thing the catalog holds ("the *Q3 budget*
# spreadsheet"; `Unknowns.naming`), and words that never name one.
_DETERMINERS = frozenset(
    ["the", "my", "our", "your", "his", "her", "their", "this", "that", "a", "an"]
)
# A determiner of one the caller already knows ("*the* contractor", "*my* mom", "the *new*
# hire"; not "a" or "an": `_PEOPLE`).
_KNOWN_ONE = (_DETERMINERS - {"a", "an"}) | {"new"}
_NOT_NAMING = _DETERMINERS | frozenset(
    ["its", "these", "those", "to", "in", "on", "of", "for", "from", "into", "new", "all",
     "every", "each", "which", "what", "any", "some", "and", "or"]
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+")
_VERBS = DOING | MORE_VERBS | CHANGING | READING
# "add milk and eggs to my grocery list": what is put in a thing the catalog holds is
# content (the items, a note's words), not what the call acts on.
ADDED_TO = re.compile(
    r"^\W*(?:add|put|append|insert|stick|pop|throw|jot|write|include)\b.+?\b(?:to|onto|into"
    rf"|on|in)\s+(?:my|our|the|this|that)\s+(?:[\w-]+\s+)?{_PLACES}\b",
    re.I,
)
# What every `_MY_PLACE` holds.
_MY = hint_pattern(r"(?:to|from|at|in|on|via|using|through)\s+(?:my|our)")
_QUOTED = re.compile(rf"\"[^\"]*\"|“[^”]*”|'{IN_QUOTES}*'(?!\w)")
# What is said before a verb of "-ing" that is being done ("what's sitting in my trash").
_BEING = frozenset(["is", "are", "was", "were", "am", "s", "re", "m"])
# A word standing alone (no id, reference or address), as spelling.py reads them.
_ALONE = re.compile(r"(?<![\w\-/.@#:])[A-Za-z]+(?![\w\-/.@])")
# The end of a sentence inside a request's head.
# The end of a sentence inside a request's head.
_SENTENCES = re.compile(r"(?<=\w)(?:[.!?]+|\u2026)\s+")
# The words whose terms an `Unknowns` keeps.
_WORDS = 50_000


def first_clause(text: str) -> str:
    """The first clause of a request as phrasing.py orders it: the clause that asks."""
    return text.split(" . ", 1)[0]


class Unknowns:
    def __init__(self, analyzer: Analyzer, known: Collection[str], table: Collection[str]) -> None:
        """`known`: the terms the catalog indexes; `table`: the terms of the synonym
        tables' words (never unknown: they stand for catalog words)."""
        self._analyzer = analyzer
        self._known = known
        self._table = table
        self._words: dict[str, tuple[str, ...]] = {}  # a word's terms (`_terms`)

    @staticmethod
    def head(text: str) -> str:
        """The request up to its first preposition or clause word, quoted text left out:
        where it says what to do to what."""
        text = first_clause(text)
        if '"' in text or "'" in text or "\u201c" in text:  # each quote starts with one
            text = _QUOTED.sub(" ", text)
        if not text.isascii():
            return _BOUNDARY.split(text, maxsplit=1)[0]
        found = _BOUNDARY_LOWER.search(text.lower())
        return text if found is None else text[: found.start()]

    def _terms(self, word: str) -> tuple[str, ...]:
        """`analyzer.terms(word)` for one word, kept (requests repeat their words)."""
        found = self._words.get(word)
        if found is None:
            found = tuple(self._analyzer.terms(word))
            if len(self._words) < _WORDS:
                self._words[word] = found
        return found

    def naming(self, clause: str) -> frozenset[str]:
        """The terms of the words that name which thing the catalog holds the clause acts
        on: one or two words between a determiner and the thing ("the *Q3 budget*
        spreadsheet"), a value, not what the call does (but a thing's own word, "the
        *calendar* event", and words of doing, "the *delete* folder")."""
        found: set[str] = set()
        words = _WORD.findall(clause.lower())
        for i in range(2, len(words)):
            if words[i] not in _HELD:
                continue
            named = words[i - 1 : i] if words[i - 2] in _DETERMINERS else []
            if not named and i > 2 and words[i - 3] in _DETERMINERS:
                named = words[i - 2 : i]
            for word in named:
                if word not in _NOT_NAMING and word not in _VERBS and word not in _HELD:
                    found.update(self._terms(word))
        return frozenset(found)

    def in_place(self, clause: str) -> set[str]:
        """The terms of the words the catalog does not know that name where the request
        is to be done ("post the picture to my *instagram*"): a place nothing here is."""
        found: set[str] = set()
        if not _MY(clause):
            return found
        for m in _MY_PLACE.finditer(clause):
            for term in self._terms(m.group(1)):
                if term not in self._known and term not in self._table:
                    found.add(term)
        return found

    def in_head(self, head: str) -> set[str]:
        """The unknown words of the request's object place (`_in_object`); none when
        the head runs over sentences and its last, the one that asks, holds none: those
        before it are the story ("Sad news, Acme is churning. Their subscription should
        stop ..."; "I always forget this... have slack remind me ..."). When the last one
        names something unknown ("oh no, I attached the wrong file. unsend ..."), the
        story's unknown words count too, as they did in a head of one sentence."""
        found = self._in_object(head)
        if found:
            *story, last = _SENTENCES.split(head)
            if story and last.strip() and not self._in_object(last):
                return set()
        return found

    def _in_object(self, head: str) -> set[str]:
        """The terms of the words the catalog does not know in the request's head."""
        found: set[str] = set()
        words = _ALONE.findall(head)  # (no match objects made)
        for i, word in enumerate(words):
            lower = word.lower()
            if (i and not word.islower()) or lower in _WHEN or lower in COUNTS:
                continue  # a name, a time, how many
            if lower in _PRONOUNS or lower in _QUALITIES:
                continue  # someone named before; what kind, not what
            if lower in _PEOPLE and i and words[i - 1].lower() in _KNOWN_ONE:
                continue  # someone the caller knows ("the contractor", "my mom")
            if lower in CHAT_VERBS:
                continue  # what is done ("can you *dig* through my Gmail")
            if i and words[i - 1].lower() in _SUBJECTS:
                continue  # what someone did ("the contractor we *brought* in")
            if i and lower.endswith("ing") and words[i - 1].lower() in _BEING:
                continue  # what is being done, not to what ("what's *sitting* in my trash")
            unknown = [
                t for t in self._terms(word) if t not in self._known and t not in self._table
            ]
            if unknown and not (i + 1 < len(words) and words[i + 1].lower() in _ONE_HELD):
                found.update(unknown)  # (the word before a held thing names it: "the
                # *redesign* card")
        return found
