"""How a request is phrased, before its words become terms (docs/catalog.md, "Search").

People ask an assistant in sentences: "my boss wants the numbers, can you append a row to
the sales sheet", "hey, could you please see if anyone replied to my email", "push my
dentist appointment to next Tuesday". Three things are read off the phrasing, all of it
general English, none of it about one integration:

- **the request clause**: a request of several clauses (split at `,;:!?.`, dashes, and
  so/and/but before an ask, and "so" before what it is for: "... right away so she can't
  sign in"; never inside quoted text: "put 'Airport pickup - Jess' on my
  calendar") whose one clause asks for something (`_ASKS`: "can you",
  "please", "I need you to", "go ahead and", "the user wants me to", "it'd be great
  if"...) is that clause: it comes first, the others after it (their words still
  search; the clauses before it are its `background`, which confidence.py leaves out of
  `match`); with `imperative` (confidence.py's reading, not the ranking's: BFCL lost
  2 top-1 hits with it in the ranking), when none asks, the first that starts with a
  verb of doing (chat's too: "drop a comment on it", "hook that domain up"), else the
  last sentence, or clause ending one, that asks a question ("What do I have going
  on?", not "Any suggestions?"; "trying to fit in a gym session - what does my day
  look like?");
- **politeness** (`_POLITE`: "would you mind", "if it's not too much trouble", "I was
  wondering if you could") is left out, so the verb leads the request wherever it
  stands; "see if", "find out if" ask to see something, as "show me" does ("check
  whether": check); "let Sam know" tells Sam; chat shorthand is spelt out first
  (discovery/shorthand.py: "can u", "pls", "tmrw");
- **when** (`times.WHEN`: "next Tuesday", "at 3pm", "tomorrow morning", "this week", "on
  Friday", "for 30 minutes", "around 1", "2023-06-15", "05/10/2023") is an argument of
  the call, never its object: left out of the request, kept as context ("next" is not
  Spotify's `skip_to_next`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from skillgate.discovery.idioms import idioms
from skillgate.discovery.leading import imperative as _commands
from skillgate.discovery.leading import question as _questioned
from skillgate.discovery.leading import told_of as _told_of
from skillgate.discovery.literals import IN_QUOTES, CaseFree, cut, hint
from skillgate.discovery.shorthand import unshorten
from skillgate.discovery.times import WHEN, may_say_when

# Where a sentence's clauses part (each part holds a `_CLAUSE_MARK`).
# Chat's laughter and asides end a thought as a comma does ("practice got cancelled lol
# just nuke it").
# So do emoji ("the deposit is PAID \U0001f389 mark it complete").
_EMOJI = "\u2600-\u27bf\U0001f300-\U0001faff"
_MARKS, _DASH, _END = r"[,;:!?]+\s+|\.\s+", r"\s+[-\u2013\u2014]+\s+", r"[?!.]+$"
_ASIDES = rf"\s+(?:lol|lmao|haha|tbh|smh)\s+|\s*[{_EMOJI}]+\s*"
_CLAUSE = re.compile(f"{_MARKS}|{_DASH}|{_END}|{_ASIDES}", re.IGNORECASE)
# The same, in the same order, without the forms an ASCII text holding no aside (and no
# dash) cannot hold: the same parts for a quarter of the cost (`\s` starts an aside's
# forms: they were tried at every space).
_ASIDE = hint("lol", "lmao", "haha", "tbh", "smh")
_DASHED = re.compile(f"{_MARKS}|{_DASH}|{_END}")
_PLAIN = re.compile(f"{_MARKS}|{_END}")
# Each part holds one of these (its dashes and emoji are no ASCII: a text not all ASCII
# always goes through `_CLAUSE`): looked up in C, cheaper than a pass of their class.
_CLAUSE_MARK = hint(",", ".", "?", "!", ":", ";", "-", "lol", "lmao", "haha", "tbh", "smh")
# Quoted text (not an apostrophe: "Sam's"), and the marks of a clause's end in it as
# characters of Unicode's private use, which no clause mark is, and back.
_QUOTED = re.compile(rf"\"[^\"]*\"|\u201c[^\u201d]*\u201d|(?<!\w)'{IN_QUOTES}*'(?!\w)")
_MARK_CHARS = ",;:!?.-\u2013\u2014"
_MASK = str.maketrans(_MARK_CHARS, "".join(chr(0xE000 + i) for i in range(len(_MARK_CHARS))))
_UNMASK = {v: k for k, v in _MASK.items()}
# A request relayed by an agent ("the user wants me to ..."): the user's request.
_RELAYED = (
    r"(?:the\s+)?(?:user|customer|client|caller)\s+(?:wants|would\s+like|is\s+asking|asks"
    r"|asked|needs)\s+(?:me|us)\s+to"
)
# A request put as a wish ("it'd be great if the team got ...", "I'd be so grateful if you
# could ...").
_WOULD_BE_GOOD = (
    r"(?:it|that|i)?\s*(?:'d|\s+would)?\s*be\s+(?:so\s+|really\s+|very\s+|super\s+)?(?:great"
    r"|nice|good|amazing|awesome|helpful|grateful|thankful)\s+if(?:\s+you\s+could)?"
)
# A request put as a possibility ("any chance you could ...", "is there any way to ...").
_ANY_WAY = (
    r"any\s+chance\s+(?:that\s+)?you\s+(?:could|can|would|might)"
    r"|(?:is\s+there\s+)?(?:any|a)\s+way\s+(?:to|you\s+(?:could|can))"
    r"|do\s+you\s+think\s+you\s+could"
)
# "I need to see ...", "I just want to read ...", "I need the rows": the speaker's own
# need, which asks to be shown when no clause asks the assistant (`_direct_first`).
_NEEDS = (
    r"i\s+(?:just\s+)?(?:need|want)\s+to\s+(?:see|know|find|check|get|read)"
    r"|i\s+need\s+(?=(?:all|the|a|an|my|our|some|every)\s)"
)
# A clause that asks for something.
_ASKS = CaseFree(
    r"\b(?:(?:can|could|would|will)\s+you|please|pls|i\s*(?:'d|would)?\s*(?:need|want|like|love)"
    r"\s+(?:you|it\s+if|to\s+know)|(?:need|want)\s+you\s+to|go\s+ahead"
    rf"|{_NEEDS}"
    r"|let\s+me\s+know|tell\s+me|i\s*(?:'m|\s+am)?\s*(?:wondering|curious)|help\s+(?:me|us)"
    rf"|{_RELAYED}|{_WOULD_BE_GOOD}|what\s+i\s+need\s+is|(?:can|could|may)\s+i\s+(?:get|see)"
    rf"|{_ANY_WAY})\b"
)
# The forms of `_ASKS` that state the speaker's own need ("I need to get Marcus and Elena
# together ...") rather than ask the assistant: a later clause that asks it ("... could
# you find a slot") is the request (`_direct_first`).
_SELF = re.compile(rf"\b(?:{_NEEDS})\b", re.IGNORECASE)
# Each form of `_ASKS` holds one of these.
_ASKS_WORDS = hint(
    "you", "please", "pls", "need", "want", "like", "love", "ahead", "know", "tell",
    "wondering", "curious", "help", "user", "customer", "client", "caller", "great", "nice",
    "good", "amazing", "awesome", "helpful", "grateful", "thankful", "get", "see", "way",
)  # fmt: skip
# "..., so I need all the rows", "... and can you ...": a request joined to its background
# by a conjunction starts a clause of its own.
# A lead-in may stand between ("... is fine but honestly I need ...").
_JOINED_ASK = re.compile(
    rf"\s+(?:so|and|but)\s+(?:(?:honestly|really|just|also|now|actually)\s+)?"
    rf"(?=(?:{_ASKS.pattern.pattern}))",
    re.IGNORECASE,
)
# "... so she can't sign in anymore", "... so people know I'm out": what a request is for
# is a clause of its own, not what it asks.
_PURPOSE = re.compile(
    r"\s+so\s+(?:that\s+)?(?=(?:i|you|he|she|we|they|it|people|everyone|nobody|the\s+\w+)\s)",
    re.IGNORECASE,
)
# Politeness around a request: left out.
_POLITE = CaseFree(
    r"\b(?:(?:i\s+was\s+)?wondering\s+if\s+you\s+could|would\s+you\s+mind"
    r"|(?:would|will)\s+you\s+be\s+able\s+to|(?:are|were)\s+you\s+able\s+to"
    r"|if\s+it'?s\s+not\s+too\s+much\s+trouble|when(?:ever)?\s+you\s+(?:get|have)\s+a"
    r"\s+(?:chance|minute|sec(?:ond)?)|sorry\s+to\s+(?:bother|trouble)\s+you(?:\s+but)?"
    r"|(?:do|doing)\s+me\s+a\s+fav(?:ou)?r\s+and|go\s+ahead\s+and|quick\s+question"
    r"|i\s*(?:'d|\s+would)\s+(?:love|like)\s+(?:it\s+)?if\s+you\s+could"
    r"|i\s+(?:need|want)\s+you\s+to|is\s+it\s+possible\s+to|(?:hey|hi|hello)\s+there"
    rf"|help\s+(?:me|us)(?:\s+(?:to|with))?|{_RELAYED}|{_WOULD_BE_GOOD}|what\s+i\s+need\s+is"
    r"|(?:can|could|may)\s+i(?=\s+(?:get|see)\b)"
    # "just curious, how much ...", "out of curiosity: ...": a lead-in, not a clause.
    r"|(?:just\s+|i\s*'?m\s+|i\s+am\s+)?curious(?=\s*[,:;.!-])|out\s+of\s+curiosity"
    rf"|{_ANY_WAY})\b"
)
# Asking whether something is so: asks to see it.
_WHETHER = re.compile(
    r"\b(?:(?P<verb>check|verify|confirm)|see|find\s+out|look|know)\s+(?:if|whether)\b",
    re.IGNORECASE,
)


_IF = hint("if", "whether")  # each form of `_WHETHER` holds one


def _whether(m: re.Match[str]) -> str:
    """ "check whether": check (an API verb the tables know); "see if": show me."""
    return f" {m.group('verb') or 'show me'} "


# "let Sam know ...", "let the Sales channel in Teams know ...": tell them (not "let me know",
# which asks to be told: `_ASKS`).
_LET_KNOW = re.compile(r"\blet\s+(?!me\b|us\b)((?:\S+\s+){1,6}?)know\b", re.IGNORECASE)


class Phrased(NamedTuple):
    request: str  # what is asked for, politeness and times left out
    context: str  # the other clauses and the times: content, not the call
    background: str = ""  # the clauses before the one that asks ("Long story, but ...")


# Each form of `_POLITE` holds one of these.
_POLITE_WORDS = (
    "you", "if", "quick", "there", "help", "me to", "us to", "need", " i ", "way", "curio"
)  # fmt: skip


def _polite(text: str) -> str:
    """`text` without its politeness (the cheap test first: each form holds one of these)."""
    lower = text.lower()
    if any(w in lower for w in _POLITE_WORDS):
        text = _POLITE.sub(" ", text)
    return text


# What is left at a request's start once politeness is out: punctuation, "but", "so".
_LEFT = re.compile(r"^(?:[\s,;:.!?-]|\b(?:but|and|so|then)\b)+", re.IGNORECASE)


# A comma in a list of names ("Jordan, Aisha, Wei and I are free"): no clause ends there.
_NAMES = re.compile(r"\b([A-Z][a-z]+),(?=\s+[A-Z][a-z]+(?:,|\s+(?:and|or)\s))")


# A title's period before a name ("text Mrs. Alvarez that ...", "Dr. Lee"): no sentence
# ends there, so the period goes (else the request parts at it, and what follows "that"
# is no longer read as what to say).
_TITLED = re.compile(r"\b(Mrs|Mr|Ms|Mx|Dr|Prof|Sr|Jr|St)\.(?=\s+[A-Z])")


# Words of a clause that only asks or fills ("uh can you, like, turn the music down":
# "uh can you" and "like" name nothing): such a clause is one with the next.
_BARE = frozenset(
    ["uh", "um", "er", "hmm", "like", "so", "hey", "hi", "hello", "please", "can", "could",
     "would", "will", "you", "just", "ok", "okay", "well", "oh", "honestly", "actually",
     "anyway", "yeah", "and", "but", "then"]
)  # fmt: skip
_BARE_WORD = re.compile(r"[a-z']+")


def _joined_bare(clauses: list[str]) -> list[str]:
    """`clauses` with each that holds nothing but `_BARE` words joined to the next."""
    out: list[str] = []
    carried = ""
    for clause in clauses:
        clause = f"{carried} {clause}" if carried else clause
        words = _BARE_WORD.findall(clause.lower())
        if words and _BARE.issuperset(words) and not clause.rstrip().endswith(("?", ".")):
            carried = clause
        else:
            out.append(clause)
            carried = ""
    if carried and out:  # a tag at the end ("..., would you?") is the last clause's
        out[-1] = f"{out[-1]} {carried}"
    elif carried:
        out.append(carried)
    return out


def _split(text: str) -> list[str]:
    """`text`'s parts (`_parts`), quoted text one clause's whatever marks it holds ("put
    'Airport pickup - Jess' on my calendar", "rename it to \"Budget, final\"")."""
    if '"' in text or "'" in text or "\u201c" in text:
        masked = _QUOTED.sub(lambda quoted: quoted[0].translate(_MASK), text)
        if masked != text:
            return [part.translate(_UNMASK) for part in _CLAUSE.split(masked)]
    return _parts(text)


def _parts(text: str) -> list[str]:
    """`_CLAUSE.split(text)`, by the pattern of only the forms `text` may hold."""
    if _ASIDE(text):  # (a text not all ASCII: True)
        return _CLAUSE.split(text)
    return (_DASHED if "-" in text else _PLAIN).split(text)


class _Clauses(NamedTuple):
    text: str  # shorthand spelt out, times left out
    times: tuple[str, ...]
    clauses: tuple[str, ...]
    asking: tuple[int, ...]  # the clauses that ask (none when there is one clause)


@lru_cache(maxsize=4)
def _clauses(text: str) -> _Clauses:
    """`text`'s clauses and times, kept for the few last texts: a request is phrased for
    its terms (analysis.py) and again for its `match` (confidence.py)."""
    if "." in text:
        text = _TITLED.sub(r"\1", text)
    text = idioms(unshorten(text))
    times: list[str] = []
    if any(c.isalpha() for c in text) and may_say_when(text):
        spans = WHEN.spans(text)
        times = [text[start:end] for start, end in spans]
        text = cut(text, spans, " ")
    if ", " in text:  # a list of names is no clause each ("with Dana, Luis and Mei")
        text = _NAMES.sub(r"\1", text)
    parts = _split(text) if _CLAUSE_MARK(text) else [text]
    clauses = [c for c in parts if c and c.strip()]
    if (" so " in text or " and " in text or " but " in text) and _ASKS_WORDS(text):
        clauses = [p for c in clauses for p in _JOINED_ASK.split(c) if p and p.strip()]
    if " so " in text:
        clauses = [p for c in clauses for p in _PURPOSE.split(c) if p and p.strip()]
    if len(clauses) > 1:
        clauses = _joined_bare(clauses)
    asking = []
    if len(clauses) > 1:
        asking = [i for i, c in enumerate(clauses) if _ASKS_WORDS(c) and _asks(c)]
    return _Clauses(text, tuple(times), tuple(clauses), _direct_first(clauses, asking))


# What makes the need after it a condition, not an ask ("trying to decide if I need a coat").
_CONDITION = ("if", "whether")


def _asks(clause: str) -> bool:
    """Whether `clause` asks for something (`_ASKS`), not as a condition ("if I need")."""
    found = _ASKS.search(clause)
    if found is None:
        return False
    before = clause[: found[0]].split()
    return not before or before[-1].lower() not in _CONDITION


def _direct_first(clauses: list[str], asking: list[int]) -> tuple[int, ...]:
    """`asking` (the clauses that ask) with the first that asks the assistant first, when
    the first only states the speaker's need (`_SELF`): "I need to find an hour with Dana
    and Luis. Can you look at their calendars ...": the second is the request; when none
    asks it, a command that opens the request ("Search my Gmail for the flight
    confirmation from Lufthansa, I need the booking code": the search)."""
    if not asking or (len(asking) == 1 and asking[0] == 0):
        return tuple(asking)  # (most requests: nothing to put first)
    me = [i for i in asking if _ASKS.search(_SELF.sub(" ", clauses[i])) is not None]
    if asking[0] and not me and _commands(clauses[0]):
        return (0, *asking)
    if len(asking) < 2 or not me or me[0] == asking[0]:
        return tuple(asking)
    return (me[0], *(j for j in asking if j != me[0]))


def phrased(text: str, imperative: bool = False) -> Phrased:
    """The request in `text` and its context; `imperative`: when no clause asks, the
    first that starts with a verb of doing does ("URGENT: the deploy broke login. Open an
    issue ..."), and a command before the clause that asks first, when that one only asks
    to be told of what it brings up ("Pull up my page and tell me what I wrote")."""
    if imperative:  # it reads otherwise only where no clause asks and there are several,
        found = _clauses(text)  # or where the one that asks first is told of a command's
        imperative = not found.asking and len(found.clauses) > 1
        imperative |= _told_of(found.clauses, found.asking) != found.asking
    return _phrased(text, imperative)  # so both readings share the one kept


def commanded(text: str) -> Phrased:
    """`phrased` as the ranking reads a request. When no clause asks, a story first and
    then a clause that starts with a verb of doing: that clause first, as the match
    reads it ("poor guy got charged twice because checkout hiccuped, refund the second
    charge"). A request with a question after that clause stays as written ("I'm in the
    mood for a laugh. Find me a comedy?"): BFCL lost top-1 hits with it in the ranking.
    One whose questions come before it is that clause first ("my manager wants a status
    update. what's on my plate? list the tickets assigned to me"). With no such clause, a
    story and then a question is the question first, as the match reads it ("I think I
    deleted the wrong file yesterday... what's in my trash right now?"), but for one put
    to the assistant ("I'm looking for a Music event ... Do you have any suggestions?":
    the one BFCL question it lost)."""
    found = _clauses(text)
    if found.asking or len(found.clauses) < 2:
        return phrased(text)
    first = next((c for c in found.clauses if _commands(c)), None)
    if first is None and "?" in found.text and _story_then_question(text, found):
        return phrased(text, imperative=True)
    if first is None or first is found.clauses[0]:
        return phrased(text)
    if "?" in found.text and found.text.rfind("?") > found.text.find(first):
        return phrased(text)  # a question after the command: as written
    return phrased(text, imperative=True)


# A question put to the assistant itself ("Do you have any suggestions?", "can you help?"):
# it asks for what the story before it wants, which the story names.
_TO_YOU = re.compile(r"^\W*\w+\s+you\b", re.IGNORECASE)


def _story_then_question(text: str, found: _Clauses) -> bool:
    """Whether a request (`text`, its clauses `found`) that asks nothing in words and holds
    no command is a story and then a question ("I think I deleted the wrong file
    yesterday... what's in my trash right now?"), not one put to the assistant ("... Do you
    have any suggestions?")."""
    asked = _question(text)
    return bool(asked) and asked[0] > 0 and _TO_YOU.match(found.clauses[asked[0]]) is None


@lru_cache(maxsize=4)
def _question(text: str) -> tuple[int, ...]:
    """The clause of `text` (its `_clauses`) that asks a question last, kept
    for the few last texts: the ranking's reading looks for it (`_story_then_question`)
    and the match's then reads it (`_phrased`)."""
    found = _clauses(text)
    return _questioned(found.clauses, found.text)


@lru_cache(maxsize=4)
def _phrased(text: str, imperative: bool) -> Phrased:
    """`phrased`, kept for the few last texts: a request is phrased for its terms
    (analysis.py) and, the same unless `imperative` reads it otherwise, for its `match`
    (confidence.py)."""
    written = text
    text, times, clauses, asking = _clauses(text)
    if imperative:
        asking = _told_of(clauses, asking)
    if imperative and not asking and len(clauses) > 1:  # the first that says what to do
        asking = tuple(i for i, c in enumerate(clauses) if _commands(c))[:1]
        if not asking and "?" in text:  # else the sentence that asks a question
            asking = _question(written)
    background = ""
    if asking:
        # The clause that asks first, then the others (their words still search).
        first = asking[0]
        background = " ".join(clauses[:first])
        ordered = [clauses[first], *clauses[:first], *clauses[first + 1 :]]
        text = " . ".join(c for c in (_LEFT.sub("", _polite(c)).strip() for c in ordered) if c)
    else:
        text = _LEFT.sub("", _polite(text))
    if _IF(text):
        text = _WHETHER.sub(_whether, text)
    if "know" in text.lower():
        text = _LET_KNOW.sub(r"tell \1", text)
    return Phrased(" ".join(text.split()), " ".join(times), background)
