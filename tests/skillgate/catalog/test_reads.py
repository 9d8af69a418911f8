"""Which non-GET endpoints only read: every shipped one is on the reviewed list in
docs/catalog.md, with the source's own words, checked against the source."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import yaml

from skillgate.catalog.loader import SHIPPED_DIR, load_catalog
from skillgate.catalog.models import READ_METHODS, Endpoint

DOCS = Path(__file__).parents[3] / "docs" / "catalog.md"
_ROW = re.compile(r"^\| `(\w+)` \| `(\w+)` \| `(\w+) ([^`]+)` \| (.+) \|$")


def reviewed() -> dict[tuple[str, str], tuple[str, str, str]]:
    """(slug, endpoint) -> (method, path, what the source says) from the docs' table."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### Non-GET endpoints that only read", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = _ROW.match(line)
        if found:
            slug, name, method, path, says = found.groups()
            rows[(slug, name)] = (method, path, says)
    return rows


def source_description(slug: str, endpoint: Endpoint) -> str:
    """The provider's own description: the compiled file's (what the importer read from
    the source) for a compiled operation, else the hand-written file's."""
    overlay = yaml.safe_load((SHIPPED_DIR / f"{slug}.yaml").read_text(encoding="utf-8"))
    if "compiled" in overlay and endpoint.operation:
        compiled: dict[str, Any] = orjson.loads((SHIPPED_DIR / overlay["compiled"]).read_bytes())
        [source] = [e for e in compiled["endpoints"] if e.get("operation") == endpoint.operation]
        assert source["method"] == endpoint.method
        return str(source["description"])
    return endpoint.description


def overlay_reads(slug: str) -> dict[str, str]:
    overlay = yaml.safe_load((SHIPPED_DIR / f"{slug}.yaml").read_text(encoding="utf-8"))
    return {r["operation"]: r["reason"] for r in overlay.get("reads") or []}


def test_every_shipped_non_get_read_is_reviewed_with_the_sources_words() -> None:
    catalog = load_catalog()
    reads = {
        (slug, e.name): e
        for slug, integration in catalog.integrations.items()
        for e in integration.endpoints
        if e.method not in READ_METHODS and not e.mutates
    }
    listed = reviewed()
    assert len(listed) >= 18
    assert set(reads) == set(listed), "update the reviewed list in docs/catalog.md"
    for (slug, name), endpoint in reads.items():
        method, path, says = listed[(slug, name)]
        assert (method, path) == (endpoint.method, endpoint.path), name
        if says == "GraphQL query":
            assert endpoint.body == "graphql", name
            assert endpoint.graphql is not None, name
            assert endpoint.graphql.lstrip().startswith("query"), name
            continue
        quote = says.strip('"')
        assert says == f'"{quote}"', name
        assert len(quote) > 20, name
        assert quote in source_description(slug, endpoint), (slug, name)
        if endpoint.operation:  # compiled: the overlay's `reads` entry carries the quote
            reason = overlay_reads(slug).get(endpoint.operation)
            assert reason is not None, (slug, name)
            assert quote in reason, (slug, name)
        assert not re.match(r"(Create|Update|Delete|Send|Set|Add|Remove)s?\b", quote), name


def test_stripes_update_value_list_changes_data() -> None:
    stripe = load_catalog().get("stripe")
    assert stripe is not None
    [update] = [e for e in stripe.endpoints if e.operation == "PostRadarValueListsValueList"]
    assert (update.method, update.path) == ("POST", "/v1/radar/value_lists/{value_list}")
    assert update.mutates is True
    # No compiled operation of any shipped integration is a read by its name alone.
    for integration in load_catalog().integrations.values():
        for e in integration.endpoints:
            if e.method not in READ_METHODS and not e.mutates and e.operation:
                assert e.operation in overlay_reads(integration.slug), e.operation
