"""Every imported fixture is a valid catalog integration, and says exactly what its source says:
method, path and required path parameters of each endpoint equal the source operation's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog.importers import (
    Imported,
    import_discovery,
    import_openapi,
    integration_dict,
    load_document,
)
from skillgate.catalog.importers.google import full_path
from skillgate.catalog.models import Integration
from skillgate.catalog.validate import check_integration
from tests.skillgate.catalog.importers.documents import MAIL, NOTES, PETSTORE

_PLACEHOLDER = re.compile(r"\{\+?([^{}]+)\}")


def _openapi_ops(doc: dict[str, Any]) -> dict[str, tuple[str, str, set[str]]]:
    """operation label -> (METHOD, path, required path parameter names), from the raw document
    (a path's `#fragment` is never sent: the request path is the part before it)."""
    out = {}
    for key, item in doc["paths"].items():
        path = key.split("#", 1)[0]
        for method, op in item.items():
            if method == "parameters":
                continue
            label = op.get("operationId") or f"{method.upper()} {path}"
            out[label] = (method.upper(), path, set(_PLACEHOLDER.findall(path)))
    return out


def _google_ops(doc: dict[str, Any]) -> dict[str, tuple[str, str, set[str]]]:
    out = {}

    def walk(resources: dict[str, Any]) -> None:
        for resource in resources.values():
            for m in resource.get("methods", {}).values():
                path = full_path(m.get("flatPath") or m["path"], doc["servicePath"])
                out[m["id"]] = (m["httpMethod"], path, set(_PLACEHOLDER.findall(path)))
            walk(resource.get("resources", {}))

    walk(doc["resources"])
    for m in doc.get("methods", {}).values():
        path = full_path(m.get("flatPath") or m["path"], doc["servicePath"])
        out[m["id"]] = (m["httpMethod"], path, set(_PLACEHOLDER.findall(path)))
    return out


CASES = [
    (PETSTORE, import_openapi, _openapi_ops, {"auth": None}),
    (NOTES, import_openapi, _openapi_ops, {"auth": None}),
    (MAIL, import_discovery, _google_ops, {}),
]


@pytest.mark.parametrize(("path", "importer", "source_ops", "options"), CASES)
def test_fixture_compiles_to_a_valid_integration(
    path: Path, importer: Any, source_ops: Any, options: dict[str, Any]
) -> None:
    imported: Imported = importer(load_document(path), slug="fixture")
    integration = Integration.model_validate(integration_dict(imported, slug="fixture", **options))
    assert check_integration(integration) == []
    assert len(integration.endpoints) == len(imported.endpoints) > 3


@pytest.mark.parametrize(("path", "importer", "source_ops", "options"), CASES)
def test_method_path_and_path_parameters_are_the_sources(
    path: Path, importer: Any, source_ops: Any, options: dict[str, Any]
) -> None:
    document = load_document(path)
    imported: Imported = importer(document, slug="fixture")
    expected = source_ops(document)
    kept = {e.get("operation") or f"{e['method']} {e['path']}": e for e in imported.endpoints}
    skipped = {s.operation for s in imported.skipped}
    variants = {s for s in skipped if s.endswith(" (media upload)")}
    # Nothing silently dropped: each source operation is an endpoint or a skipped entry
    # (a Google upload variant is listed beside the metadata call it is kept as).
    assert set(expected) == set(kept) | (skipped - variants)
    assert {v.removesuffix(" (media upload)") for v in variants} <= set(kept)
    for label, endpoint in kept.items():
        method, source_path, placeholders = expected[label]
        assert (endpoint["method"], endpoint["path"]) == (method, source_path), label
        required_path = {
            p.get("maps_to", p["name"])
            for p in endpoint["parameters"]
            if p["in"] == "path" and p.get("required")
        }
        assert required_path == placeholders, label


def test_imports_are_deterministic() -> None:
    first = import_openapi(load_document(PETSTORE), slug="p")
    second = import_openapi(load_document(PETSTORE), slug="p")
    assert first.endpoints == second.endpoints
    assert first.skipped == second.skipped
