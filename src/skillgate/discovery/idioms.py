"""Phrasal verbs and idioms of everyday English, as the plain verbs they stand for
(discovery/phrasing.py reads a request through them first; docs/catalog.md, "Search").

People ask an assistant to "dig up that email", "drop a note in #eng", "put on some
jazz", "bump the 3pm to Thursday", "bounce the database": the APIs say find, post a
message, play, reschedule, restart. The table is general English, written from how
people talk, not from any API's words or any one request: the synonym tables
(discovery/synonyms.py) then read the plain verb as they read any other.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from skillgate.discovery.literals import Needed, folded, needed
from skillgate.discovery.putting import PUTTING
from skillgate.discovery.times import STARTS

# (A name may carry its address in brackets: "shoot Marcus (marcus@acme.io) an email".)
_WHOM = r"(?:(?:me|him|her|them|us|everyone|the\s+team|[A-Z][a-z]+)\s+(?:\([^()\s]+\)\s+)?)?"
# Phrasal verbs and idioms of everyday English for what an assistant is asked to do, as
# the plain verb they stand for ("dig up that email": find; "drop a note in #eng": post
# a message; "put on some jazz": play). General English, not any API's words: the
# synonym tables then read the plain verb as they read any other.
_IDIOMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), plain)
    for pattern, plain in (
        # "pull up the invoice", "bring up her record": show it (one thing, or a list; "pull
        # up suspenseful movies" finds some).
        (
            r"\b(?:pull|bring)\s+(?:(?:it|them|that|this)\s+)?up\b(?=\s*$|\s+(?:the|my|our|your"
            r"|his|her|their|that|this|those|these|a|an|everything|all|every|whatever|what)\b)",
            "show",
        ),
        (
            r"\b(?:dig|hunt|track|pull|bring)\s+(?:(?:it|them|that|this)\s+)?(?:up|down|out)\b",
            "find",
        ),
        (
            r"\bdrop\s+" + _WHOM + r"(?:a\s+)?(?:quick\s+)?(?:note|line|message|msg|word)\b",
            "post a message",
        ),
        (
            r"\b(?:shoot|fire\s+off|send\s+off|ping)\s+"
            + _WHOM
            + r"(?:an?\s+)?(?:quick\s+)?(?=e-?mail|message|text|note|dm)",
            "send ",
        ),
        (r"\b(?:jot|write|note|put)\s+(?:(?:it|them|this|that)\s+)?down\b", "write a note"),
        # "jot a quick note", "jot that the order shipped": write (after "jot down").
        (r"\bjot\b", "write"),
        # A person's schedule is their calendar ("look at his schedule"); a schedule of
        # anything else (a pipeline's, a subscription's) stays one.
        (r"\b((?:my|his|her|their|our|your)\s+)schedule\b(?!\s+(?:of|for)\b)", r"\1calendar"),
        (r"\bput\s+on\b", "play"),
        # "check off the todo", "cross milk off my list": mark it done.
        (
            r"\b(?:check|cross|tick)\s+(?!(?:in|out|up|on)\b)((?:\S+\s+){0,3}?)off\b",
            r"mark \1as done",
        ),
        (r"\b(?:spin|fire)\s+up\b", "create"),
        # "open a bug", "open an issue", "open a new PR": create one ("open issues", "open
        # the attachment" are no new thing; `ACTIONS` no longer reads "open" as create).
        (r"\bopen\s+(?:up\s+)?(?=(?:a|an|new|another)\s)", "create "),
        (r"\b(?:get\s+rid\s+of|tear\s+down|nuke)\b", "delete"),
        # "take him off the mailing list", "take her off it": remove them from it.
        # (Not "take Friday off": what follows says from what.)
        (
            r"\btake\s+((?:him|her|them|me|us|it|(?-i:[A-Z][a-z]+)|\S+@\S+|(?:the|that|this|those"
            r"|these|my|our)\s+(?:\S+\s+){0,3}?\S+)\s+)off\s+"
            r"(?=(?:the|my|our|your|this|that|these|those|it|them|his|her|their)\b)",
            r"remove \1from ",
        ),
        (r"\bloop\s+(\S+(?:\s+\S+)?)\s+in\b", r"add \1"),
        # "bump the priority", "bump up the severity": raise it (not reschedule it).
        (
            r"\bbump\s+(?:up\s+)?(?=(?:the|its|this|that|my|our|his|her|their)\s+(?:[\w-]+\s+)?"
            r"(?:priority|severity|version|limit|quota|plan|tier|seats?|deps|dependencies"
            r"|estimate|points)\b)",
            "update ",
        ),
        # "push the site live": deploy it (before "push the meeting": reschedule it).
        (
            r"\b(?:push|put|take)\s+((?:\S+\s+){0,3}?)live\b(?=\s*(?:$|[.,;!?]|(?:on|to|for"
            r"|today|tonight|now|tomorrow|asap|at|by|and|so)\b))",
            r"deploy \1",
        ),
        # "push the fix to prod": deploy it there.
        (
            r"\b(?:push|ship|roll)\s+((?:\S+\s+){0,3}?)(?:out\s+)?to\s+(prod|production|live"
            r"|staging)\b",
            r"deploy \1to \2",
        ),
        # "push out the sync", "push it out a week": later (a release pushed out ships).
        (
            r"\bpush\s+(?:out\s+(?=(?:the|my|our|this|that)\s+(?!(?:[\w-]+\s+)?(?:release|update"
            r"|fix|build|version|patch|changes?|newsletter|email)\b))|((?:it|that|this|them)\s+)"
            r"out\b)",
            r"reschedule \1",
        ),
        # "kick the build off again", "kick off the job again": run it again.
        (r"\bkick\s+(?:off\s+)?((?:\S+\s+){0,3}?)(?:off\s+)?again\b", r"rerun \1"),
        (r"\b(?:push|bump)\s+(?:back\s+)?(?=(?:the|my|our|this|that|it)\b)", "reschedule "),
        # "move my 1:1 with Dan to Friday 10am": to a time, a reschedule (not a move to
        # another calendar, as "move the meeting to the Work calendar" is).
        (r"\bmove\s+((?:\S+\s+){1,6}?)to\s+(?=" + STARTS + ")", r"reschedule \1to "),
        (
            r"\bput\s+((?:\S+\s+){1,6}?)on\s+(?=(?:my|our|the|his|her|their)\s+(?:\w+\s+)?"
            r"(?:calendar|schedule|agenda|list|board)\b)",
            r"add \1to ",
        ),
        (
            r"\bwhat(?:'s|\s+is)\s+on\s+(?:my|our)\s+plate\b"
            r"|\bwhat\s+do\s+(?:i|we)\s+have(?:\s+going\s+on)?\b",
            "what's on my agenda",
        ),
        (r"\bhop\s+on\s+a\s+call\b", "meet"),
        (r"\b(?:give|send)\s+((?:\S+\s+){0,3}?)a\s+heads[\s-]?up\b", r"send \1a message"),
        (r"\b((?:the\s+)?\w+)\s+(?:got|gets|get)\s+a\s+heads[\s-]?up\b", r"send \1 a message"),
        (r"\b(?:bounce|kick)\s+(?=(?:it|the|our|my|that|this)\b)", "restart "),
        # "turn the music down", "turn up the volume", "turn whatever's playing down": its
        # loudness (not "turn down the invitation": what is turned is heard).
        (
            r"\bturn\s+(?:(?:up|down)\s+(?:the\s+|my\s+|that\s+|this\s+)?(?:music|volume|sound"
            r"|song|audio|tunes)|(?:the\s+|my\s+|that\s+|this\s+)?(?:music|volume|sound|song"
            r"|audio|tunes|whatever['\u2019]?s\s+(?:playing|on))\s+(?:up|down))\b",
            "set the playback volume",
        ),
        *PUTTING,
        # "start by getting the invoices": get them (the first step is the request).
        (r"\b(?:start|begin)\s+(?:off\s+)?(?:by|with)\s+(?=\w+ing\b)", ""),
        # "flip the ticket to Done": move it to that state.
        (r"\bflip\s+((?:\S+\s+){1,4}?)(?:over\s+)?to\b", r"move \1to"),
        # "let her see my calendar", "let the team edit the doc": share it with them.
        (
            r"\blet\s+((?:him|her|them|everyone|the\s+team|[A-Z][a-z]+)\s+)(?:see|view|edit"
            r"|access)\s+((?:my|our|the|this|that)\s+(?:[\w-]+\s+){0,2}?(?:calendar|document|doc"
            r"|file|folder|sheet|spreadsheet|drive|repo|repository|board|notebook|page))\b",
            r"share \2 with \1",
        ),
        # "get notified about every push", "be notified when it ships": subscribe to it.
        (r"\b(?:get|be|stay)\s+notified\b", "subscribe to notifications"),
        # A verdict, not a request to look at something ("the PR looks good, approve it").
        (r"\b(?:looks|looked|seems)\s+(?:good|fine|great|ok|okay)(?:\s+to\s+me)?\b", ""),
        # "land the PR", "land #482": merge it (not "emails land in my inbox").
        (
            r"\bland\s+(?=(?:it|this|that)\b|#\d|(?:prs?|mrs?|pull\s+requests?)\b|(?:the|this|that"
            r"|my|our|his|her|their|your)\s+(?:[\w-]+\s+){0,2}?(?:prs?|mrs?|pull\s+requests?"
            r"|merge\s+requests?|branch|patch|fix|changes?|diff|commits?)\b)",
            "merge ",
        ),
        # "put up a PR", "raise a ticket", "log a bug": create it.
        (
            r"\b(?:put\s+up|throw\s+up|raise|log|open\s+up)\s+(?=(?:a|an|another|the)\s+"
            r"(?:[\w-]+\s+){0,2}?(?:prs?|pull\s+requests?|mrs?|merge\s+requests?|tickets?"
            r"|issues?|bugs?|incidents?|defects?)\b)",
            "create ",
        ),
        # "sign off on the PR", "greenlight the budget", "rubber-stamp it": approve it.
        (r"\b(?:sign\s+off\s+on|green[\s-]?light|rubber[\s-]?stamp)\b", "approve"),
        # "reach out to", "touch base with", "circle back with": message them.
        (
            r"\b(?:reach\s+out\s+to|get\s+in\s+touch\s+with|touch\s+base\s+with|check\s+in\s+with"
            r"|follow\s+up\s+with|circle\s+back\s+with)\b",
            "message",
        ),
        # "fill Sam in on the outage": tell Sam about it ("fill in the form" is no telling).
        (r"\bfill\s+(\S+(?:\s+\S+)?)\s+in\s+on\b", r"tell \1 about"),
        # "write it, but don't send it yet", "leave it as a draft": a draft.
        (
            r"\b(?:don['\u2019]?t|do\s+not)\s+send\s+(?:it|this|that|them)\s+(?:out\s+)?"
            r"(?:just\s+)?yet\b|\b(?:leave|keep|save)\s+(?:it|this|that|them)\s+(?:as\s+)?"
            r"(?:an?\s+)?drafts?\b",
            "save it as a draft",
        ),
        # "tee up an email": draft it (not "tee up the next song").
        (
            r"\btee\s+up\s+(?=(?:an?|the|my|our|this|that|some)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:e-?mails?|messages?|repl(?:y|ies)|responses?|posts?|notes?|drafts?"
            r"|announcements?)\b)",
            "draft ",
        ),
        # "ring up a sale": take a payment.
        (
            r"\bring\s+up\s+(?=(?:a|an|the|this|that)\s+(?:[\w-]+\s+){0,2}?(?:sale|purchase"
            r"|order|transaction)\b)",
            "create a payment for ",
        ),
        # "block off some time": an event on the calendar.
        (r"\bblock\s+(?:off|out)\b(?:\s+(?:some\s+)?time\b)?", "create an event"),
        # "grab time with Kim": a meeting with her.
        (r"\b(?:grab|find|get|set\s+up)\s+(?:some\s+)?time\s+with\b", "schedule a meeting with"),
        # "call off the offsite", "call the standup off": cancel it.
        (
            r"\bcall\s+(?:off\s+|((?:the|my|our|this|that|it|today's|tomorrow's)\b"
            r"(?:\s+\S+){0,3}?\s+)off\b)",
            r"cancel \1",
        ),
        # "log that as a bug", "file it as a ticket": create one.
        (
            r"\b(?:log|file|raise|report)\s+((?:it|that|this|them)\s+)as\s+(?=(?:a|an)\s+"
            r"(?:[\w-]+\s+)?(?:bugs?|tickets?|issues?|incidents?|defects?|tasks?)\b)",
            r"create \1as ",
        ),
        # "the site can go live again": deploy it.
        (r"\bgo\s+live\b", "deploy"),
        # "stick that message at the top of the channel": pin it there (not "put the
        # to-do at the top of my list").
        (
            r"\b(?:stick|put|keep|pop)\s+((?:it|that|this|them)\s+|(?:the|that|this)\s+"
            r"(?:[\w-]+\s+){0,2}?(?:message|post|note|announcement)\s+)at\s+(?:the\s+)?top\s+of\b",
            r"pin \1in",
        ),
        # "tuck the column out of sight", "put it away": archive it.
        (
            r"\b(?:tuck|put|move)\s+((?:\S+\s+){0,3}?)(?:away|out\s+of\s+sight)\b",
            r"archive \1",
        ),
        # "it can go over to Done": move it there.
        (
            r"\bgo\s+(?:over\s+)?(?:to|into)\s+(?=(?:done|complete|completed|closed|in\s+progress"
            r"|in\s+review|review|qa|backlog|to\s+do)\b)",
            "move to ",
        ),
        # "set it to go out Thursday", "have the newsletter go out at 9": schedule it.
        (
            r"\b(?:set|have|get)\s+((?:it|that|this|them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+)(?:to\s+)?"
            r"go\s+out\b",
            r"schedule \1",
        ),
        # "how many bags do we have left": in stock.
        (r"\b(?:do|does)\s+(?:we|i|you|they|the\s+shop)\s+have\s+left\b", "are left in stock"),
        # "add a row for October", "add a line for today": append one (and add it: a
        # database's row is a new page, "add a new row to the reading list database").
        (
            r"\badd\s+(?:a|an|another|one\s+more)\s+(?:new\s+)?(rows?|lines?|entry|entries"
            r"|records?)\b",
            r"add (append) a \1",
        ),
        # "right now", "right this minute": now ("right" is no word of what is asked).
        (r"\bright\s+(?:now|this\s+(?:minute|second|moment))\b", "now"),
        # "bring her account back", "can we get it back": restore it (not "get back to me");
        # read first, "get it back out of the trash" is no declining.
        (
            r"\bbring\s+((?:\S+\s+){0,3}?)back\b(?!\s+(?:to|from|up|together)\b)"
            r"|\bget\s+((?:it|them|that|this)\s+)back\b(?!\s+(?:to|from)\b)",
            r"restore \1\2",
        ),
        # "bow out of the sync", "back out of the offsite": decline it.
        (r"\b(?:bow|back)\s+out\s+of\b", "decline"),
        # "take down the page", "take the site down": delete it ("take down notes" is writing).
        (
            r"\btake\s+down\s+(?=(?:the|that|this|my|our|those|these)\s+(?:[\w-]+\s+)?(?:site"
            r"|website|page|post|message|video|listing|deployment|deploy|app|repo|link|form"
            r"|comment)s?\b)|\btake\s+((?:the|that|this|my|our|it)\b(?:\s+[\w-]+){0,2}?\s+)down\b",
            r"delete \1",
        ),
        # "scale up the droplet": resize it.
        (r"\bscale\s+(?:up|down)\b", "resize"),
        # "fire off a build": trigger it ("fire off an email": send it, above).
        (
            r"\bfire\s+off\s+(?=(?:a|an|the|another|new)\s+(?:[\w-]+\s+)?(?:build|run|deploy"
            r"|deployment|job|workflow|pipeline|tests?|release)\b)",
            "trigger ",
        ),
        # "put it on there": add it.
        (r"\b(?:put|stick|pop|throw|slap)\s+((?:\S+\s+){1,4}?)(?:on|in)\s+there\b", r"add \1"),
        # "give me the rundown on INFRA-22", "give us a summary of": show it.
        (
            r"\bgive\s+(?:me|us)\s+(?=(?:the|a|an)\s+(?:quick\s+|full\s+|short\s+)?(?:rundown"
            r"|run[\s-]down|lowdown|low\s+down|summary|overview|breakdown|details|status|recap)\b)",
            "show me ",
        ),
        # "log 2 hours on DATA-7", "log half an hour against the ticket": a worklog.
        (
            r"\blog\s+(?=(?:\d+(?:\.\d+)?|an?|half\s+an?)\s*(?:h|hrs?|hours?|mins?|minutes?)\b)",
            "add a worklog of ",
        ),
        # "close the PR without merging it", "archive it, don't delete it": what not to
        # do names no call.
        (
            r"\b(?:without|instead\s+of)\s+\w+ing\b(?:\s+(?:it|them|this|that))?"
            r"|\b(?:but\s+)?(?:don['\u2019]?t|do\s+not)\s+(?!send\b)\w+\s+(?:it|them|this|that)\b",
            "",
        ),
        # "take her off the mailing list": remove her from it.
        (
            r"\btake\s+((?:\S+\s+){1,3}?)off\s+(?=(?:the|my|our|that|this|your)\s+"
            r"(?:[\w'-]+\s+){0,3}?list\b)",
            r"remove \1from ",
        ),
        # "clear out my inbox": delete all of it.
        (r"\b(?:clear|clean)\s+out\b", "delete all"),
        # "throw on some music": play it.
        (
            r"\b(?:throw|stick|pop|slap)\s+on\s+(?=(?:some|a\s+bit\s+of)\b|(?:the|my|that|this|a"
            r"|an|our)\s+(?:[\w'-]+\s+){0,2}?(?:song|album|playlist|track|music|podcast|episode"
            r"|record|tunes|radio|mix)\b)",
            "play ",
        ),
        # "look over my PR": review it ("look over the logs": read them).
        (
            r"\blook\s+over\s+(?=(?:the|my|our|this|that|his|her|their)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:prs?|pull\s+requests?|mrs?|merge\s+requests?|diff|changes|code|patch|commits?)\b)",
            "review ",
        ),
        # "ditch the draft", "scrap the old branch": delete it ("scrap that, ..." takes
        # back what was said).
        (r"\b(?:ditch|scrap|axe)\s+(?=(?:the|my|our|this|that|these|those|all)\s+\w)", "delete "),
        # "cash out my balance": a payout.
        (r"\bcash\s+out\b", "create a payout"),
        # "chase the invoice": remind them of it.
        (
            r"\bchase\s+(?:up\s+)?(?=(?:the|that|this|an?|my|our|those|these)\s+(?:[\w-]+\s+){0,2}?"
            r"(?:invoices?|payments?|bills?)\b)",
            "send a reminder for ",
        ),
        # "kill the build": cancel it.
        (
            r"\bkill\s+(?=(?:the|that|this|my|our)\s+(?:[\w-]+\s+)?(?:build|job|run|workflow"
            r"|pipeline|deploy|deployment|process)s?\b)",
            "cancel ",
        ),
        # "punt the review to next week": reschedule it.
        (r"\bpunt\s+(?=(?:the|my|our|this|that|it)\b)", "reschedule "),
        # "offboard Dana": remove her account.
        (r"\b(?:offboard|de-?provision)\b", "remove"),
        # "get the contract signed by Ana": send it to her for signing.
        (r"\bget\s+((?:\S+\s+){1,4}?)signed\b", r"send \1for signing"),
        # "send the NDA for signature", "out for e-signature": to be signed, no email
        # signature (which is "my signature", "the signature on my emails").
        (r"\bfor\s+(?:an?\s+)?(?:e-?|electronic\s+)?signatures?\b", "for signing"),
        # "sunset the old repo": archive it.
        (r"\bsunset\s+(?=(?:the|our|my|this|that)\b)", "archive "),
        # "blast out the newsletter": send it.
        (
            r"\bblast\s+(?:out\s+)?(?=(?:the|a|an|our|this|that)\s+(?:[\w-]+\s+)?(?:newsletter"
            r"|email|campaign|announcement|update)\b)",
            "send ",
        ),
        # "what's Dana's cell number?": her mobile phone number (a spreadsheet's cell is
        # never a number of this kind: "the number in cell B4").
        (r"\bcell(?:\s*phone)?\s+(?:number|no\.|#)", "phone number"),
    )
)


class _Guarded(NamedTuple):
    """The idioms with their guards, every guard, the idioms with none (every text goes
    through them), and the idioms each guard is one of the strings of."""

    table: tuple[tuple[re.Pattern[str], str, Needed | None], ...]
    words: tuple[str, ...]
    free: frozenset[int]
    of: dict[str, frozenset[int]]


_guarded: tuple[object, _Guarded] | None = None


def _guards() -> _Guarded:
    """Each idiom with the strings one of which each of its matches holds (literals.py:
    derived, never kept in step by hand), for `_IDIOMS` as it is (a review of the tables,
    bench/search_tables_review.py, puts its own)."""
    global _guarded
    if _guarded is None or _guarded[0] is not _IDIOMS:
        table = tuple((p, plain, needed(p)) for p, plain in _IDIOMS)
        words = tuple(sorted({w for _, _, found in table for w in found or ()}))
        free = frozenset(i for i, (_, _, found) in enumerate(table) if found is None)
        of = {w: frozenset(i for i, (_, _, f) in enumerate(table) if f and w in f) for w in words}
        _guarded = (_IDIOMS, _Guarded(table, words, free, of))
    return _guarded[1]


def idioms(text: str) -> str:
    """`text` with its phrasal verbs and idioms as the plain verbs they stand for (each
    pattern only where the text holds what its every match holds: a look-up of a few
    strings, in C, instead of a pass of each pattern), in the table's order: those whose
    guard the text holds, read again after each that changes it."""
    table, words, free, of = _guards()
    lower = folded(text)
    held = [w for w in words if w in lower]
    if not held and not free:
        return text
    due = sorted(free.union(*(of[w] for w in held)))
    k = 0
    while k < len(due):
        i = due[k]
        pattern, plain, _ = table[i]
        text, done = pattern.subn(plain, text)
        k += 1
        if done:  # the idioms after it, by the guards the text now holds
            lower = folded(text)
            held = [w for w in words if w in lower]
            due, k = sorted(j for j in free.union(*(of[w] for w in held)) if j > i), 0
    return text
