"""One search result as the index keeps it (discovery/search.py): the endpoint, its
integration, its row in the index and its answer object rendered once at start-up."""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from skillgate.catalog.models import Endpoint, Integration
from skillgate.discovery.texts import one_line


@dataclass(frozen=True, slots=True)
class Hit:
    integration: Integration
    endpoint: Endpoint
    # The result object as JSON without its closing brace: discovery adds the status.
    head: bytes
    row: int  # its document's row in the index
    line: str  # its description in one line (texts.one_line), as the answer gives it


def hit_for(integration: Integration, e: Endpoint, row: int) -> Hit:
    """The hit of endpoint `e`, the index's `row`-th document."""
    line = one_line(e.description)
    return Hit(integration, e, _head(integration, e, line), row, line)


def _head(integration: Integration, e: Endpoint, line: str) -> bytes:
    doc = orjson.dumps(
        {
            "integration": integration.slug,
            "name": e.name,
            "method": e.method,
            "path": e.path,
            "category": e.category,
            # One line: ten results in about the tokens three whole descriptions took.
            "description": line,
        }
    )
    return doc[:-1]
