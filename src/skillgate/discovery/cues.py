"""Product cues: words and reference shapes that point to an integration without naming
it (docs/catalog.md, "Search").

"Reply to the last mail" means Gmail though it says no product; "mark ENG-55 as done"
means Linear (its issue keys look so); "push my dentist appointment" means a calendar.
When a query names no integration, each integration its cues point to has its scores
multiplied by 1 + `CUE_STEP` per distinct cue, at most `CUE_CAP` cues counted: a soft
preference among near-equal matches, weaker than naming the product (`NAMED_BOOST`).

`CUES` and `CUE_SHAPES` are data: each integration's own vocabulary, the words its users
and its documentation use for its things (written from the products, never from one
request). A word several products share (a "file" in Box and Drive) cues each of them;
a slug the loaded catalog does not hold is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from skillgate.discovery.analysis import Analyzer
from skillgate.discovery.literals import Alternation, guarded, mark, runs
from skillgate.discovery.synonyms import LINKS, link

# The score multiplier per distinct cue of an integration, and how many cues count.
CUE_STEP = 0.2
CUE_CAP = 2
# A reference's shape (`ENG-55`, `acme/web`) is a surer cue than a word: it counts as many.
SHAPE_CUES = 2

# slug -> phrases (as a person writes them; stemmed and made synonym terms like a query).
CUES: dict[str, tuple[str, ...]] = {
    "gmail": (
        "mail", "inbox", "unread", "attachment", "draft", "spam", "sender", "subject",
        "cc", "bcc", "mailbox",
    ),
    "slack": ("channel", "dm", "thread", "emoji", "workspace", "huddle", "mention"),
    "google_calendar": (
        "meeting", "appointment", "event", "calendar", "invite", "reschedule",
        "attendee", "availability", "busy", "agenda",
    ),
    "linear": ("sprint", "cycle", "triage", "backlog"),
    "github": (
        "repository", "pull request", "commit", "branch", "gist", "fork", "merge",
        "readme", "code", "star",
    ),
    "stripe": (
        "charge", "refund", "invoice", "subscription", "payment", "payout", "coupon",
        "billing",
    ),
    "box": ("shared link", "upload"),
    "google_drive": ("folder", "file", "share link", "shared link", "upload", "drive"),
    "sendgrid": (
        "bulk email", "marketing email", "email template", "template", "contact list",
        "campaign", "suppression", "open rate", "click rate",
    ),
    "notion": ("page", "database", "block", "wiki"),
    "asana": ("project", "section", "subtask", "assignee"),
    "google_tasks": ("task list",),
    "google_contacts": ("contact", "phone number", "address book"),
    "google_sheets": ("spreadsheet", "cell", "row", "formula"),
    "google_docs": ("document", "paragraph", "heading"),
    "twilio": ("sms", "text message", "mms", "phone call", "voicemail"),
    "trello": ("board", "checklist"),
    "jira": ("epic", "jql", "backlog", "sprint"),
    "mailchimp": ("audience", "newsletter", "subscriber", "campaign", "open rate", "click rate"),
    "spotify": ("song", "playlist", "album", "artist", "music", "podcast"),
    "youtube": ("livestream", "my channel"),
    "digitalocean": ("vps",),
    "google_classroom": (
        "course", "student", "assignment", "homework", "class stream", "class", "teacher",
        "essay",
    ),
    "google_analytics": (
        "traffic", "visitor", "pageview", "page view", "realtime", "bounce rate", "conversion",
        "active user",
    ),
    "google_search_console": ("impression", "sitemap", "indexing"),
    "square": ("point of sale", "catalog item", "pos", "loyalty"),
    "docusign": ("envelope", "signature", "signer"),
    "google_keep": ("grocery list",),
    "onenote": ("notebook",),
    "google_meet": ("meet link", "video call"),
    "zoom": ("webinar", "video call"),
    "google_bigquery": ("dataset",),
    "google_cloud_sql": ("database instance", "postgres", "mysql"),
    "google_compute": ("vm", "virtual machine"),
    "google_cloud_storage": ("bucket",),
    "microsoft_entra": ("tenant",),
}  # fmt: skip

# (slug, a character every match holds, regular expression over the query as typed).
CUE_SHAPES: tuple[tuple[str, str, str], ...] = (
    ("linear", "-", r"\b[A-Z]{2,6}-\d+\b"),  # ENG-55
    # Stripe's object ids (cus_, ch_, pi_, sub_, in_, re_, prod_, price_, po_, pm_, cs_,
    # evt_, acct_, txn_, dp_, seti_, si_, ii_, tr_, promo_, qt_, cn_).
    (
        "stripe",
        "_",
        r"\b(?:cus|ch|pi|sub|in|re|prod|price|po|pm|cs|evt|acct|txn|dp|du|seti|si|ii|tr|promo"
        r"|qt|cn)_[A-Za-z0-9]{4,}",
    ),
    ("twilio", "", r"\b(?:SM|MM|CA|RE|PN|AC)[0-9a-f]{32}\b"),  # Twilio's SIDs
    ("vercel", "_", r"\b(?:dpl|prj)_[A-Za-z0-9]{8,}"),  # Vercel's deployment and project ids
    ("slack", "", r"\b[CGUW](?=[A-Z]*\d)[A-Z0-9]{8,11}\b"),  # C01ABCDEF, U024BE7LH
    ("notion", "", r"\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b"),
    ("github", "/", r"(?<![\w/.])[A-Za-z][\w.-]*/[A-Za-z][\w.-]*(?![\w/])"),  # acme/web
    ("github", "#", r"(?:^|\s)#\d+\b"),  # #123
    ("slack", "#", r"(?:^|\s)#[A-Za-z][\w-]*"),  # #general
    ("twilio", "+", r"(?<![\w+])\+\d[\d ().-]{6,16}\d\b"),  # +1 555 123 4567 (E.164)
    # A link to a product's own page (discovery/synonyms.py `LINKS`).
    *((slug, ".", link(address)) for address, slug, _ in LINKS),
)

# A Docs, Sheets or Slides file is a Drive file: a link to one names Drive too (sharing,
# copying, moving or deleting it are Drive's calls: "stop sharing <a Sheets link>").
FILES_IN = {"google_docs": "google_drive", "google_sheets": "google_drive",
            "google_slides": "google_drive"}  # fmt: skip


class Cues:
    def __init__(self, analyzer: Analyzer, slugs: Collection[str]) -> None:
        """The cue tables in `analyzer`'s terms, for the integrations among `slugs`."""
        self._analyzer = analyzer
        self._phrases: dict[tuple[str, ...], set[str]] = {}
        for slug, phrases in CUES.items():
            if slug not in slugs:
                continue
            for phrase in phrases:
                terms = tuple(analyzer.terms(phrase))
                if terms:
                    self._phrases.setdefault(terms, set()).add(slug)
        self._longest = max(map(len, self._phrases), default=0)
        self._firsts = frozenset(phrase[0] for phrase in self._phrases)
        # Each pattern only where the text holds what its every match holds (literals.py):
        # the table's character (a run of shapes at once), and a longer string holding it,
        # or else the strings or the run it holds (`guarded`: Slack's ids, a UUID, links).
        self._shapes = runs(
            (c, (s, mark(pattern, c), guarded(pattern, c)))
            for s, c, pattern in ((s, c, re.compile(p)) for s, c, p in CUE_SHAPES)
            if s in slugs
        )
        # A link to a product's own page names the product, as its name would: the links'
        # alternation, of those whose domain's literals ("notion.", "trello.com/c/") the
        # text holds (literals.py; most sentences hold a ".", few a "/").
        alternatives = [
            (f"l{i}", link(address)) for i, (address, slug, _) in enumerate(LINKS) if slug in slugs
        ]
        self._link_slugs = {f"l{i}": slug for i, (_, slug, _) in enumerate(LINKS)}
        self._files_in = {slug: FILES_IN[slug] for slug in slugs if FILES_IN.get(slug) in slugs}
        self._links = Alternation(alternatives, "/") if alternatives else None

    def found(self, text: str, terms: Iterable[str]) -> dict[str, int]:
        """Per integration, how many distinct cues the query holds (`text` as typed,
        `terms` its own search terms in order)."""
        seen: dict[str, set[object]] = {}
        for char, shapes in self._shapes:
            if char not in text:
                continue
            for slug, held, pattern in shapes:
                if held in text and pattern.search(text):
                    seen.setdefault(slug, set()).update((pattern, i) for i in range(SHAPE_CUES))
        words = list(terms)
        firsts = self._firsts
        for start in range(len(words)):
            if words[start] not in firsts:
                continue  # no cue starts with this term (most: a set's look-up)
            for size in range(1, min(self._longest, len(words) - start) + 1):
                phrase = tuple(words[start : start + size])
                for slug in self._phrases.get(phrase, ()):
                    seen.setdefault(slug, set()).add(phrase)
        return {slug: len(cues) for slug, cues in seen.items()}

    def linked(self, text: str) -> set[str]:
        """The integrations whose own pages the text links to (`LINKS`), and where those
        pages' files are kept (`FILES_IN`)."""
        if self._links is None:
            return set()
        found = {self._link_slugs[str(m.lastgroup)] for m in self._links.finditer(text)}
        return found | {self._files_in[s] for s in found if s in self._files_in}

    def factors(self, text: str, terms: Iterable[str]) -> dict[str, float]:
        """Per integration the query's cues point to, its score multiplier."""
        return {slug: 1 + CUE_STEP * min(n, CUE_CAP) for slug, n in self.found(text, terms).items()}
