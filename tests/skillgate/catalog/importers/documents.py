"""The importer fixture documents (small, checked in under tests/fixtures/importers/) and
helpers to look into an import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skillgate.catalog.importers import Imported

FIXTURES = Path(__file__).parents[3] / "fixtures" / "importers"
PETSTORE = FIXTURES / "petstore-3.0.yaml"
NOTES = FIXTURES / "notes-3.1.json"
MAIL = FIXTURES / "mail-discovery.json"


def by_name(imported: Imported) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in imported.endpoints}


def params(endpoint: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in endpoint["parameters"]}
