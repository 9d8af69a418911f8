"""Fixtures: the importer's fixture documents, imported once per module."""

from __future__ import annotations

import pytest

from skillgate.catalog.importers import Imported, import_discovery, import_openapi, load_document
from tests.skillgate.catalog.importers.documents import MAIL, NOTES, PETSTORE


@pytest.fixture(scope="module")
def petstore() -> Imported:
    return import_openapi(load_document(PETSTORE), slug="petstore")


@pytest.fixture(scope="module")
def notes() -> Imported:
    return import_openapi(load_document(NOTES), slug="notes")


@pytest.fixture(scope="module")
def mail() -> Imported:
    return import_discovery(load_document(MAIL), slug="mail")
