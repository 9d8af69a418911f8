"""Whether a product of ours the request names lacks what it asks (docs/catalog.md,
"Search": the no-match flag).

"pin the grocery note in google keep", "invite sara to our linear workspace", "unsend
the email in gmail": the product is ours and every other word of the request is a
catalog word, so its results match well, but no call of that product does the action.
The request's verb is its clause's first word (lead-ins out: "can you", "please"); a
question asks to read and is never judged. Two readings, by the verb:

- a verb of one of the general kinds (`KINDS`: reading; creating: "make a new label";
  changing: "change my profile pic"; deleting: "delete the Design team") says little by
  itself: any call of its kind that names the request's object does it. The object is
  the words of the object place (confidence.py's head) that some name of the product
  holds ("label", "team", "profile"), with what the tables relate to them; the product
  lacks the action when no name of it holds both a verb of the kind and one of them
  (Linear's `list_labels` names labels, but no call of it creates one). An object none
  of its names holds says nothing (a spoken word, "song", "deck"); nor does a request
  that reads: reading is what every product does.
- any other verb ("pin", "merge", "invite", "unsend", "upgrade") is the action itself:
  the product lacks it when no document of it (name, description, parameters) holds the
  verb or what the tables say it stands for, nor any name of another integration whose
  document names this product (Drive's `export_file` says "Export a Google Doc": a Docs
  request to export is answered). "re" before a verb of doing again (`AGAIN`) is that
  verb too ("rerun": run).

Each reading is a few look-ups in the index's postings (a term's documents and names),
and only for a request that names one product of ours.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

import numpy as np

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.fields import Fields
from skillgate.discovery.own import Rows
from skillgate.discovery.phrasing import Phrased, phrased
from skillgate.discovery.stopwords import LEAD_INS
from skillgate.discovery.unknowns import Unknowns, first_clause
from skillgate.discovery.verbs import CHANGING, DOING, MORE_VERBS, NOUN_VERBS, RARER, READING

# The general kinds of action, as people say them: a call of the kind that names the
# object does it. Reading first (never judged).
KINDS = (
    ("get list show find search read view check see look fetch retrieve query lookup browse "
     "grab count describe give tell"),
    ("create add make new write open post insert append leave file book start put block save "
     "store"),
    ("update change edit modify set patch fix mark move rename put close reopen resolve "
     "complete finish"),
    "delete remove erase wipe trash cancel clear",
)  # fmt: skip
# Verbs whose "re" form does them again ("rerun", "redeploy", "retrigger", "resend").
AGAIN = "run deploy start trigger send open build try play sync install submit"
# A request that opens with one of these asks a question: it reads.
_QUESTION = re.compile(r"\W*(?:how|what|why|who|whose|when|where|which)\b", re.IGNORECASE)
_RAW = re.compile(r"[a-z][a-z']*")
_KEPT = 20_000  # (term, rows, names or documents) -> its rows, kept (`Lacks._held`)


class Lacks:
    def __init__(
        self,
        analyzer: Analyzer,
        documents: Rows,
        names: Mapping[str, tuple[np.ndarray, np.ndarray]],
        ranges: Mapping[str, tuple[int, int]],
        products: Mapping[str, str],
        fields: Fields,
    ) -> None:
        """`documents`: per term, the documents whose own texts hold it; `names`:
        per term, the endpoints whose name holds it; `ranges`: each integration's rows
        [start, end); `products`: each integration's slug -> its name; `fields`: the
        words each endpoint writes only as fields' names."""
        self._analyzer = analyzer
        self._fields = fields
        self._documents = documents
        self._names = names
        self._ranges = ranges
        self._n = sum(end - start for start, end in ranges.values())
        self._kept: dict[tuple[str, int, int, bool], frozenset[int]] = {}
        self._first: dict[str, str | None] = {}  # a first word's verb term (`_verb`)
        self._last_raw: tuple[str, list[str]] | None = None  # (`_raw`)

        def terms(words: str) -> frozenset[str]:
            return frozenset(t for w in words.split() for t in analyzer.terms(w))

        self._kinds = [terms(k) for k in KINDS]
        self._general = frozenset().union(*self._kinds)
        self._again = terms(AGAIN)
        self._verbs = terms(" ".join([*DOING, *MORE_VERBS, *READING, *CHANGING, *RARER]))
        self._nouns = terms(" ".join(NOUN_VERBS))  # verbs as often things ("label")
        self._skip = LEAD_INS | analyzer.filler | {"pls"}
        self._product = {slug: frozenset(analyzer.terms(name)) for slug, name in products.items()}
        # What one word stands for in the tables ("bug": issue; "make": create).
        self._stands: dict[str, set[str]] = {}
        for table in (analyzer.means, analyzer.actions):
            for phrase, meant in table.items():
                if len(phrase) == 1:
                    self._stands.setdefault(phrase[0], set()).update(meant)

    def lacks(self, text: str, slug: str, question: bool, read: Phrased | None = None) -> bool:
        """Whether `slug`, the one product of ours `text` (the request as searched) names,
        lacks what it asks (`question`: the analysis read a question: never; `read`: its
        imperative phrasing when read already)."""
        if question or _QUESTION.match(text) or slug not in self._ranges:
            return False
        said = (phrased(text, imperative=True) if read is None else read).request or text
        raw = self._raw(said)
        verb = self._phrasal(raw) or self._verb(raw)
        if verb is None:
            return False
        meant = {verb, *self._stands.get(verb, ())}
        if verb.startswith("re") and verb[2:] in self._again:
            meant.add(verb[2:])
        kind = next((k for k in self._kinds if verb in k), None)
        if kind is None:
            # What it stands for, but a verb of a general kind when it stands for a thing
            # too: "share" is to create a permission, and a call that creates a task does
            # not share; "kick" (off) is only to remove, and stays so.
            if meant - self._general - {verb}:
                meant -= self._general
            said_so = self._in_documents(meant, slug, verb, raw[0])
            return not said_so and not self._elsewhere(meant, slug)
        if kind is self._kinds[0]:
            return False  # to read: what every product does
        # Gerunds ("start *playing* music") and states ("mark it *done*": complete) say
        # the action too; a verb as often a thing ("a new *label*") stays the object.
        # A reference in it is what it refers to ("add https://youtube.com/watch?v=... to
        # my playlist": a video), never its link's words ("watch", "com").
        words, referred = self._analyzer.references(Unknowns.head(said))
        head = {*self._analyzer.terms(words), *referred} - meant - self._product[slug]
        head |= {m for t in head for m in self._stands.get(t, ())}
        states = head & self._verbs - self._nouns
        states |= {t for w in raw[1:] if w.endswith("ing") for t in self._analyzer.terms(w)}
        states &= self._verbs
        # A word that stands for a state is one, with all it stands for ("done": complete,
        # state), not what is acted on.
        for t in head - self._nouns:
            meanings = self._stands.get(t, set())
            if not states.isdisjoint(meanings):
                states |= {t, *meanings}
        return self._named_apart(kind | meant | states, head - states, slug)

    def action(self, said: str) -> tuple[str, str] | None:
        """The verb the clause that asks starts with (`said`: the request's imperative
        reading, the clause that asks first), lead-ins out, when it is an action itself
        ("archive", "pin", "merge"), of none of the general kinds (`KINDS`): its term
        and the word as written; else None."""
        raw = self._raw(said)
        verb = self._verb(raw)
        if verb is None or verb in self._general:
            return None
        return verb, raw[0]

    def _raw(self, said: str) -> list[str]:
        """The words of `said`'s clause that asks, lead-ins out (the last request's kept:
        `lacks` and `action` read the same one for its matches)."""
        last = self._last_raw
        if last is None or last[0] != said:
            words = [w for w in _RAW.findall(first_clause(said).lower()) if w not in self._skip]
            last = self._last_raw = (said, words)
        return last[1]

    def _verb(self, raw: list[str]) -> str | None:
        """The term of `raw`'s first word when it is a verb (kept per word: requests
        start with the same few)."""
        if not raw:
            return None
        word = raw[0]
        if word not in self._first:
            if len(self._first) >= _KEPT:
                self._first.clear()
            first = self._analyzer.terms(word)[:1]
            self._first[word] = first[0] if first and first[0] in self._verbs else None
        return self._first[word]

    def _phrasal(self, raw: list[str]) -> str | None:
        """The general verb `raw`'s first two words stand for together in the tables
        ("set up" a coupon: create, where "set" alone is to change), else None."""
        if len(raw) < 2:
            return None
        found = self._analyzer.leading_action(
            [*self._analyzer.terms(raw[0]), *self._analyzer.terms(raw[1])]
        )
        if found is None or found[0] < 2:
            return None  # no phrase, or its first word alone: `_verb` reads it
        return next((t for t in sorted(found[1]) if t in self._general), None)

    def _rows(self, term: str, start: int, end: int, named: bool) -> np.ndarray:
        """The rows in [start, end) whose name (`named`) or document holds `term`."""
        if named:
            rows = self._names.get(term, (np.zeros(0, np.intp),))[0]
        else:
            found = self._documents.get(term)
            rows = np.zeros(0, np.intp) if found is None else found
        return rows[(rows >= start) & (rows < end)]

    def _held(self, term: str, start: int, end: int, named: bool) -> frozenset[int]:
        """`_rows` as a set, kept (requests ask of the same products with the same verbs:
        a set's look-ups cost less than numpy's calls on a few rows)."""
        key = (term, start, end, named)
        found = self._kept.get(key)
        if found is None:
            found = frozenset(self._rows(term, start, end, named).tolist())
            if len(self._kept) >= _KEPT:
                self._kept.clear()  # simpler than an LRU, as the search's other caches
            self._kept[key] = found
        return found

    def _in_documents(
        self, terms: Collection[str], slug: str, verb: str = "", word: str = ""
    ) -> bool:
        """Whether a document of `slug` says one of `terms`, not only as a field's name
        (discovery/fields.py: `is_archived` archives nothing; `verb`'s own `word`, as the
        request writes it, counts as said)."""
        start, end = self._ranges[slug]
        only = self._fields.only
        return any(
            not only(r, t, word if t == verb else "")
            for t in terms
            for r in self._held(t, start, end, False)
        )

    def _elsewhere(self, terms: Collection[str], slug: str) -> bool:
        """Whether a name outside `slug` holds one of `terms` and its document names the
        product ("Export a Google Doc": Drive's `export_file` for Docs)."""
        product = self._product[slug]
        if not product:
            return False
        start, end = self._ranges[slug]
        named = set().union(*(self._held(t, 0, self._n, True) for t in terms))
        rows = {r for r in named if r < start or r >= end}
        for term in product:
            if not rows:
                return False
            rows &= self._held(term, 0, self._n, False)
        return bool(rows)

    def _named_apart(self, verbs: Collection[str], objects: Collection[str], slug: str) -> bool:
        """Whether `slug`'s names hold some of `objects` but never with one of `verbs`."""
        start, end = self._ranges[slug]
        things = set().union(*(self._held(t, start, end, True) for t in objects))
        if not things:
            return False  # no name of the product holds the object: it says nothing
        return all(things.isdisjoint(self._held(t, start, end, True)) for t in verbs)
