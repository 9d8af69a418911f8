"""A request's verb, for its kind: reading or changing (discovery/kinds.py; docs/search-history.md,
seventh round). The query analysis (analysis.py) keeps it as `Query.lead`.

- A question that asks to read ("are there any salons ...", "did the PR get merged?",
  "why did the build fail", "how many members does it have",
  "who opened issue 1000", "what messages are sitting in my junk folder?", "did cus_9Kd2
  pay their last invoice?", "am I on the list?", "how's the project tracking?") has `get`
  for its verb (`asks_to_read`).
- Else the request's first word, once the lead-ins are out, when it is a verb of a kind
  (verbs.READING, CHANGING), but "get" with an indefinite object ("get me a cab", "can I
  get three tickets"), which obtains something and says no kind.
- Else the first verb of a kind of the clause that asks, but a participle ("the tickets
  *assigned* to me") or a word more often a noun there (verbs.MID_NOUNS: "my to-do
  *list*"): "My friends and I would like some help *finding* three hotel rooms": find.
- Else the first word's stem (a verb of no kind, or none).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from skillgate.discovery.verbs import CHANGING, MID_NOUNS, READING

# A question that asks to read, not to do ("why did the build fail", "how many ... are
# there", issue 26's references round; no other "how": "how do I add ..." asks for the add;
# no "what" beyond content.WHAT's forms: "what changed between v1.2 and v1.3" then lost
# the result whose match kept it unflagged).
_ASKS_TO_READ = re.compile(
    r"^\W*(?:what|whats|who|whose|which|when|where|why|is|are|was|were|am|has|have|any"
    r"|how(?:\s+(?:long|many|much|often|is|are|was|were)|'s)|(?:does|did)\s+\S+"
    r"|do\s+(?:you|we|i|they|he|she|it|the|my|our|any)\b)\b",
    re.IGNORECASE,
)
# "get" with an indefinite object obtains something, which may be a booking or a
# purchase: no reading.
_GET_ONE = re.compile(
    r"\bget\s+(?:me\s+|us\s+)?(?:a|an|two|three|four|five|some|\d+)\b", re.IGNORECASE
)


def asks_to_read(text: str) -> bool:
    """Whether `text` (a request, politeness out) is a question that asks to read."""
    return _ASKS_TO_READ.match(text) is not None


class Leads:
    def __init__(
        self, stems: Callable[[Iterable[str]], list[str]], words: Callable[[str], list[str]]
    ) -> None:
        """`stems`, `words`: the analyzer's (a word's stem; a text's words)."""
        self._stems, self._words = stems, words
        self._kind_verbs = frozenset(stems([*READING, *CHANGING]))
        self._mid_verbs = self._kind_verbs - frozenset(stems(MID_NOUNS))

    def of(self, text: str, stems: list[str]) -> str:
        """The verb of `text` (the request as analysed, its clause that asks first), whose
        stems, lead-ins out, are `stems` (see the module's docstring)."""
        if not stems or stems[0] in self._kind_verbs:
            if stems and stems[0] == "get" and _GET_ONE.search(text) is not None:
                return ""  # "get me a cab": to obtain, not to read
            return stems[0] if stems else ""
        # The clause that asks, up to a colon: what follows one is what to say or file
        # ("file a ticket: *export* to csv is broken").
        clause = text.split(" . ", 1)[0].split(": ", 1)[0]
        words = [w for w in self._words(clause) if not w.endswith("ed")]
        found = (s for s in self._stems(words) if s in self._mid_verbs)
        return next(found, stems[0])


# A word followed by what it acts on: a determiner, a pronoun, or a reference.
_DETERMINED = (
    r"\s+(?:the|a|an|my|our|your|his|her|their|this|that|these|those|it|them|me|us"
    r"|[\w.-]+/[\w.-]+|#\w)"
)


def acts_on(text: str, word: str) -> bool:
    """Whether `word` (lower case) stands in `text` before what it acts on."""
    return re.search(rf"\b{re.escape(word)}{_DETERMINED}", text, re.IGNORECASE) is not None
