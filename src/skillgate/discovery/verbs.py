"""Verbs of doing, as the APIs and people say them (docs/catalog.md, "Search"): read by
the query analysis (analysis.py: whether a request says an action), the phrasing
(phrasing.py: a clause starting with one says what to do) and the match (confidence.py:
a request whose every known word is one of doing).
"""

from __future__ import annotations

# Words of doing alone, as the APIs and people say them (confidence.py: a request whose
# every known word is one of these names no object the catalog knows).
DOING = frozenset(
    ["get", "list", "show", "check", "find", "search", "read", "create", "make", "write",
     "open", "book", "add", "new", "start", "run", "set", "update", "change", "edit",
     "modify", "fix", "put", "move", "copy", "rename", "mark", "schedule", "send", "tell",
     "ping", "post", "reply", "delete", "remove", "erase", "wipe", "trash", "cancel", "stop",
     "close"]
)  # fmt: skip
# More verbs a request may say (the actions of APIs, as people say them): a request whose
# words hold none of these nor of `DOING` (but in a word ending in "s": "comments",
# "details" are things) says no action. Words as often things before an id ("message
# 18a1...", "charge ch_...", "invoice in_...") are left out.
MORE_VERBS = frozenset(
    ["assign", "unassign", "review", "share", "unshare", "retrieve", "fetch", "archive",
     "unarchive", "upload", "download", "invite", "publish", "unpublish", "complete",
     "refund", "void", "dispatch", "trigger", "query", "replace", "insert", "clear",
     "enable", "disable", "merge", "approve", "reject", "accept", "decline", "reopen",
     "resolve", "tag", "label", "comment", "link", "unlink", "pin", "unpin", "lock",
     "unlock", "star", "unstar", "follow", "unfollow", "watch", "mute", "snooze",
     "subscribe", "unsubscribe", "pay", "capture", "finalize", "transfer", "fork", "clone",
     "deploy", "redeploy", "rollback", "rerun", "retry", "restore", "revoke", "grant",
     "give", "join", "leave", "kick", "ban", "react", "forward", "mention", "notify",
     "remind", "estimate", "prioritize", "duplicate", "sign", "verify", "submit", "tweet",
     "save", "export", "import", "sync", "attach", "detach", "install", "uninstall",
     "block", "unblock", "flag", "favorite", "like", "upvote", "rate", "play", "pause",
     "skip", "buy", "convert", "translate"]
)  # fmt: skip
# Verbs people ask of a product's account, messages or service that no table above holds
# (discovery/lacks.py: a request led by one asks for that action, which a product may
# lack: "reset my password", "unsend that email", "upgrade to the family plan").
RARER = frozenset(
    ["reset", "upgrade", "downgrade", "unsend", "recall", "kick", "purge", "ack",
     "acknowledge", "rotate", "renew", "refill", "print", "undo", "unmute"]
)  # fmt: skip
# More verbs that open a command, no table above holds ("swap every {{name}} for ...",
# "break my task into steps: ...", "suspend his account"): a clause they lead says what to
# do (leading.py). Not words as often a clause's other start ("turn", "pull", "push",
# "shut", "tidy": measured, they let requests nothing here does read as commands; "split"
# as often says how to group: "signed up for the webinar, split by company?").
OPENING = frozenset(
    ["swap", "suspend", "break", "sort", "flip", "switch", "bring", "clean",
     "empty", "resend", "revert", "reschedule", "postpone", "extend", "hide", "unhide",
     "promote", "demote", "deactivate", "reactivate", "undelete", "recover", "reassign",
     "transition", "wrap", "kill", "nuke", "scrap", "ditch", "dump", "bin", "shift", "fill",
     "draft", "compose", "boot", "append"]
)  # fmt: skip
# Verbs of reading and verbs of changing, as requests and endpoints' names say them
# (discovery/kinds.py: a request led by one of reading is not for a call named for one of
# changing, nor the reverse). A word of both kinds ("open" an issue or a file) is in
# neither.
READING = frozenset(
    ["get", "grab", "list", "find", "search", "lookup", "look", "retrieve", "fetch", "query",
     "show", "read", "view", "check", "count", "describe", "see", "browse", "discover",
     "explore", "download", "export", "provide"]
)  # fmt: skip
CHANGING = frozenset(
    ["add", "create", "set", "update", "delete", "remove", "make", "book", "reserve", "buy",
     "purchase", "send", "play", "post", "cancel", "insert", "put", "patch", "edit",
     "change", "modify", "write", "upload", "schedule", "start", "stop", "move", "rename",
     "archive", "assign", "invite", "order", "pay", "transfer", "submit", "register",
     "publish", "save", "reply", "comment", "leave", "share", "tell", "notify", "remind",
     "merge", "close", "approve", "complete", "label", "tag", "star", "follow", "restart",
     "deploy", "trigger", "text", "email", "message", "ping", "fix", "mark", "refund",
     "erase", "wipe", "trash", "void", "reschedule", "copy", "swap", "tweak", "strip",
     "yank", "relabel", "retitle", "suspend", "resend", "append"]
) | (
    # The other verbs a request may say, of changing (issue 26, twenty-seventh round: "can
    # you unsubscribe ana@acme.com", "resend the invoice", "suspend a user" had said no
    # kind), but those of reading and those as often a thing past a request's first word
    # ("the open *rate*", "a *link* to it", "the *attachment*").
    MORE_VERBS
    - {"review", "retrieve", "fetch", "download", "query", "export", "give", "like",
       "estimate", "verify", "convert", "translate", "sync", "mention", "rate", "link",
       "attach", "flag", "block", "sign", "favorite", "upvote", "react"}
)  # fmt: skip
# Verbs as often nouns ("a reply", "the post", "my order"): a request they lead says no
# kind (kinds.py; a name they lead still does), and one past a request's first word is
# not its verb (analysis.py), nor are these there (`MID_NOUNS`): leading a request they
# are verbs ("text Sam", "email Priya", "list my repos"), past it things ("my to-do
# list", "that email").
NOUN_VERBS = frozenset(
    ["reply", "comment", "post", "label", "tag", "star", "order", "book", "mark", "play",
     "ping"]
)  # fmt: skip
MID_NOUNS = NOUN_VERBS | {"list", "text", "email", "message"}


# Chat's verbs for an action ("drop a comment on it", "hook that domain up", "dig through
# my inbox", "bump the count up", "take a backup"): they lead a request (leading.py), and
# are what is done, never an object nothing here knows (unknowns.py).
CHAT_VERBS = frozenset(
    ["drop", "hook", "dig", "stick", "bump", "kick", "pop", "toss", "throw", "loop", "nudge",
     "jot", "shoot", "fire", "chuck", "take"]
)  # fmt: skip
# Every verb above that says an action (analysis.py: a request naming one item and saying
# none of these asks to read it, "pi_3Pab details"; "suspend jake@acme.com", "bump WEB-77
# up to urgent" do not).
ACTING = DOING | MORE_VERBS | RARER | OPENING | CHAT_VERBS
