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
        self.named: dict[str, str] = {}  # a lower-case name or nickname -> slug
        short: dict[str, str] = {}  # a capitalised name without its vendor -> slug
        for slug, name in names.items():
            for part in [name, *name.split(" and ")]:
                self.named.setdefault(part.lower(), slug)
                for vendor in _VENDORS:
                    if part.startswith(vendor) and len(part) > len(vendor):
                        short.setdefault(part[len(vendor) :], slug)
            for nickname in NICKNAMES.get(slug, ()):
                self.named.setdefault(nickname, slug)
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
            found.update(self.named[n] for n in self._lower.findall(lowered))
        if self._capital is not None and _may_hold(text, self._short_firsts):
            found.update(self._short[n] for n in self._capital.findall(text))
        return found


_RUN = Runs(r"\w")


def _first_runs(names: Mapping[str, str]) -> frozenset[str] | None:
    """Each name's first run of word characters; None when a name does not start with one."""
    runs = [_RUN.pattern.match(name) for name in names]
    return None if None in runs else frozenset(m.group(0) for m in runs if m is not None)


def _may_hold(text: str, firsts: frozenset[str] | None) -> bool:
    """Whether `text` may hold a name whose first run is one of `firsts` (None: any)."""
    return firsts is None or not firsts.isdisjoint(_RUN.findall(text))
