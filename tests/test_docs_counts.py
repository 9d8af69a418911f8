"""Every count README.md and docs/ print comes from the shipped catalog: how many
integrations and endpoints there are, an integration's endpoints in example JSON, the
files `svc pull` writes, the integrations `svc status` lists. And every endpoint,
integration and category a command in them names exists.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from skillgate.catalog.loader import Catalog, load_catalog
from tests.doc_blocks import ROOT

DOCS = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
# Counts that are not the catalog's: an import example's output and the search benchmark's
# synthetic catalog.
NOT_THE_CATALOG = ("42 endpoints for 'billing'", "over 3,000 endpoints")


@cache
def catalog() -> Catalog:
    return load_catalog([])


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _endpoints(slug: str) -> int:
    integration = catalog().integrations.get(slug)
    assert integration is not None, f"no integration {slug!r} in the catalog"
    return len(integration.endpoints)


@pytest.mark.parametrize("doc", DOCS)
def test_counts_in_the_docs_are_the_catalogs(doc: str) -> None:
    text = (ROOT / doc).read_text()
    total = sum(len(i.endpoints) for i in catalog().integrations.values())
    per_integration = {len(i.endpoints) for i in catalog().integrations.values()}
    wrong = []
    for found in re.finditer(r"(?<![\w.])(\d[\d,]*) (endpoints|integrations)\b", text):
        context = text[max(0, found.start() - 5) : found.end() + 20]
        if any(phrase in context for phrase in NOT_THE_CATALOG):
            continue
        n = _number(found.group(1))
        if found.group(2) == "integrations" and n != len(catalog().integrations):
            wrong.append(f"{found.group(0)!r}: the catalog has {len(catalog().integrations)}")
        if found.group(2) == "endpoints" and n != total and n not in per_integration:
            wrong.append(f"{found.group(0)!r}: no integration has that many (total {total})")
    for found in re.finditer(r'"slug":"(\w+)"[^{}]*?"endpoints":(\d+)', text):
        if int(found.group(2)) != _endpoints(found.group(1)):
            wrong.append(f"{found.group(0)!r}: {_endpoints(found.group(1))} endpoints")
    pulled = re.findall(r'"slug":"(\w+)","files":(\d+)', text)
    pulled += [(slug, n) for n, slug in re.findall(r"Saved (\d+) files for (\w+)", text)]
    for slug, n in pulled:
        # The bundle: SKILL.md and one file per endpoint.
        if int(n) != _endpoints(slug) + 1:
            wrong.append(f"svc pull {slug}: {n} files, the bundle has {_endpoints(slug) + 1}")
    assert not wrong, f"{doc}: " + "; ".join(wrong)


@pytest.mark.parametrize("doc", DOCS)
def test_svc_status_listings_show_every_integration(doc: str) -> None:
    """The terminal summary of `svc status` lists one row per integration."""
    text = (ROOT / doc).read_text()
    names = {i.name: slug for slug, i in catalog().integrations.items()}
    for block in re.findall(r"\$ svc status\n(Signed in.*?)```", text, re.DOTALL):
        rows = re.findall(r"^  (\S.*?)\s{2,}(\w+)\s{2,}(?:connected|not connected)$", block, re.M)
        assert rows, block
        assert dict(rows) == names, f"{doc}: svc status shows {sorted(dict(rows).values())}"


def _code(text: str) -> list[str]:
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL)
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    return blocks + spans


@pytest.mark.parametrize("doc", DOCS)
def test_endpoints_and_categories_named_in_commands_exist(doc: str) -> None:
    text = (ROOT / doc).read_text()
    wrong = []
    for code in _code(text):
        named = re.findall(r"\bsvc (?:run|skills) ([a-z_]+) ([a-z_][a-z0-9_]*)\b", code)
        named += re.findall(r"/v1/([a-z_]+)/([a-z_][a-z0-9_]*)\b", code)
        for slug, endpoint in named:
            integration = catalog().integrations.get(slug)
            if integration is None or endpoint in ("download",):
                continue  # routes such as /v1/skills/search, /v1/connections/github
            if catalog().endpoint(slug, endpoint) is None:
                wrong.append(f"{slug} {endpoint}")
        for slug, category in re.findall(r"svc skills ([a-z_]+) --category ([a-z_]+)", code):
            categories = {e.category for e in catalog().integrations[slug].endpoints}
            if category not in categories:
                wrong.append(f"{slug} --category {category}")
    assert not wrong, f"{doc} names what the catalog does not have: {wrong}"
