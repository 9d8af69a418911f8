"""Text to search terms, the same for the catalog and for a query (docs/catalog.md, "Search").

    words        camelCase and snake_case split, lower case; stop words and bare
                 numbers dropped
    stems        each word stemmed (Snowball English: `meetings` -> `meet`)
    terms        the phrases of a `SYNONYMS` group replaced by the group's one term
                 (`PR`, `pull request`: one term), on both sides

A query then gains related terms: what `MEANS` maps any of its phrases to, what
`ACTIONS` maps its first phrase to, `PLURAL_MEANS` when it names something in the
plural, and what `SHAPES` maps the references it holds to (`#general`: a channel).
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable
from typing import NamedTuple

import Stemmer

from skillgate.discovery.content import ASKING, ASKING_WORDS, WHAT, split_content
from skillgate.discovery.leads import Leads, acts_on, asks_to_read
from skillgate.discovery.literals import InRow, Runs, blank, guarded, mark, runs
from skillgate.discovery.phrasing import commanded
from skillgate.discovery.places import within
from skillgate.discovery.stems import plural, stem
from skillgate.discovery.stopwords import FILLER, LEAD_INS, STOPWORDS
from skillgate.discovery.synonyms import (
    ACTIONS,
    MEANS,
    ONE_ON_ONE,
    PLURAL_MEANS,
    SHAPES,
    SPELLINGS,
    SYNONYMS,
)
from skillgate.discovery.verbs import ACTING, NOUN_VERBS

# A long id of hex digits and letters (a Gmail thread's, a commit's): it names one item.
_HEX_ID = re.compile(r"\b(?=[0-9]*[a-f])(?=[a-f]*\d)[0-9a-f]{10,}\b")
_HEX_RUN = InRow(*["0-9a-f"] * 10)  # what every `_HEX_ID` holds (a cheap test first)
# "is", "has"... opening what is left of a request: a question, unless a reference
# opened the request as its subject ("ENG-142 is done, close it").
_COPULA = re.compile(r"^\W*(?:is|are|was|were|has|have)\b", re.IGNORECASE)
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_MAY_CAMEL = InRow("a-z0-9", "A-Z")  # the cheap test before `_CAMEL`
# `re-run`, `re-open`: one word, as the APIs write it (`rerun`, `reopen`).
_RE_PREFIX = re.compile(r"\bre-(?=[a-z])")
_WORD = Runs("a-z0-9")
_ONE_ON_ONE = re.compile(ONE_ON_ONE)
_CACHE_MAX = 100_000
_RECENT = 256  # texts whose terms `Analyzer.terms` keeps


class Query(NamedTuple):
    terms: tuple[str, ...]  # the query's own terms, each once
    related: tuple[str, ...]  # terms the tables add (none of `terms`)
    content: tuple[str, ...] = ()  # terms of the request's content only (none of the above)
    when: bool = False  # whether the request says when (phrasing.py): a call taking a time
    # Related terms only the request's question form added ("what's ...": get): they rank,
    # but say nothing of what the request names (confidence.py's name agreement).
    asked: tuple[str, ...] = ()
    # A place asked about ("what's in my documents folder"): its terms rank as content
    # (what it holds is asked for, not the place), and still count in `match`.
    places: tuple[str, ...] = ()
    # The request's verb, for its kind (reading or changing: leads.py, kinds.py).
    lead: str = ""
    # Whether the request names one item by a reference (`pi_3Pab...`, `ENG-12`, a link to
    # an issue; not a repository, a channel or a person): a call on one item (values.py).
    item: bool = False
    # The terms of what the request's references to one item name (`cus_...`: customer,
    # `ENG-12`: issue): a call on such a thing is preferred (values.Things).
    things: tuple[str, ...] = ()
    # Whether the lead word is followed by what it acts on ("*star the* repo", "*book a*
    # room"): a word as often a noun (verbs.NOUN_VERBS) is then the verb (kinds.py).
    acts: bool = False
    # The place the request's object is in or goes to ("the files *in the backups
    # bucket*"): a call reading or making the place itself is not asked (places.py).
    within: tuple[str, ...] = ()


# A text's references read (`Analyzer._references`): the text without them, what they
# refer to, whether one names one item, whether that is no person, the items' things.
_Read = tuple[str, set[str], bool, bool, tuple[str, ...]]


class Analyzer:
    def __init__(self) -> None:
        self._stemmer = Stemmer.Stemmer("english")
        self._stems: dict[str, str] = {}
        # Recent texts' terms (`terms`): a request's analysis and its match read the
        # terms of the same texts again (a fifth of the calls over new requests).
        self._recent: dict[str, tuple[str, ...]] = {}
        # The last text's references (`_references`): a request's analysis and its match
        # read them off the same text, most often (257 of 300 new development requests).
        self._last_references: tuple[str, _Read] | None = None
        # Phrase (stems) -> its group's term, and the longest phrase of any table.
        self._groups: dict[tuple[str, ...], str] = {}
        for group in SYNONYMS:
            phrases = [p for p in (tuple(self._stem_words(g)) for g in group) if p]
            for phrase in phrases:
                self._groups[phrase] = "_".join(phrases[0])
        self._longest = max((len(p) for p in self._groups), default=1)
        self._starts = {p[0] for p in self._groups if len(p) > 1}
        self._words = {p[0]: term for p, term in self._groups.items() if len(p) == 1}
        # The stemmer leaves an abbreviation's plural as it is (`PRs`, `DMs`).
        self._abbreviated = {w + "s" for w in self._words if w + "s" not in self._words}
        for word in self._abbreviated:
            self._words[word] = self._words[word[:-1]]
        # `MEANS` in terms: phrase -> the terms it also searches for; `ACTIONS` in terms:
        # a request's first phrase -> the terms it stands for.
        self.means: dict[tuple[str, ...], set[str]] = self.table(MEANS)
        self.actions: dict[tuple[str, ...], set[str]] = self.table(ACTIONS)
        self._get, self._list = set(self.terms("get")), set(self.terms("list"))
        # References to places where items are (`acme/web`, `#general`), not to one item.
        self._places = frozenset(self.terms("repository channel"))
        # What an address or a mention refers to: a person, whom a call takes as a value
        # (`email`, `user`), not an item of the path (values.py's `ITEM_BOOST`).
        self._people = frozenset(self.terms("email user"))
        self._reads = frozenset(self.terms("get list search find read"))
        # What a verb of reading stands for beside get ("show": get, list; "look up": get,
        # search): not for a request that names one item (`ItemReads`).
        self._many = frozenset(self.terms("list search find"))
        self._verbs = frozenset(s for w in ACTING for s in self.stems(self.words(w)))
        self._lead = Leads(self.stems, self.words)  # a request's verb (discovery/leads.py)
        self._longest_means = max(map(len, [*self.means, *self.actions]), default=1)
        # The first term of each phrase of the tables: a query's term that starts none
        # needs no look-up of the phrases it might start.
        self._means_starts = {p[0] for p in self.means}
        self._action_starts = {p[0] for p in self.actions}
        self._plural = tuple(self.terms(PLURAL_MEANS))
        # Each shape's pattern only where the text holds what its every match holds: the
        # table's character (a run of shapes at once), and a longer string of the
        # pattern's own, which holds it ("notion.s", "cus_"), or else a run it holds (`guarded`).
        self._shapes = runs(
            (c, (mark(pattern, c), guarded(pattern, c), tuple(self.terms(t))))
            for c, pattern, t in ((c, re.compile(p), t) for c, p, t in SHAPES)
        )
        # The chat words left out of a query (`FILLER`); the index takes out those its
        # endpoints' names hold (`names`).
        self.filler: frozenset[str] = FILLER

    def names(self, terms: Container[str]) -> None:
        """The terms of the endpoints' names: a chat word among them is a thing of the
        catalog, searched like any other word."""
        self.filler = frozenset(w for w in FILLER if not any(t in terms for t in self.terms(w)))

    def words(self, text: str) -> list[str]:
        lower = text.lower()
        if lower != text and _MAY_CAMEL(text):  # a capital after a small letter or a digit
            lower = _CAMEL.sub(r"\1 \2", text).lower()
        if "-" in lower:
            for written, word in SPELLINGS:
                lower = lower.replace(written, word)
            lower = _RE_PREFIX.sub("re", lower)
        if "1:1" in lower:
            lower = _ONE_ON_ONE.sub(" 1on1", lower)
        raw = _WORD.findall(lower)
        return [w for w in raw if w not in STOPWORDS and not w.isdigit()]

    def stems(self, words: Iterable[str]) -> list[str]:
        cache = self._stems
        out = []
        for w in words:
            s = cache.get(w)
            if s is None:
                s = stem(self._stemmer, w)
                if len(cache) < _CACHE_MAX:
                    cache[w] = s
            out.append(s)
        return out

    def _stem_words(self, text: str) -> list[str]:
        return self.stems(self.words(text))

    def canonical(self, stems: list[str]) -> list[str]:
        """`stems` with each phrase of a synonym group replaced by the group's term."""
        out: list[str] = []
        i, n = 0, len(stems)
        while i < n:
            stem, size, term = stems[i], 1, None
            if stem in self._starts:  # a phrase of several words may start here
                for size in range(min(self._longest, n - i), 1, -1):  # the longest wins
                    term = self._groups.get(tuple(stems[i : i + size]))
                    if term is not None:
                        break
                else:
                    size = 1
            out.append(term or self._words.get(stem, stem))
            i += size
        return out

    def terms(self, text: str) -> list[str]:
        """The search terms of a text (a catalog field or a query)."""
        found = self._recent.get(text)
        if found is None:
            found = tuple(self.canonical(self._stem_words(text)))
            if len(self._recent) >= _RECENT:
                self._recent.clear()  # simpler than an LRU: the texts that repeat are recent
            self._recent[text] = found
        return list(found)

    def first_term(self, text: str, past_filler: bool = False) -> list[str]:
        """`terms(text)[:1]`, stemming only the words its first phrase may span;
        `past_filler`: chat's filler is no first word ("is that *still* switched on?")."""
        words = [w for w in self.words(text) if not (past_filler and w in self.filler)]
        return self.canonical(self.stems(words[: self._longest]))[:1]

    def table(
        self, entries: Iterable[tuple[str, tuple[str, ...]]]
    ) -> dict[tuple[str, ...], set[str]]:
        table: dict[tuple[str, ...], set[str]] = {}
        for said, meant in entries:
            phrase = tuple(self.terms(said))
            if phrase:
                table.setdefault(phrase, set()).update(t for m in meant for t in self.terms(m))
        return table

    @staticmethod
    def _leads(text: str, words: list[str]) -> bool:
        """Whether the first of `words` is the first word of the request but for lead-ins
        ("can you open ..."; not "which files ...")."""
        for raw in _WORD.findall(text.lower()):
            if raw not in LEAD_INS:
                # A plural is a noun ("files shared with me"), not the verb ("file a bug").
                return bool(words) and raw == words[0] and not raw.endswith("s")
        return False

    def _names_plural(
        self, words: list[str], stems: list[str], known: Container[str] | None
    ) -> bool:
        """Whether the query names something the catalog knows in the plural."""
        for w, s in zip(words, stems, strict=True):
            if (plural(w, s) or w in self._abbreviated) and (
                known is None or self._words.get(s, s) in known
            ):
                return True
        return False

    def references(self, text: str) -> tuple[str, set[str]]:
        """`text` without its references of a known shape, and the terms of what they refer
        to (`ENG-12`: issue; a link's words say nothing): the no-match flag reads a
        reference as what it names, never as words of the request (confidence.py)."""
        stripped, related, _, _, _ = self._references(text)
        return stripped, related

    def _references(self, text: str) -> _Read:
        """`text` without its references of a known shape, what they refer to, whether it
        names one item (a reference but to a repository or channel, where items are; a long
        hex id), whether that is an item, not a person (an email address, @ana), and the
        terms of the items' things."""
        last = self._last_references
        if last is not None and last[0] == text:
            stripped, related, one, item, things = last[1]
            return stripped, set(related), one, item, things  # a copy: callers add to it
        found = self._read_references(text)
        self._last_references = (text, (found[0], set(found[1]), *found[2:]))
        return found

    def _read_references(self, text: str) -> _Read:
        """`_references` without the last text's kept."""
        related: set[str] = set()
        things: set[str] = set()
        one = _HEX_RUN(text) and _HEX_ID.search(text) is not None
        item = one
        for char, shapes in self._shapes:
            if char not in text:
                continue  # no shape of the run can match: each holds the character
            for held, pattern, meant in shapes:
                if held in text:
                    # A reference says what it is, and its own words (`acme/web`) say nothing.
                    text, found = pattern.subn(blank, text)
                    if found:
                        related.update(meant)
                        if self._places.isdisjoint(meant):
                            one = True
                            if self._people.isdisjoint(meant):
                                item = True
                                things.update(meant)
        return text, related, one, item, tuple(sorted(things))

    def _acts(self, words: list[str]) -> bool:
        """Whether the request's `words` say an action (a verb of `ACTING`, in any form
        but one ending in "s": "comments" are things)."""
        said = [w for w in words if not w.endswith("s")]
        return not self._verbs.isdisjoint(self.stems(said))

    def _asked(
        self,
        question: set[str],
        one: bool,
        words: list[str],
        own: tuple[str, ...],
        related: set[str],
    ) -> tuple[str, ...]:
        """The read a request's form asks for beyond its words: its question's ("what's
        ...": get), or, for a request naming `one` item and no action ("pi_3Pab details",
        "thread 18a1b2c3d4e5 in gmail"), get; none when it says how to read ("what is the
        list of ...")."""
        if one and not question and not self._acts(words):
            question = self._get
        if not self._reads.isdisjoint(own):
            return ()
        return tuple(sorted(question - related - set(own)))

    def _meant(self, terms: list[str]) -> set[str]:
        """What `MEANS` maps any phrase of `terms` to."""
        found: set[str] = set()
        means, longest = self.means, self._longest_means
        for start, term in enumerate(terms):
            if term in self._means_starts:
                for size in range(1, longest + 1):
                    also = means.get(tuple(terms[start : start + size]))
                    if also is not None:
                        found |= also
        return found

    def _action(
        self, text: str, words: list[str], terms: list[str], item: bool
    ) -> tuple[list[str], set[str] | None]:
        """`terms` with the request's first phrase as what `ACTIONS` says it stands for
        (but an API word itself), and that; None when it is no action of the table."""
        found = self.leading_action(terms)
        if found is not None and self._leads(text, words):
            size, action = found
            if item and self._get <= action:  # "show me evt_1NG8...": that one
                action = action - self._many
            elif item and terms[0] == "open":  # "open message 18c2...": read it
                action = set(self._get)
            return [t for t in terms[:size] if t in action] + terms[size:], action
        return terms, None

    def leading_action(self, terms: list[str]) -> tuple[int, set[str]] | None:
        """The longest phrase of `ACTIONS` that `terms` start with: its length in terms
        and what it stands for ("set up": create); None when they start with none."""
        if not terms or terms[0] not in self._action_starts:
            return None
        for size in range(min(self._longest_means, len(terms)), 0, -1):
            action = self.actions.get(tuple(terms[:size]))
            if action is not None:
                return size, action
        return None

    def query(self, text: str, known: Container[str] | None = None) -> Query:
        """The query's terms and related terms; `known`: the terms the catalog holds (a
        plural of a word it does not know, `torvalds`, asks for no listing)."""
        opening = text.split(maxsplit=1)[0] if text.strip() else ""
        text, related, one, item, things = self._references(text)
        request, context, _ = commanded(text)
        if _WORD.pattern.search(request.lower()):  # else nothing but a time: kept as asked
            text = request
        place = within(text)
        if ASKING_WORDS(text):
            text = ASKING.sub("show me", text, count=1)
        question: set[str] = set()
        reads = asks_to_read(text)  # "are there any ...": its verb is get (leads.py)
        if reads and _COPULA.match(text) and self._references(opening)[0].strip() != opening:
            reads = False  # "ENG-142 is done, close it": the reference is the subject
        what = WHAT.match(text)
        if what is not None:
            text = text[what.end() :]
            question = self._list if what.group("held") else self._get
        text, content = split_content(text)
        if context:
            content = f"{content} {context}"
        filler = self.filler
        words = [w for w in self.words(text) if w not in filler]
        while words and words[0] in LEAD_INS:  # "honestly just delete ...": delete
            words = words[1:]
        stems = self.stems(words)
        terms, action = self._action(text, words, self.canonical(stems), item)
        acted = action is not None  # whether the first phrase is an action of `ACTIONS`
        related |= action or set()
        related |= self._meant(terms)
        asking = words, stems
        if " . " in text:  # the clause that asks names what it wants ("... uploads - make a
            # bucket"): a plural in another clause asks for no listing
            first = self.words(text.split(" . ", 1)[0])
            asking = first, self.stems(first)
        if self._names_plural(*asking, known):
            related.update(self._plural)
        own = tuple(dict.fromkeys(terms))
        places: tuple[str, ...] = ()
        if what is not None and what.group("held"):  # "what's on my calendar": its items
            places, own = own, ()
        asked = self._asked(question, one and not acted, words, own, related)
        related.update(asked)
        others = tuple(sorted(related - set(own)))
        when = bool(context)
        said = set(own) | related
        searched = [*places, *(self.terms(content) if content else ())]
        content_terms = tuple(t for t in dict.fromkeys(searched) if t not in said)
        lead = "get" if reads else self._lead.of(text, stems)
        acts = bool(words) and words[0] in NOUN_VERBS and acts_on(text, words[0])
        inside = tuple(self.terms(place)) if place and not places else ()
        return Query(
            own, others, content_terms, when, asked, places, lead, item, things, acts, inside
        )
