"""Chat shorthand spelt out before a request is phrased (discovery/phrasing.py): "can u",
"pls", "whats on", "mtg w/ design tmrw" read as "can you", "please", "what's on", "meeting
with design tomorrow"."""

from __future__ import annotations

import re

from skillgate.discovery.literals import Runs

# Chat shorthand, as people type it to an assistant: the words it stands for (so "can u",
# "pls", "whats on" read as "can you", "please", "what's on").
_SHORTHAND = {
    "u": "you", "ur": "your", "pls": "please", "plz": "please", "pl": "please",
    "thx": "thanks", "thru": "through", "tmrw": "tomorrow", "tmr": "tomorrow",
    "tmw": "tomorrow", "2day": "today", "tdy": "today", "w/": "with", "w/o": "without",
    "mtg": "meeting", "mtgs": "meetings", "msg": "message", "msgs": "messages",
    "im": "I'm", "whats": "what's", "wheres": "where's", "dont": "don't", "cant": "can't",
    "didnt": "didn't", "isnt": "isn't", "wont": "won't", "b4": "before", "abt": "about",
    "fyi": "", "btw": "", "appt": "appointment", "appts": "appointments",
    "asap": "", "convo": "conversation", "convos": "conversations", "info": "information",
    "pic": "picture", "pics": "pictures", "doc": "document", "docs": "documents",
    "cal": "calendar", "mins": "minutes", "hrs": "hours", "wk": "week", "mo": "month",
}  # fmt: skip
_SHORT = re.compile(
    r"(?<![\w/@#.-])(?:"
    + "|".join(re.escape(k) for k in sorted(_SHORTHAND, key=len)[::-1])
    + r")(?![\w/@-])",
    re.IGNORECASE,
)


# The runs of the characters `_SHORT`'s look-around refuses next to a shorthand (word
# characters, "/", "@", "-"): a shorthand it matches is one of them whole (so a text none
# of whose runs is one has none).
_RUNS = Runs(r"\w/@-")


def unshorten(text: str) -> str:
    """`text` with its chat shorthand spelt out (the cheap test first; a text not all
    ASCII always goes through `_SHORT`, which reads letters case-insensitively as
    Unicode does: "pl\u017f" matches "pls" there but is no key, and stays as written)."""
    if text.isascii() and _SHORTHAND.keys().isdisjoint(_RUNS.findall(text.lower())):
        return text
    return _SHORT.sub(lambda m: _SHORTHAND.get(m.group(0).lower(), m.group(0)), text)
