"""When a request says when: the times of a request are arguments of the call, never its
object (discovery/phrasing.py leaves them out of the request and keeps them as context;
"next" is not Spotify's `skip_to_next`). General English: days, months, dates, clock
times, spans ("for 30 minutes", "this week") and the day's events ("before standup",
"after lunch").
"""

from __future__ import annotations

import re

from skillgate.discovery.literals import CaseFree, hint

# The days and months, in one place: the times below read them, and the speller corrects
# to them ("wendesday": discovery/texts.py's `table_words`).
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
_DAY = f"(?:{'|'.join(d.removesuffix('day') for d in DAYS)})day" + (
    r"|weekend|tonight|today|tomorrow|yesterday|morning|afternoon|evening|night|noon|midnight"
)
_UNIT = r"minute|min|hour|hr|day|week|month|quarter|year"
# Each month's name, then its first three letters (and "sept"), as people shorten them.
_SHORT_MONTHS = [m[:3] for m in MONTHS]
_MONTH = "|".join(
    [*MONTHS, *(s + ("|sept" if s == "sep" else "") for s in _SHORT_MONTHS if s not in MONTHS)]
)
# The start of a time ("Friday", "next week", "3pm"): what something is moved to when it
# is rescheduled (idioms.py), as a regular expression.
STARTS = (
    rf"(?:(?:next|this|the)\s+)?(?:{'|'.join(DAYS)}|week\b|month\b)|tomorrow\b|today\b"
    r"|tonight\b|noon\b|\d{1,2}(?::\d{2})?\s*(?:am|pm)\b"
)
# When: an argument of the call. Longest forms first; each may be led by a preposition.
WHEN = CaseFree(
    rf"\b(?:(?:on|at|by|until|till|before|after|around|from|for|to|in|next|this|last|every|each"
    rf"|coming|the)\s+)*"
    rf"(?:(?:(?:{_DAY})s?(?:\s+(?:morning|afternoon|evening|night))?)"
    rf"|(?:(?:next|this|last|every|coming)\s+(?:{_UNIT})s?)"
    rf"|(?:\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)\b)|(?:(?<=around\s)\d{{1,2}}\b)"
    rf"|(?:\d{{1,2}}:\d{{2}})"
    # "before standup", "after lunch": a time of the day's events.
    rf"|(?:(?:before|after|until|till)\s+(?:the\s+|my\s+|our\s+)?(?:stand-?up|lunch|breakfast"
    rf"|dinner|class|school|work|practice|meeting))"
    rf"|(?:\d{{4}}[-./]\d{{1,2}}[-./]\d{{1,2}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?)"
    rf"|(?:\d+\s*(?:{_UNIT})s?)"
    rf"|(?:(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?)"
    rf"|(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})))"
    rf"(?:\s+at\s+\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm)?)?\b"
)


# Each form of `WHEN` holds one of these words, or a digit and then what `_NUMBERED`
# reads, or what `_DATED` or `_NEXT_UNIT` read (a month's name before a digit, "next"
# before a unit): a text holding none needs no pass of `WHEN` (`may_say_when`, cheaper by
# far).
_WHEN_WORDS = hint(
    "day", "weekend", "night", "tomorrow", "morning", "noon", "evening", "around", "before",
    "after", "until", "till",
)  # fmt: skip
_MONTHS = "|".join(_SHORT_MONTHS)  # what every name of `_MONTH` starts with
_UNITS = "min|hour|hr|week|month|quarter|year"  # `_UNIT`'s but "day", one of `_WHEN_WORDS`
_NUMBERED = re.compile(rf"\d[\d\s]*(?:[:/.\-]|[ap]m|st|nd|rd|th|of|{_MONTHS}|{_UNITS})")
# (Two patterns: each then starts with literals, which the regex engine scans for.)
_DATED = re.compile(rf"(?:{_MONTHS})[a-z]*\s+\d")
_NEXT_UNIT = re.compile(rf"(?:next|this|last|every|coming)\s+(?:{_UNITS})")


def may_say_when(text: str) -> bool:
    """Whether `WHEN` may find a time in `text` (False: it finds none)."""
    if _WHEN_WORDS(text):  # (a text not all ASCII: True)
        return True
    lower = text.lower()
    return any(p.search(lower) is not None for p in (_NUMBERED, _DATED, _NEXT_UNIT))
