"""What leads the clause of a request that asks, when no clause asks in words ("can you",
"please": discovery/phrasing.py): a verb of doing ("Open an issue in acme/web ...", chat's
"drop a comment on it"), or a question ("what does my day look like?"); and the command a
clause that asks only to be told of what it brings up follows ("Pull up my page and tell me
what I wrote").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from skillgate.discovery.verbs import ACTING, CHANGING, READING

# The sentences of a text that end with a question mark (a period before a non-space is
# inside an address, a file's or a version's name: "is jane.doe@gmail.com on it?").
_QUESTIONS = re.compile(r"(?:[^.!?]|\.(?=\S))*\?")

# A sentence that asks a question ("What do I have going on tomorrow?").
_QUESTION = re.compile(
    r"^\W*(?:what|when|where|which|who|whose|how|why|is|are|was|were|do|does|did|has|have"
    r"|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
# A clause's first word, past "so", "and", "then"...
_FIRST_WORD = re.compile(r"^\W*(?:(?:so|and|then|just|also|now|ok|okay)\s+)*([a-z]+)\b", re.I)


# "like" leads chat ("like what's left to pay"), not a request; "file" and "log" lead one
# ("file a ticket", "log two hours"), as does every verb of `verbs.ACTING`: chat's for an
# action (CHAT_VERBS), the rarer ones asked of a product (RARER: "reset", "undo") and the
# others that open a command (OPENING: "swap", "suspend", "break ... into steps").
# "new" is no verb a clause opens with ("new job and I already forgot ..."): a request
# says "make a new ...", or "new issue in acme/web" as a whole.
_IMPERATIVE = (ACTING | CHANGING | READING | {"file", "log"}) - {
    "like",
    "new",
}


def imperative(clause: str) -> bool:
    """Whether `clause` starts with a verb of doing ("Open an issue in acme/web ...")."""
    m = _FIRST_WORD.match(clause)
    return m is not None and m.group(1).lower() in _IMPERATIVE


# At most this many words after a question's first clause offer its answers ("premium or
# free", "yes or no").
_OFFERED = 4


def question(clauses: tuple[str, ...], text: str) -> tuple[int, ...]:
    """The last clause that asks a question: a question's sentence, or the clause ending
    one that it starts ("trying to fit in a gym session - what does my day look like?")."""
    ends = [q.strip(" ?") for q in _QUESTIONS.findall(text)]
    asked = {q for q in ends if _QUESTION.match(q)}
    return tuple(
        i
        for i, c in enumerate(clauses)
        if c.strip() in asked
        or (_QUESTION.match(c) is not None and any(_within(c.strip(), q) for q in ends))
    )[-1:]


def _within(clause: str, question: str) -> bool:
    """Whether `clause` ends `question`'s sentence or starts it ("How many visitors did our
    website get, broken down by country? My boss wants it ..."), but for one whose rest
    offers its answers ("what plan am i on in spotify, premium or free?": as written)."""
    if question.endswith(clause):
        return True
    if not question.startswith(clause):
        return False
    rest = question[len(clause) :].strip(" ,").split()
    return not (len(rest) <= _OFFERED and "or" in rest)


# A clause that asks only to be told what another shows ("and tell me what I wrote").
_TOLD = re.compile(r"\s*(?:(?:and|then|so)\s+)?(?:tell|show|let)\s+me\b", re.IGNORECASE)


def told_of(clauses: Sequence[str], asking: tuple[int, ...]) -> tuple[int, ...]:
    """`asking` (the clauses that ask) with the command before the first of them first when
    that one only asks to be told of what the command brings up: "Pull up my OneNote page
    'Kyoto trip ideas' and tell me what I wrote about ryokans" asks for the page."""
    if not asking or asking[0] == 0 or asking[0] - 1 in asking:
        return asking
    told, before = asking[0], asking[0] - 1
    if _TOLD.match(clauses[told]) and imperative(clauses[before]):
        return (before, *asking)
    return asking
