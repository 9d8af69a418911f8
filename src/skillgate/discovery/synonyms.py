"""The search's synonym tables: the words people use for what the APIs call otherwise.

All of it is data, read once when the index is built (discovery/analysis.py applies
it; docs/catalog.md, "Search", says how to extend it). A phrase is one or more words
written as a person would: lower case, singular or plural alike (both sides are
stemmed).

- `SYNONYMS`: groups of interchangeable phrases, made one term in the catalog and in
  the query alike ("PR", "pull request" and "merge request" are one term, so a
  two-word phrase does not count twice).
- `MEANS`: one way, anywhere in the query: a word people say also searches for the
  API words it stands for ("meeting" finds "event"); an API word keeps its meaning.
- `ACTIONS`: one way, for the first word of the request only (an imperative: "make a
  bug" creates an issue, while "issues still open" asks for no action). The word is
  replaced by what it stands for unless it is listed among them (an API verb such as
  "send" stays; "show" or "tell" is in no endpoint's name and would only find noise).
- `FIT_MEANS`: as `MEANS`, but read only where a result's fit is judged (`match`,
  confidence.py), never for ranking: a word that says what kind of answer is asked for
  rather than which call gives it ("who": a call listing people fits; ranked, "who" as
  "user" put the repos starred *by a user* first for "who has starred our repo").
- `PLURAL_MEANS`: added when the request names something in the plural ("which
  calendars do I have": a listing).
- `SPELLINGS`: ways of writing a word that splitting would break ("to-do").
- `SHAPES`: what a reference written in a known shape is ("#general" is a channel,
  "ENG-123" an issue key).

Related terms (all but `SYNONYMS`) count `RELATED_WEIGHT` (postings.py) of the query's
own words. Keep the tables to the vocabulary of APIs and of people asking for things,
never to one integration's endpoint names: the catalog grows (all of GitHub, all of
Google) and the tables must stay right for it.
"""

from __future__ import annotations

SYNONYMS: tuple[tuple[str, ...], ...] = (
    # Code hosting
    ("pull request", "pr", "merge request"),
    ("repository", "repo"),
    ("environment", "env"),
    ("issue", "ticket"),
    ("organization", "org"),
    # Messages and mail
    ("inbox", "mailbox"),
    ("mailing list", "distribution list", "email list"),
    # Calendars
    # A meeting's kinds, as people name them ("my 1:1 with Kim", "the standup"):
    # SPELLINGS makes "1:1" and "stand-up" one word.
    ("event", "meeting", "appointment", "1on1", "standup"),
    ("time zone", "timezone", "tz"),
    ("free", "available", "availability"),
    # Files and documents
    ("document", "doc", "file"),
    ("folder", "directory"),
    # People and work items
    ("task", "todo"),
    # Payments
    ("promotion code", "promo code", "promo"),
)

MEANS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Work items and code
    ("bug", ("issue",)),
    ("tag", ("label",)),
    ("diff", ("compare",)),
    ("difference", ("compare",)),
    ("between", ("compare",)),
    ("build", ("workflow", "run")),
    ("pipeline", ("workflow",)),
    ("trigger", ("dispatch", "run")),
    ("kick off", ("dispatch", "run")),
    ("done", ("complete", "state")),
    ("username", ("login",)),
    ("approve", ("review",)),
    ("version", ("revision",)),
    ("status", ("state",)),
    # Messages and mail
    ("email", ("message",)),
    ("mail", ("message", "email")),
    ("inbox", ("message", "email")),
    ("thumbs up", ("reaction",)),
    ("talk", ("message", "history")),
    # A mailing list is a group of addresses (a Google group, an audience, a contact
    # list), not mail: its "mail" cued the mailbox.
    ("mailing list", ("group", "list", "member", "audience")),
    ("out of office", ("vacation",)),
    ("auto reply", ("vacation",)),
    # Calendars
    ("invite", ("attendee",)),
    ("reschedule", ("update",)),
    ("agenda", ("event", "calendar", "task")),
    ("postpone", ("update",)),
    # Files and sharing
    ("access", ("permission", "share", "acl", "collaboration")),
    ("share", ("permission", "acl", "collaboration")),
    ("duplicate", ("copy",)),
    ("convert", ("export",)),
    ("cell", ("value", "range")),
    ("tick", ("complete",)),
    # Payments and billing
    ("money", ("balance", "payment", "charge")),
    ("money back", ("refund",)),
    ("client", ("customer",)),
    ("discount", ("coupon",)),
    ("bill", ("invoice",)),
    # Email sending
    ("opt out", ("suppression", "unsubscribe")),
    # People
    ("person", ("user", "member")),
    ("everyone", ("user", "member")),
    # Any API
    ("new", ("create",)),
    ("delete", ("trash",)),
    ("recover", ("restore", "untrash")),
    ("undelete", ("restore", "untrash")),
    ("shareable", ("share", "shared")),
    ("api call", ("rate limit",)),
    ("quota", ("rate limit",)),
    ("bottom", ("append",)),
    ("latest", ("newest",)),
    ("recent", ("newest",)),
    ("last", ("newest",)),
)

ACTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Words that are no API verb: only what they stand for is searched.
    ("show", ("get", "list")),
    ("check", ("get", "list")),
    ("make", ("create",)),
    ("write", ("create",)),
    ("file", ("create",)),
    ("book", ("create", "event")),
    ("put", ("add", "move", "update")),
    ("erase", ("delete",)),
    ("kill", ("delete", "cancel", "remove")),
    ("scrap", ("delete", "cancel", "remove")),
    ("tweak", ("update", "edit")),
    ("wipe", ("clear", "delete")),
    ("tell", ("send", "post", "message")),
    ("ping", ("send", "message")),
    ("remind", ("remind", "add", "create", "task")),
    ("look", ("find", "search")),
    ("look up", ("get", "search")),
    # Chat verbs, each as the plain verb it stands for (issue 26, fifth round).
    ("grab", ("get", "list")),
    ("set up", ("create",)),
    ("switch", ("switch", "update", "change")),
    ("peek", ("get",)),
    ("rundown", ("list", "get")),
    ("tack", ("add",)),
    ("relabel", ("rename", "update")),
    ("retitle", ("rename", "update")),
    ("strip", ("remove", "delete")),
    ("yank", ("remove", "delete")),
    ("freshen up", ("update", "rename")),
    # API verbs themselves: the word stays, and also means these.
    # "open" only as itself, an action (analysis: "open invoice in_1Nq...": reads it); as
    # create it made "open issues in acme/web" a new issue (issue 26, twelfth round).
    ("open", ("open",)),
    ("read", ("read", "get", "list")),
    ("find", ("find", "search", "list")),
    ("search", ("search", "find", "list")),
    ("add", ("add", "create", "invite")),
    ("start", ("start", "create", "dispatch")),
    ("edit", ("edit", "update")),
    ("modify", ("modify", "update")),
    ("rename", ("rename", "update")),
    ("set", ("set", "update")),
    ("move", ("move", "update")),
    ("mark", ("mark", "update")),
    ("remove", ("remove", "delete")),
    ("cancel", ("cancel", "delete")),
    ("refund", ("refund", "create")),
    ("void", ("void", "cancel")),
    ("trash", ("trash", "delete")),
    ("reply", ("reply", "send", "thread")),
    ("share", ("share", "create", "permission", "collaboration")),
    ("dm", ("dm", "send")),
    ("text", ("send", "sms", "message")),
    ("email", ("email", "send")),
    ("message", ("message", "send")),
    ("post", ("post", "send", "message")),
    ("resolve", ("resolve", "update", "close")),
    ("bill", ("invoice", "create")),
    ("reassign", ("assign", "update")),
    ("label", ("label", "add")),
    ("draft", ("draft", "create")),
)

FIT_MEANS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("who", ("user", "member")),
    ("pull", ("get", "list")),
)

PLURAL_MEANS = "list"

# Spellings made one word before the text is split ("to-do" would be two stop words).
SPELLINGS: tuple[tuple[str, str], ...] = (
    ("to-do", "todo"),
    ("to-dos", "todos"),
    ("e-mail", "email"),
    ("one-on-one", "1on1"),
    ("1-on-1", "1on1"),
    ("stand-up", "standup"),
)
# "1:1" (a one-on-one meeting; "1:1s" several) made "1on1" as a whole word only: not in
# "11:15" or "1:10".
ONE_ON_ONE = r"(?<![\w:.])1:1(?=s?(?![\w:.]))"

# Links to a product's own pages (its web app's addresses, as people paste them): (the
# address up to what says the kind of thing, the integration, what the link refers to).
# A link is a reference like the shapes below: its words ("Weekly-Sync-4f2a...") say
# nothing, its address says the product (discovery/cues.py) and the thing.
LINKS: tuple[tuple[str, str, str], ...] = (
    (r"notion\.(?:so|site)/", "notion", "page"),
    (r"trello\.com/c/", "trello", "card"),
    (r"trello\.com/b/", "trello", "board"),
    (r"github\.com/[\w.-]+/[\w.-]+/pull/", "github", "pull request"),
    (r"github\.com/[\w.-]+/[\w.-]+/issues/", "github", "issue"),
    (r"github\.com/[\w.-]+/[\w.-]+/actions/", "github", "workflow run"),
    (r"github\.com/[\w.-]+/[\w.-]+/commit/", "github", "commit"),
    (r"github\.com/[\w.-]+/[\w.-]+/releases/tag/", "github", "release tag"),
    (r"github\.com/", "github", "repository"),
    (r"bitbucket\.org/[\w.-]+/[\w.-]+/pull-requests/", "bitbucket", "pull request"),
    (r"bitbucket\.org/", "bitbucket", "repository"),
    (r"docs\.google\.com/document/", "google_docs", "document"),
    (r"docs\.google\.com/spreadsheets/", "google_sheets", "spreadsheet"),
    (r"docs\.google\.com/presentation/", "google_slides", "presentation"),
    (r"drive\.google\.com/", "google_drive", "file"),
    (r"calendar\.google\.com/", "google_calendar", "event"),
    (r"mail\.google\.com/", "gmail", "message"),
    (r"meet\.google\.com/", "google_meet", "meeting"),
    (r"(?:[\w-]+\.)?zoom\.us/(?:j|my|s)/", "zoom", "meeting"),
    (r"linear\.app/[\w-]+/issue/", "linear", "issue"),
    (r"linear\.app/[\w-]+/project/", "linear", "project"),
    (r"[\w-]+\.atlassian\.net/browse/", "jira", "issue"),
    (r"app\.asana\.com/", "asana", "task"),
    (r"(?:youtube\.com/watch|youtu\.be/)", "youtube", "video"),
    (r"open\.spotify\.com/playlist/", "spotify", "playlist"),
    (r"open\.spotify\.com/track/", "spotify", "track"),
    (r"open\.spotify\.com/album/", "spotify", "album"),
    (r"(?:dashboard\.)?stripe\.com/", "stripe", ""),
    (r"(?:app\.)?box\.com/folder/", "box", "folder"),
    (r"(?:app\.)?box\.com/file/", "box", "file"),
    (r"(?:app\.)?box\.com/s/", "box", "shared item"),  # its token, not the file's id
    (r"[\w-]+\.vercel\.app", "vercel", "deployment"),
    (r"app\.netlify\.com/sites/[\w-]+/deploys/", "netlify", "deploy"),
    (r"(?:app\.netlify\.com/sites/|[\w-]+\.netlify\.app)", "netlify", "site"),
    (r"teams\.microsoft\.com/", "microsoft_teams", ""),
    (r"(?:[\w-]+\.sharepoint\.com/|onedrive\.live\.com/|1drv\.ms/)", "onedrive", "file"),
    (r"[\w-]+\.slack\.com/archives/", "slack", "message"),
    (r"cloud\.digitalocean\.com/droplets/", "digitalocean", "droplet"),
)


def link(address: str) -> str:
    """The regular expression of a whole link whose address starts with `address`."""
    return rf"(?:https?://)?(?:www\.)?{address}\S*"


# An email address, as every reading of one finds it (the shapes below; products.py, whose
# domain names no product; values.py, a call taking one).
EMAIL_ADDRESS = r"[\w.+-]+@[\w-]+\.[\w.-]+"
# (a character every match holds, regular expression over the query as typed, what a
# match refers to); the character spares the expression's scan of most queries.
SHAPES: tuple[tuple[str, str, str], ...] = (
    *((".", link(address), meant) for address, _, meant in LINKS),
    (":", r"\bgs://\S+", "bucket object"),  # gs://bucket/path: Cloud Storage's
    ("/", r"https?://\S+", ""),  # any other link: its words say nothing
    ("#", r"\b[\w.-]+/[\w.-]+#\d+\b", "issue"),  # acme/web#12 (an issue or a pull request)
    # Stripe's object ids say the object: cus_..., ch_..., in_... (Stripe's own prefixes).
    ("_", r"\bcus_[A-Za-z0-9]{4,}", "customer"),
    ("_", r"\bch_[A-Za-z0-9]{4,}", "charge"),
    ("_", r"\bpi_[A-Za-z0-9]{4,}", "payment intent"),
    ("_", r"\bsub_[A-Za-z0-9]{4,}", "subscription"),
    ("_", r"\bin_[A-Za-z0-9]{4,}", "invoice"),
    ("_", r"\bre_[A-Za-z0-9]{4,}", "refund"),
    ("_", r"\bprod_[A-Za-z0-9]{4,}", "product"),
    ("_", r"\bprice_[A-Za-z0-9]{4,}", "price"),
    ("_", r"\bpo_[A-Za-z0-9]{4,}", "payout"),
    ("_", r"\bpm_[A-Za-z0-9]{4,}", "payment method"),
    ("_", r"\bcs_(?:(?:test|live)_)?[A-Za-z0-9]{4,}", "checkout session"),
    ("_", r"\bevt_[A-Za-z0-9]{4,}", "event"),
    ("_", r"\bacct_[A-Za-z0-9]{4,}", "account"),
    ("_", r"\btxn_[A-Za-z0-9]{4,}", "balance transaction"),
    ("_", r"\b(?:dp|du)_[A-Za-z0-9]{4,}", "dispute"),
    ("_", r"\bseti_[A-Za-z0-9]{4,}", "setup intent"),
    ("_", r"\bsi_[A-Za-z0-9]{4,}", "subscription item"),
    ("_", r"\bii_[A-Za-z0-9]{4,}", "invoice item"),
    ("_", r"\btr_[A-Za-z0-9]{4,}", "transfer"),
    ("_", r"\bpromo_[A-Za-z0-9]{4,}", "promotion code"),
    ("_", r"\bqt_[A-Za-z0-9]{4,}", "quote"),
    ("_", r"\bcn_[A-Za-z0-9]{4,}", "credit note"),
    # Twilio's SIDs: two capitals saying the resource, then 32 hex digits.
    ("", r"\b[SM]M[0-9a-f]{32}\b", "message"),
    ("", r"\bCA[0-9a-f]{32}\b", "call"),
    ("", r"\bRE[0-9a-f]{32}\b", "recording"),
    ("", r"\bPN[0-9a-f]{32}\b", "phone number"),
    # Vercel's ids: dpl_ a deployment, prj_ a project.
    ("_", r"\bdpl_[A-Za-z0-9]{8,}", "deployment"),
    ("_", r"\bprj_[A-Za-z0-9]{8,}", "project"),
    # An environment variable's name (STRIPE_WEBHOOK_SECRET): its words say nothing.
    ("_", r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", "environment variable"),
    # A full git commit SHA (40 hex digits).
    ("", r"\b[0-9a-f]{40}\b", "commit"),
    # Slack's ids: C.../G... a channel, U.../W... a user (capitals and digits, a digit in it).
    ("", r"\b[CG](?=[A-Z]*\d)[A-Z0-9]{8,11}\b", "channel"),
    ("", r"\b[UW](?=[A-Z]*\d)[A-Z0-9]{8,11}\b", "user"),
    # A UUID (Notion's pages, blocks and databases): its hex says nothing.
    ("", r"\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b", ""),
    # "notes to #eng": a channel where something is sent is a message posted there.
    ("#", r"\bto\s+#[A-Za-z][\w-]*", "channel post message"),
    ("#", r"(?:^|\s)#[A-Za-z][\w-]*", "channel"),  # #general
    ("@", r"(?:^|\s)@[A-Za-z][\w.-]*", "user"),  # @ana
    ("@", EMAIL_ADDRESS, "email"),  # ana@example.com
    ("-", r"\b[A-Z]{2,10}-\d+\b", "issue"),  # ENG-123
    ("/", r"\b[\w.-]+/[\w.-]+\b", "repository"),  # octocat/hello-world
)
