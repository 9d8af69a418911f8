"""The importer fixtures: small documents checked in under tests/fixtures/importers/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.importers import (
    Imported,
    import_discovery,
    import_openapi,
    load_document,
)

FIXTURES = Path(__file__).parents[3] / "fixtures" / "importers"
PETSTORE = FIXTURES / "petstore-3.0.yaml"
NOTES = FIXTURES / "notes-3.1.json"
MAIL = FIXTURES / "mail-discovery.json"


def by_name(imported: Imported) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in imported.endpoints}


def params(endpoint: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in endpoint["parameters"]}


@pytest.fixture(scope="module")
def petstore() -> Imported:
    return import_openapi(load_document(PETSTORE), slug="petstore")


@pytest.fixture(scope="module")
def notes() -> Imported:
    return import_openapi(load_document(NOTES), slug="notes")


@pytest.fixture(scope="module")
def mail() -> Imported:
    return import_discovery(load_document(MAIL), slug="mail")
