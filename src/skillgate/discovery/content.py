"""What a request says beside the call it asks for (docs/catalog.md, "Search"): its
question forms ("tell me which...", "what's on my calendar") and its content ("open a
bug about the login page", "text my sister that I'm late"), read before its words
become terms (discovery/analysis.py).
"""

from __future__ import annotations

import re

from skillgate.discovery.literals import IN_QUOTES, CaseFree, hint

# A question put as a request ("tell me which...", "let me know if...", "I want to know
# whether..."): asks to see something, as "show" does, wherever the lead-ins end.
ASKING = re.compile(
    r"^(?:\W*(?:please|can|could|would|will|you|i|we|d|just|hey|hi|so|ok|okay)\b)*\W*"
    r"(?:tell (?:me|us)|let (?:me|us) know|(?:want|like|need) to know|wonder(?:ing)?"
    r"|(?:am|m) curious)\b",
    re.IGNORECASE,
)
ASKING_WORDS = hint("tell", "know", "wonder", "curious")  # each form holds one


def asks_to_see(text: str) -> bool:
    """Whether `text` opens with a question put as a request ("tell me which...")."""
    return ASKING_WORDS(text) and ASKING.match(text) is not None


# A question ("what's the status of ENG-301", "what does the doc say", "when was the sheet
# last modified", "what reason did she give": of one thing named, not things), also after
# "can you show me": asks to read one thing (get); "what's on my calendar", "what's in the
# folder": to list what it holds.
WHAT = re.compile(
    r"^\W*(?:(?:can|could|would|will|please|you|just)\s+)*(?:show\s+me\s+)?"
    r"(?:(?:what|when|where)(?:'s|\s+is|\s+are|\s+was|\s+were|\s+did|\s+does)"
    r"\s+(?P<held>on|in)?\b|(?:what|which)(?=\s+\w+(?<!s)\s+(?:did|does|is|was)\b))",
    re.IGNORECASE,
)


# What introduces a request's content rather than the call ("open a bug about the login
# page", "a channel called project-x", "comment saying LGTM"): the words after it are
# what to send or look for, and say little about which endpoint does it.
CONTENT = CaseFree(r"\b(?:about|regarding|saying|titled|called|named|mentions|mentioning)\b")
CONTENT_WORDS = hint(
    "about", "regarding", "saying", "titled", "called", "named", "mentions", "mentioning"
)
# "that" after a verb of telling, in the same clause, before a sentence's subject ("text
# my sister that I'm late"; not "the text of that email"): what follows is what to say.
TOLD_THAT = re.compile(
    r"\b(?:tell|text|email|message|ping|notify|remind|comment|reply|post|say|dm|sms|inform"
    r"|warn|respond|announce|write)\b(?:(?!\s\.\s)[^.])*?\b(that)\s+(?=(?:i|i'm|we|we're"
    r"|you|he|she|they|it|it's|the|our|my|his|her|their|everyone|nobody|someone|there)\b)",
    re.IGNORECASE,
)
# "remind me (tomorrow) to ...", "remind us about ...": what follows "to" or "about" is the
# reminder's text, not the call ("remind me to renew my passport" is no token renewal).
REMIND_TO = re.compile(
    r"\bremind\s+(?:me|us|him|her|them|everyone)\b(?:(?!\s\.\s)[^.])*?\b(to|about)\s+\w",
    re.IGNORECASE,
)
# "search my inbox for ...": what follows "for" is what to look for in the place searched,
# not the call ("search my Gmail for the flight confirmation": no flight is asked of).
SEARCHED_FOR = re.compile(
    r"\b(?:search|comb\s+through|dig\s+through|look\s+through|go\s+through)\s+"
    r"(?:my|our|the|this|that|your)\b(?:(?!\s\.\s)[^.])*?\b(for)\s+\w",
    re.IGNORECASE,
)
# Not after a word that asks about the thing itself ("tell me about", "details about a
# user"): there what follows is what to get.
ASKS_ABOUT = frozenset(["me", "us", "info", "information", "details", "know", "more"])


# A name ends where a place follows it ("a tab called June *to the* budget sheet", "a
# channel named launch *in our* workspace"): the place is part of what is asked.
_NAMING = frozenset(["titled", "called", "named"])
_PLACE = re.compile(
    r"\s(?:to|in|into|on|onto|under|inside|within)\s+(?:the|my|our|your|this|that)\b",
    re.IGNORECASE,
)
# A thing's own name made of words and hyphens, said before the kind of thing it is
# ("the acme-backups bucket", "the growth-analytics project"): what to act on, not words
# of the call ("backups" is no Cloud SQL backup). Its words are content. (Said alone,
# "a backup of billing-db", a name's words often say its kind, "db", and one with a
# digit, "us-central1-a", is a value values.py reads: both measured worse as content.)
_HYPHENATED = re.compile(r"(?<![\w@./#:-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w@/-])")
_KINDS = (
    r"bucket|project|database|db|instance|server|site|repo|repository|cluster|dataset|table"
    r"|vm|app|service|droplet|space|workspace|environment|branch|channel|org|team|domain"
)
_KIND_AFTER = re.compile(rf"\s+(?:{_KINDS})s?\b", re.IGNORECASE)


def _is_name(name: str, after: str) -> bool:
    return not any(ch.isdigit() for ch in name) and bool(_KIND_AFTER.match(after))


def resource_names(text: str) -> tuple[str, str]:
    """(`text` without the names of things it holds, those names): see `_HYPHENATED`."""
    if "-" not in text:
        return text, ""
    names: list[str] = []
    kept: list[str] = []
    at = 0
    for m in _HYPHENATED.finditer(text):
        if _is_name(m.group(), text[m.end() :]):
            kept.append(text[at : m.start()])
            names.append(m.group())
            at = m.end()
    if not names:
        return text, ""
    kept.append(text[at:])
    return "".join(kept), " ".join(names)


# Where the content ends: the clause phrasing.py set apart (" . "), or the sentence.
_SENTENCE_END = re.compile(r" \. |[.?!]+(?:\s+|$)")


# Quoted text of several words (not an apostrophe: "Sam's"): a title or a message, as
# written. One word quoted ("move 'pointA'", "the '.data' files") names what is acted on.
_QUOTED = re.compile(
    rf"\"[^\"]*\s[^\"]*\"|\u201c[^\u201d]*\s[^\u201d]*\u201d|(?<!\w)'{IN_QUOTES}*\s{IN_QUOTES}*'(?!\w)"
)


def split_content(text: str) -> tuple[str, str]:
    """(the request without its content, the content): `_marked`, then the names of
    things the rest holds (`resource_names`) and its quoted words ("mark the 'Update
    privacy policy' item as done": a title, no words of the call) are content too."""
    asked, content = _marked(text)
    asked, names = resource_names(asked)
    if asked.count("'") > 1 or asked.count('"') > 1 or "\u201c" in asked:  # two marks
        quoted = " ".join(m.group()[1:-1] for m in _QUOTED.finditer(asked))
        if quoted.strip():
            asked = _QUOTED.sub(" ", asked)
            names = f"{names} {quoted}" if names else quoted
    return asked, f"{content} {names}" if names else content


def _marked(text: str) -> tuple[str, str]:
    """(the request without its content, the content): split at the first word of
    `CONTENT` that has words before it, none of `ASKS_ABOUT` just before."""
    marker = CONTENT.search(text) if CONTENT_WORDS(text) else None
    lower = text.lower()
    told = TOLD_THAT.search(text) if "that" in lower else None
    if told is not None and (marker is None or told.start(1) < marker[0]):
        marker = told.span(1)  # what to tell ("text my sister that I'm running late")
    colon = text.find(": ") if "?" not in text else -1
    if colon > 0 and " . " not in text[:colon] and (marker is None or colon < marker[0]):
        marker = (colon, colon + 2)  # what to send or file ("file a ticket: the export ...")
    searched = SEARCHED_FOR.search(text) if " for " in lower else None
    if searched is not None and (marker is None or searched.start(1) < marker[0]):
        marker = searched.span(1)  # what to look for ("search my inbox for the receipt")
    reminded = REMIND_TO.search(text) if "remind" in lower else None
    if reminded is not None and (marker is None or reminded.start(1) <= marker[0]):
        marker = reminded.span(1)  # what to be reminded of ("remind me about": not asked)
    elif marker is None:
        return text, ""
    else:
        before = text[: marker[0]].split()
        if not before or before[-1].lower() in ASKS_ABOUT:
            return text, ""
    start, end = marker
    # The clauses phrasing.py put after the one that asks are not its content, nor the
    # sentences after its own ("they'll ask about growth. how many users came?").
    ends = _SENTENCE_END.search(text, end)
    content, others = text[end:], ""
    if ends is not None:
        content, others = text[end : ends.start()], text[ends.end() :]
    asked = text[:start]
    if text[start:end].lower() in _NAMING:
        place = _PLACE.search(content)
        if place is not None:  # "a tab called June *to the Timesheet sheet*": where, asked
            asked, content = f"{asked} {content[place.start() :]}", content[: place.start()]
    return f"{asked} . {others}" if others else asked, content
