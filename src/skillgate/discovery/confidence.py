"""How well a result fits a request (`match`, 0 to 1), and whether anything fits at all
(docs/catalog.md, "Search": "Nothing here does that").

A ranking always has a first result; `match` says whether it is an answer. It is the
share of what the request asks for that the endpoint's document holds, each word of the
request weighed by its rarity in the catalog (IDF: "issue" says less than "refund"):

- a word the catalog knows counts in full when the document holds it, `RELATED_SHARE`
  when it holds only what the word stands for in the synonym tables ("bug": an issue)
  and the endpoint's name holds that (what the call does), `DESCRIBED_SHARE` when only
  its description does ("*book* me a flight": a GitHub call whose description says
  "create");
- each word the catalog does not know that stands where the request names its object,
  before any preposition or clause ("book a *hotel* in rome", "order new *ink
  cartridges*": nothing here knows what is to be acted on; never a pronoun, "send *him*
  an email", nor how many, "charged *twice*"), multiplies every result's
  match by `OBJECT_PENALTY`; elsewhere such a word is the request's content ("... for
  the *soccer* team") and does not count; names (capitalised), ids, quoted text and
  words that say when (`_WHEN`) or how many (`_COUNTS`) never count; a request whose
  every known word is one of doing (`DOING`: "set", "write", "book") and
  whose object is such an unknown word ("set an *alarm*") matches nothing (the words
  of the clause that asks, when it names something: "can you schedule an *oil* change,
  the light's been on forever");
- a word the catalog does not know where the caller's own place is named ("post the
  picture to my *instagram*", "move money from our *chase* account", "the tracking
  number on my *fedex* package": `_MY_PLACE`; not a place asked about, "what's in my
  *zorblax* repository") multiplies every result's match by `OBJECT_PENALTY` as an
  unknown object does;
- a product nothing here is (discovery/foreign.py's table of well-known products and
  services the catalog does not integrate) named as where or by what to act ("send $20
  to Sam on Venmo", "add the lead to Salesforce", "get me an Uber", "Venmo Jake $30"),
  when the request names no product of ours, multiplies every result's match by
  `FOREIGN_PENALTY` (under the floor: the answer says nothing fits; the order is left
  alone), and so does one named as a word of what is acted on ("retry the gitlab
  pipeline": `Foreign.modified`); a product of ours the request names that lacks the
  call (discovery/lacks.py, read by matching.Matching.of: "pin the note in google
  keep") the same, its results earning no `PRODUCT_SHARE`; named in passing ("email
  the Salesforce export to Dana", "my Delta flight") it does not count; so too a thing
  or activity no integration acts on (discovery/world.py:
  "book me a flight to Denver", "turn off the living room lights"), when the clause that
  asks acts on it, not in passing ("add my flight to the calendar");
- the words naming which place or thing the catalog holds the request acts on ("who has
  access to the *Q3 budget* spreadsheet", after a determiner, just before the thing;
  `Unknowns.naming`) weigh `ARGUMENT_SHARE`: a value, not what the call does; unknown
  there, they are no unknown object, nor is what is added to such a place ("add *milk*
  to my grocery list");
- the words after "about", "called", "saying"... (the request's content,
  analysis.Query.content) and its times do not count; the object place is read in the
  clause that asks (discovery/phrasing.py: "my boss wants the numbers, can you append
  a row...": "append a row"; when no clause asks, the first that starts with a verb
  of doing: "URGENT: the deploy broke login. Open an issue ..."), and ends with it (the
  background's unknown words are not its object); the words only of the clauses
  before it (its background: "Long story, but the vendor never saw the invoice. Could
  you resend the invoice...") do not count when that clause names what to act on, nor
  those only after a colon in it, unless the request is a question (what to send:
  "text +1 415...: your *table* for 4 is ready"); "tell me which ..." asks to see, not
  to send (`content.asks_to_see`);
- a reference is read as what it refers to, never as words of the request
  (discovery/referents.py: "did re_3Mtw... go through?" asks of a refund); the head's
  sentences before the one that asks are its story, their unknown words counted only
  when that one holds one ("Sad news, Acme is churning. Their subscription should stop");
- an action the request asks with ("archive", of none of the general kinds) that an
  endpoint's document writes only as a field's name (`is_archived`, a read's filter
  `exclude_archived`, a link's `/archives/`: discovery/fields.py) is not held by it, and a
  product that says it no other way lacks it ("archive the #proj-atlas channel in slack");
- the endpoint's name is what it does: a result whose name shares less than
  `NAME_AGREES` with the request (the share of its name's terms the request holds,
  related terms at their weight, as the ranking's `NAME_COVER` reads it) has its match
  multiplied by `NAME_PENALTY`, unless its match is `STRONG_MATCH` or more without it
  ("water the garden": a DocuSign settings call's description holds "water"; a word of
  a description, not what the call does).

- a result in an integration the request names ("... in Asana") earns `PRODUCT_SHARE`
  on its match (up to 1), one in an integration its words imply when it names none
  (discovery/cues.py: "inbox", "ENG-55") `CUED_SHARE`: a request put to a product is
  one that product is likely to do ("have slack remind me at 4pm ...", "refund her
  payment in Square"); a word that implies one is weaker evidence ("track my amazon
  package": Spotify's tracks) than its name; the words that only name a product the
  request names (its name's terms in no endpoint's name: "slack", never "calendar") do
  not count for its results, as every call of it holds them ("mute #random on
  *slack*": `slack.create_channel` held "slack" alone; `Matcher.unbranded`).

The answer says nothing fits when no result's `match` reaches `MATCH_FLOOR`. The floor
and the products' shares were fitted by bench/flag_fit.py on the development set
(search_eval.yaml) with each of its sections held out in turn, `DESCRIBED_SHARE` with
bench/flag_loso.py likewise; features that did not separate better there (the semantic
cosine, of the whole request or of the clause that asks, the first stage's scores, the
request's unknown words, the verbs' agreement, rare words unmatched) are left out
(docs/catalog.md, "Search").
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from skillgate.discovery.analysis import Analyzer, Query
from skillgate.discovery.content import asks_to_see
from skillgate.discovery.foreign import Foreign
from skillgate.discovery.literals import may_match
from skillgate.discovery.phrasing import Phrased, phrased
from skillgate.discovery.referents import Referents
from skillgate.discovery.synonyms import FIT_MEANS
from skillgate.discovery.unknowns import ADDED_TO, COUNTS, Unknowns, first_clause
from skillgate.discovery.verbs import DOING
from skillgate.discovery.world import World

# The share of a word's weight a document earns with only a word the tables relate to it,
# when the endpoint's name holds that word ("book": `create_event`), and when only its
# description does ("book me a flight": a GitHub call whose description says "create").
RELATED_SHARE = 0.8
DESCRIBED_SHARE = 0.6
# The factor per word unknown to the catalog in the request's object place.
OBJECT_PENALTY = 0.5
# The factor of every match when the request names a product nothing here is as where or
# by what to act ("send $20 to Sam on Venmo"; discovery/foreign.py) and none of ours: as
# two unknown words in its object place, under the floor even with a cued product's share.
FOREIGN_PENALTY = 0.25
# The weight share of a request's word that is in no endpoint's name ("delete the *old
# vendor* from my contacts"): a value to act on more often than what the call does.
ARGUMENT_SHARE = 0.5
# The weight share of a word only of the clauses around one that asks and names nothing
# but what to do ("just trash them all", "kick it off again"): their story names what it
# is done to among words that do not.
STORY_SHARE = 0.5
# Below this best `match` the answer says nothing fits (bench/flag_fit.py).
MATCH_FLOOR = 0.32
# What a result in an integration the request names earns on its match, up to 1, and one
# in an integration its words imply (bench/flag_fit.py): the product the request asks of
# is evidence the result fits.
PRODUCT_SHARE = 0.1
CUED_SHARE = 0.05
# A result's name agrees with the request from this share of its terms; below it, and
# under `STRONG_MATCH`, its match is multiplied by `NAME_PENALTY`.
NAME_AGREES = 0.3
STRONG_MATCH = 0.6
NAME_PENALTY = 0.5
# A result's `match` in the search answer, as every door states it.
MATCH_SCHEMA = {"type": "number", "minimum": 0, "maximum": 1}

# What follows them is what to send, not what is asked for (`Matcher._before`).
_COLON = re.compile(": ")
_ASKING = re.compile(r"\basking\b", re.IGNORECASE)
_MAY_ASK = may_match(_ASKING)  # most clauses hold no "asking": no pass of the pattern
# What stands for what is acted on when a clause names it no other way.
_PRONOUN = re.compile(r"\b(?:it|them|him|her|this|that|these|those)\b", re.IGNORECASE)
# One word a request asks for: its weight, the terms that satisfy it in full, the terms
# that satisfy it in part; what a request asks for: its words, and the factor of the
# words the catalog does not know.
Word = tuple[float, frozenset[str], frozenset[str]]
Wanted = tuple[list[Word], float]
Terms = tuple[str, ...]


class Matcher:
    def __init__(
        self,
        analyzer: Analyzer,
        df: Mapping[str, int],
        documents: int,
        table: Collection[str],
        named: Collection[str] = (),
        products: Mapping[str, str] | None = None,
        dropped: Collection[str] = (),
    ) -> None:
        """`df`: per indexed term, how many documents hold it; `table`: the words of the
        synonym tables (never unknown: they stand for catalog words); `named`: the terms
        of the endpoints' names; `products`: each integration's slug -> its name;
        `dropped`: the world table's entries the endpoints' names take out
        (world.taken_out)."""
        self._analyzer = analyzer
        self._foreign = Foreign([*(products or {}), *(products or {}).values()])
        self._world = World(dropped=dropped)
        self._named = frozenset(named)
        # The terms of each product's name that no endpoint's name holds ("slack", not
        # "calendar"): they say which product, never which of its calls (`unbranded`).
        self._brands = {
            slug: frozenset(t for t in analyzer.terms(name) if t not in self._named)
            for slug, name in (products or {}).items()
        }
        self._verbs = frozenset(t for w in DOING for t in analyzer.terms(w))
        self._filler = frozenset(t for w in analyzer.filler for t in analyzer.terms(w))
        self._referents = Referents(analyzer)  # a request's references (`_referred`)
        self._idf = {t: math.log(1 + (documents - d + 0.5) / (d + 0.5)) for t, d in df.items() if d}
        self._table = frozenset(t for w in table for t in analyzer.terms(w))
        # Where its unknown words stand (discovery/unknowns.py).
        self._unknowns = Unknowns(analyzer, self._idf, self._table)
        # What one word stands for in the tables (`MEANS`, `ACTIONS`: "bug" -> issue;
        # `FIT_MEANS`, read here only: "who" -> user).
        self._stands_for: dict[str, frozenset[str]] = {}
        for table_ in (analyzer.means, analyzer.actions, analyzer.table(FIT_MEANS)):
            for phrase, meant in table_.items():
                if len(phrase) == 1:
                    known = frozenset(m for m in meant if m in self._idf)
                    self._stands_for[phrase[0]] = self._stands_for.get(phrase[0], known) | known

    def wanted(
        self, text: str, q: Query, named: bool = False, said: Phrased | None = None
    ) -> Wanted:
        """What the request asks for (`text` as searched, `q` its analysis, `named`: it
        names a product of ours, `said`: its imperative phrasing when read already): the
        known words with their weights, and the factor of the unknown ones and of a
        product nothing here is, named as the place of the action (`FOREIGN_PENALTY`)."""
        if said is None:
            said = phrased(text, imperative=True)
        question = "?" in text
        text = said.request or text  # the clause that asks first, times left out
        # Its references read as what they refer to (discovery/referents.py); the clause
        # that asks still names what to act on with one ("post in #incidents: ...").
        asking = text
        text, meant, ids = self._referents.read(text)
        head = Unknowns.head(text)
        # A first word the query analysis replaced by what it stands for ("tell": send,
        # post, message) is still asked for.
        # Not a question put as a request: "tell me which ..." asks to see, not to send.
        first = [] if asks_to_see(text) else self._analyzer.first_term(text, past_filler=True)
        own = (*q.terms, *q.places)  # a place asked about is asked for here
        terms = own if not first or first[0] in own else (first[0], *own)
        if ids:  # an id's pieces ("1AbCdEf...": ab, cd, ef) are no words of the request
            terms = tuple(t for t in terms if t not in ids)
        # The clause that asks, when others follow it and it names what to act on (not
        # "can you check it": then the others name it): what it asks to be done.
        asking_clause = first_clause(asking)
        asks = set(self._analyzer.terms(asking_clause)) if " . " in asking else None
        story: frozenset[str] = frozenset()
        if asks is not None and self._only_does(asks, asking_clause):
            # It names only what to do ("just trash them all . there's like 40 promo
            # emails from suppliers ..."): the others say what to, among their story.
            story = frozenset(self._analyzer.terms(asking.split(" . ", 1)[1])) - asks
            asks = None
        if asks is not None:  # the clauses around the ask: not asked for
            around = set(self._analyzer.terms(asking.split(" . ", 1)[1])) - asks
            terms = tuple(t for t in terms if t not in around) or terms
        clause = first_clause(text)
        if not question:  # a colon then says what to send, not what to do
            terms = self._before(clause, terms, _COLON.search(clause))
        if _MAY_ASK(clause):
            terms = self._before(clause, terms, _ASKING.search(clause))
        out, doing = self._known(terms, asks, story, self._unknowns.naming(clause))
        referred = self._referred(meant.difference(terms), not out)
        out.extend(referred)
        doing &= not referred  # a reference names what is acted on
        unknown = self._unknown(clause, head, asking, q)
        if unknown and doing:
            return [], 0.0  # the catalog knows the action, not what it is done to
        factor = OBJECT_PENALTY**unknown
        if not named and (
            self._foreign.placed(clause, head)
            or self._foreign.modified(clause, head)
            or self._world.acts_on(clause, head)
        ):
            factor *= FOREIGN_PENALTY  # to be done in a product or a domain nothing here is
        return out, factor

    def _unknown(self, clause: str, head: str, asking: str, q: Query) -> int:
        """How many words the catalog does not know stand where the request names its
        object (`head`) or the caller's own place (`clause`); `asking`: the request's
        clauses, the one that asks first."""
        # A place asked about ("what's in my zorblax repository") is the caller's own.
        places = self._unknowns.in_place(clause).difference(q.places)
        # What is added to a thing the catalog holds is content ("add milk to my list").
        added = ADDED_TO.match(asking.replace(" . ", ", "))
        held = set() if added else self._unknowns.in_head(head)
        return len(held | places)

    def _only_does(self, asks: set[str], clause: str) -> bool:
        """Whether the clause that asks (`clause`, its terms `asks`) names only what to do:
        verbs of doing ("just trash them all"), or its own verb and a pronoun for what
        ("can you just shift it for me", "take her off it", "is that still switched on?"):
        its story names what."""
        asks = asks - self._filler
        if asks <= self._verbs:
            return True
        return _PRONOUN.search(clause) is not None and asks <= {
            *self._verbs,
            *self._analyzer.first_term(clause, past_filler=True),
        }

    def _known(
        self,
        terms: Terms,
        asks: set[str] | None,
        story: frozenset[str] = frozenset(),
        naming: frozenset[str] = frozenset(),
    ) -> tuple[list[Word], bool]:
        """The words of `terms` the catalog knows, weighed, and whether every one is one
        of doing (`asks`: the terms of the clause that asks, when others follow it;
        `naming`: those naming which thing it acts on, "the *Q3 budget* spreadsheet")."""
        out: list[Word] = []
        doing = True
        for term in terms:
            if term in COUNTS or len(term) < 2:
                continue  # how many: an argument; a letter ("S&P") says nothing
            also = self._stands_for.get(term, frozenset())
            weight = self._idf.get(term)
            if weight is None and also:
                weight = max(self._idf[t] for t in also)
            if weight is not None:
                full = frozenset([term]) if term in self._idf else frozenset()
                if self._named and self._named.isdisjoint(full | also):
                    weight *= ARGUMENT_SHARE  # in no name: what to act on, not the call
                if term in story:
                    weight *= STORY_SHARE
                if term in naming:
                    weight *= ARGUMENT_SHARE  # which thing: a value, not the call
                out.append((weight, full, also))
                # Only the clause that asks says what is done ("can you schedule an oil
                # change, the light's been on forever": schedule, change).
                doing &= term in self._verbs or (asks is not None and term not in asks)
        return out, doing

    def _referred(self, meant: Iterable[str], alone: bool) -> list[Word]:
        """What a request's references refer to (`re_3Mtw...`: a refund) as words it asks
        for, but a place unless it names nothing else (`alone`; `Referents.asked`)."""
        out: list[Word] = []
        for term in self._referents.asked(meant, alone):
            weight = self._idf.get(term)
            if weight is not None:
                if self._named and term not in self._named:
                    weight *= ARGUMENT_SHARE  # in no name: what to act on, not the call
                out.append((weight, frozenset([term]), frozenset()))
        return out

    def unbranded(self, wanted: Wanted, products: Collection[str]) -> Wanted:
        """`wanted` without the words that only name one of `products` (those the request
        names), for those products' results: every call of a product holds its name, so
        it tells none of them from another ("mute #random on slack": `slack.create_channel`
        holds "slack" only); the result's product earns `PRODUCT_SHARE` instead. A
        request that is nothing but a product's name keeps it."""
        brand = frozenset(t for slug in products for t in self._brands.get(slug, ()))
        if not brand:
            return wanted
        kept = [w for w in wanted[0] if not (w[1] and w[1] <= brand)]
        return (kept, wanted[1]) if kept else wanted

    def _before(self, clause: str, terms: Terms, at: re.Match[str] | None) -> Terms:
        """`terms` without those only of what follows `at` in `clause` (the clause that
        asks): what to send or write, not what is asked for: after a colon ("text +1
        415...: your table is ready"), after "asking" ("leave a comment asking whether the
        dates are final"), as after "saying" (analysis.Query.content)."""
        if at is None:
            return terms
        after, before = clause[at.end() :], clause[: at.start()]
        said = set(self._analyzer.terms(after)) - set(self._analyzer.terms(before))
        return tuple(t for t in terms if t not in said) or terms

    @staticmethod
    def held(
        words: list[Word], document: frozenset[str], name: frozenset[str] | None = None
    ) -> tuple[float, float]:
        """The weight of `words` that `document` (its terms) holds (a related term's at
        `RELATED_SHARE` when `name`, the terms of the endpoint's name, holds it or is not
        given, else at `DESCRIBED_SHARE`), and their total weight."""
        total = got = 0.0
        for weight, full, partial in words:
            total += weight
            if not full.isdisjoint(document):
                got += weight
            elif not partial.isdisjoint(document):
                named = name is None or not partial.isdisjoint(name)
                got += weight * (RELATED_SHARE if named else DESCRIBED_SHARE)
        return got, total

    @staticmethod
    def match(
        wanted: Wanted,
        document: frozenset[str],
        name_share: float = 1.0,
        asked: float = 0.0,
        name: frozenset[str] | None = None,
    ) -> float:
        """The share of what is wanted that `document` (its terms) holds; `name_share`:
        the share of the endpoint's name the request holds; `asked`: what the endpoint's
        integration earns as the one the request asks of (`product_share`); `name`: the
        terms of the endpoint's name (`held`)."""
        got, total = Matcher.held(wanted[0], document, name)
        held = wanted[1] * got / total if total else 0.0
        if name_share < NAME_AGREES and held < STRONG_MATCH:
            held *= NAME_PENALTY
        if held:
            held = min(1.0, held + asked)
        return held


def product_share(named: bool) -> float:
    """What a result earns in an integration the request names (`named`) or implies."""
    return PRODUCT_SHARE if named else CUED_SHARE


def fits(matches: Sequence[float]) -> bool:
    """Whether any result fits the request; if not, the answer says nothing does."""
    return any(m >= MATCH_FLOOR for m in matches)
