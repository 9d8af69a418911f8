"""Which integration a request names (discovery/search.py's `NAMED_BOOST`; docs/catalog.md,
"Search").

A request names a product by its catalog name ("in Google Calendar"), by each part of a
name that joins two ("OneDrive and SharePoint": "in SharePoint"), by the name without its
vendor, capitalised after a word that places it ("on Teams", "in my Drive", "a Teams
meeting": a lower-case "teams" or "drive" is a word, not a product), and by the nicknames
people use for it (`NICKNAMES`: "gdrive", "GH"). All of it comes from the catalog's names
and the products' own usage, never from one request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from skillgate.discovery.literals import Runs
from skillgate.discovery.synonyms import EMAIL_ADDRESS

# The names people use for a product besides its own (lower case, whole words).
NICKNAMES: dict[str, tuple[str, ...]] = {
    "google_calendar": ("google cal", "gcalendar"),
    "google_drive": ("gdrive", "google drive"),
    "google_sheets": ("gsheets", "gsheet", "google spreadsheet"),
    "google_docs": ("gdocs", "gdoc", "google doc"),
    "google_meet": ("gmeet", "google meet"),
    "github": ("gh",),
    "microsoft_teams": ("ms teams", "msteams"),
    "microsoft_entra": ("entra", "azure ad", "entra id", "active directory"),
    "youtube": ("yt",),
    "google_bigquery": ("bq", "big query"),
    "google_cloud_storage": ("gcs",),
    "google_compute": ("gce", "compute engine"),
    "google_cloud_sql": ("cloud sql",),
    "digitalocean": ("digital ocean",),
    "sendgrid": ("send grid",),
}
# The names people give a vendor's family of products, each naming every integration of
# the family ("which GCP projects do I have access to": Resource Manager's, not Drive's
# permissions; "the Design group in our Microsoft 365 directory": Entra's).
_GOOGLE_CLOUD = ("google_cloud_projects", "google_cloud_storage", "google_compute",
                 "google_cloud_sql", "google_bigquery")  # fmt: skip
_MICROSOFT_365 = ("outlook", "onedrive", "microsoft_teams", "microsoft_todo",
                  "microsoft_entra", "onenote")  # fmt: skip
_GOOGLE_WORKSPACE = ("gmail", "google_calendar", "google_drive", "google_docs",
                     "google_sheets", "google_slides", "google_meet", "google_chat",
                     "google_admin", "google_contacts", "google_tasks", "google_keep",
                     "google_classroom")  # fmt: skip
FAMILIES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("gcp", "google cloud", "google cloud platform"), _GOOGLE_CLOUD),
    **dict.fromkeys(("microsoft 365", "m365", "office 365", "o365"), _MICROSOFT_365),
    **dict.fromkeys(("google workspace", "g suite", "gsuite"), _GOOGLE_WORKSPACE),
}  # fmt: skip
# A vendor's word before a product's own name ("Google Sheets": Sheets).
_VENDORS = ("Google ", "Microsoft ")
# What places a product named without its vendor ("on Teams", "in my Drive", "the Sheets",
# "a Teams meeting": an article before a capital mid-sentence names).
_PLACED = (
    r"(?:in|on|to|from|into|onto|via|using|with|through|my|our|the|your|their|a|an|this|that)\s+"
)
# An email address: its domain is where a person's mail is kept, not a product the request
# asks of ("is jane.doe@gmail.com on our SendGrid bounce list?", "look her up by
# maria.silva@outlook.com").
_ADDRESS = re.compile(EMAIL_ADDRESS)


class Products:
    def __init__(self, names: Mapping[str, str]) -> None:
        """`names`: each integration's slug -> its catalog name."""
        # A lower-case name, nickname or family's name -> the integrations it names.
        self.named: dict[str, tuple[str, ...]] = {}
        short: dict[str, str] = {}  # a capitalised name without its vendor -> slug
        for slug, name in names.items():
            for part in [name, *name.split(" and ")]:
                self.named.setdefault(part.lower(), (slug,))
                for vendor in _VENDORS:
                    if part.startswith(vendor) and len(part) > len(vendor):
                        short.setdefault(part[len(vendor) :], slug)
            for nickname in NICKNAMES.get(slug, ()):
                self.named.setdefault(nickname, (slug,))
        for family, slugs in FAMILIES.items():
            if present := tuple(s for s in slugs if s in names):
                self.named.setdefault(family, present)
        self._short = short
        alternatives = "|".join(map(re.escape, sorted(self.named, key=len, reverse=True)))
        self._lower = re.compile(rf"\b(?:{alternatives})\b") if self.named else None
        capitals = "|".join(map(re.escape, sorted(short, key=len, reverse=True)))
        self._capital = re.compile(rf"\b{_PLACED}({capitals})\b") if short else None
        # A name the regex finds starts and ends where words do (`\b`), so the first run of
        # word characters of a name starting with one is a whole run of the text's too: a
        # set's look-up, not the regex's pass, for the text that names no product. A name
        # starting otherwise (or blank) leaves the regex to run on every text.
        self._firsts = _first_runs(self.named)
        self._short_firsts = _first_runs(short)

    def names(self, text: str) -> bool:
        """Whether `text` names an integration."""
        return bool(self.of(text))

    def of(self, text: str) -> set[str]:
        """The integrations `text` names."""
        found: set[str] = set()
        if "@" in text:
            text = _ADDRESS.sub(" ", text)
        lowered = text.lower()
        if self._lower is not None and _may_hold(lowered, self._firsts):
            for n in self._lower.findall(lowered):
                found.update(self.named[n])
        if self._capital is not None and _may_hold(text, self._short_firsts):
            found.update(self._short[n] for n in self._capital.findall(text))
        return found


_RUN = Runs(r"\w")


def _first_runs(names: Mapping[str, object]) -> frozenset[str] | None:
    """Each name's first run of word characters; None when a name does not start with one."""
    runs = [_RUN.pattern.match(name) for name in names]
    return None if None in runs else frozenset(m.group(0) for m in runs if m is not None)


def _may_hold(text: str, firsts: frozenset[str] | None) -> bool:
    """Whether `text` may hold a name whose first run is one of `firsts` (None: any)."""
    return firsts is None or not firsts.isdisjoint(_RUN.findall(text))
