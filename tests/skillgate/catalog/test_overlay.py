"""The overlay: hand-written YAML curating a compiled integration (catalog.overlay),
and the loader applying the compiled file a YAML names."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillgate.catalog.loader import CatalogError, load_catalog
from skillgate.catalog.overlay import OverlayError, apply_overlay, exclusions


def _param(name: str, where: str = "query", **more: Any) -> dict[str, Any]:
    return {"name": name, "type": "string", "in": where, "description": f"The {name}.", **more}


COMPILED: dict[str, Any] = {
    "source": {"package": "x", "version": "1"},
    "slug": "acme",
    "name": "Acme (compiled)",
    "description": "What the document says.",
    "base_url": "https://api.acme.test",
    "skipped": [],
    "endpoints": [
        {
            "name": "issues_create",
            "operation": "issues/create",
            "method": "POST",
            "path": "/repos/{owner}/issues",
            "category": "issues",
            "description": "Create an issue.",
            "parameters": [
                _param("owner", "path", required=True, example="o"),
                _param("title", "body", required=True, example="t"),
                _param("labels", "body"),
                {**_param("meta", "body"), "type": "object"},
            ],
            "errors": [{"code": 404, "cause": "Not found.", "fix": "Check it."}],
        },
        {
            "name": "apps_get",
            "operation": "apps/get",
            "method": "GET",
            "path": "/app",
            "category": "apps",
            "description": "The app itself.",
            "parameters": [],
            "errors": [{"code": 401, "cause": "JWT only.", "fix": "Use a JWT."}],
        },
        {
            "name": "get_pets",
            "method": "GET",
            "path": "/pets",
            "category": "pets",
            "description": "List pets (no operation id).",
            "parameters": [],
            "errors": [{"code": 404, "cause": "Gone.", "fix": "Retry."}],
        },
        {
            "name": "post_pets",
            "method": "POST",
            "path": "/pets",
            "category": "pets",
            "description": "Add a pet (no operation id).",
            "parameters": [_param("name", "body", required=True, example="rex")],
            "errors": [{"code": 422, "cause": "Bad.", "fix": "Fix it."}],
        },
    ],
}


def _apply(overlay: dict[str, Any]) -> dict[str, Any]:
    return apply_overlay(copy.deepcopy(COMPILED), overlay)


def test_curation_renames_merges_parameters_and_puts_errors_first() -> None:
    merged = _apply(
        {
            "name": "Acme",
            "categories": {"pets": "animals"},
            "endpoints": [
                {
                    "name": "create_issue",
                    "operation": "issues/create",
                    "description": "Open a new issue in a repository.",
                    "parameters": [
                        _param("issue_title", "body", maps_to="title", required=True, example="x"),
                        _param("assignee", "body"),
                        _param("meta_note", "body", maps_to="meta.note"),
                    ],
                    "errors": [{"code": 404, "cause": "No repo.", "fix": "Check owner."}],
                }
            ],
        }
    )
    assert merged["name"] == "Acme"  # integration fields replaced
    assert "source" not in merged
    assert "skipped" not in merged
    first = merged["endpoints"][0]  # curated first
    assert first["name"] == "create_issue"
    assert first["method"] == "POST"
    assert first["path"] == "/repos/{owner}/issues"  # from the source
    assert [p["name"] for p in first["parameters"]] == [
        "owner",
        "issue_title",
        "labels",
        "assignee",
        "meta_note",
    ]  # fmt: skip  (title replaced in place; meta, an object, replaced by meta.note)
    assert first["errors"] == [{"code": 404, "cause": "No repo.", "fix": "Check owner."}]
    assert [e["name"] for e in merged["endpoints"][1:]] == ["apps_get", "get_pets", "post_pets"]
    assert {e["category"] for e in merged["endpoints"][2:]} == {"animals"}


def test_one_operation_curated_under_two_names_and_hand_written_entries() -> None:
    hand = {"name": "ping", "method": "GET", "path": "/ping", "category": "misc"}
    merged = _apply(
        {
            "endpoints": [
                {"name": "new_issue", "operation": "issues/create"},
                {"name": "new_bug", "operation": "issues/create", "description": "A bug."},
                hand,
            ]
        }
    )
    names = [e["name"] for e in merged["endpoints"]]
    assert names == ["new_issue", "new_bug", "ping", "apps_get", "get_pets", "post_pets"]
    assert merged["endpoints"][2] == {**hand, "curated": True}  # whole, marked curated
    assert all(e.get("curated") for e in merged["endpoints"][:3])
    assert not any(e.get("curated") for e in merged["endpoints"][3:])


def test_excludes_need_a_reason_and_match_patterns_or_method_and_path() -> None:
    overlay = {
        "exclude": [
            {"operation": "apps/*", "reason": "GitHub App JWT only"},
            {"operation": "POST /pets", "reason": "Retired by the provider"},
        ]
    }
    merged = _apply(overlay)
    assert [e["name"] for e in merged["endpoints"]] == ["issues_create", "get_pets"]
    assert exclusions(COMPILED, overlay) == [
        ("apps/get", "GitHub App JWT only"),
        ("POST /pets", "Retired by the provider"),
    ]


def test_reads_mark_a_compiled_post_a_read_with_its_reason() -> None:
    assert _apply({})["endpoints"][0].get("changes_data") is not False
    overlay = {"reads": [{"operation": "issues/create", "reason": "It only reads, says the doc."}]}
    merged = _apply(overlay)
    assert merged["endpoints"][0]["changes_data"] is False
    assert "reads" not in merged  # the overlay's own bookkeeping, not an integration field
    curated = {**overlay, "endpoints": [{"name": "x", "operation": "issues/create",
                                          "changes_data": False}]}  # fmt: skip
    assert _apply(curated)["endpoints"][0]["changes_data"] is False


@pytest.mark.parametrize(
    ("overlay", "problem"),
    [
        ({"endpoints": [{"name": "x", "operation": "nope"}]}, "'nope' is not in the compiled"),
        (
            {"endpoints": [{"name": "x", "operation": "apps/get", "method": "POST"}]},
            "the source is the truth for method",
        ),
        (
            {"endpoints": [{"name": "x", "operation": "apps/get", "path": "/elsewhere"}]},
            "the source is the truth for path",
        ),
        ({"exclude": [{"operation": "apps/get"}]}, "give the `reason`"),
        ({"exclude": [{"operation": "zzz/*", "reason": "No such thing."}]}, "no compiled"),
        (
            {
                "exclude": [{"operation": "apps/get", "reason": "JWT only."}],
                "endpoints": [{"name": "x", "operation": "apps/get"}],
            },
            "both curated and excluded",
        ),
        ({"categories": ["a"]}, "`categories` must map"),
        ({"reads": [{"operation": "issues/create"}]}, "give the `reason`"),
        ({"reads": [{"operation": "nope", "reason": "It only reads."}]}, "no compiled operation"),
        ({"reads": [{"operation": "apps/get", "reason": "It only reads."}]}, "a GET is a read"),
        (
            {"endpoints": [{"name": "x", "operation": "issues/create", "changes_data": False}]},
            "a read only when `reads` lists it",
        ),
    ],
)
def test_an_overlay_that_does_not_fit_is_refused(overlay: dict[str, Any], problem: str) -> None:
    with pytest.raises(OverlayError, match=re.escape(problem)):
        _apply(overlay)


def test_the_loader_applies_the_compiled_file_and_names_the_file_on_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "compiled").mkdir()
    (tmp_path / "compiled" / "acme.json").write_text(json.dumps(COMPILED))
    overlay = {
        "compiled": "../compiled/acme.json",
        "slug": "acme",
        "auth": {"token": {"help": "Paste the key."}},
        "verify": {"path": "/app"},
        "endpoints": [{"name": "create_issue", "operation": "issues/create"}],
    }
    (tmp_path / "yaml").mkdir()
    path = tmp_path / "yaml" / "acme.yaml"
    path.write_text(yaml.safe_dump(overlay))
    catalog = load_catalog([path], shipped=False)
    acme = catalog.integrations["acme"]
    assert [e.name for e in acme.endpoints][:2] == ["create_issue", "apps_get"]
    assert acme.endpoints[0].operation == "issues/create"
    overlay["endpoints"] = [{"name": "x", "operation": "gone/away"}]
    path.write_text(yaml.safe_dump(overlay))
    with pytest.raises(CatalogError, match=re.escape(f"{path}: operation 'gone/away' is not in")):
        load_catalog([path], shipped=False)
    overlay["compiled"] = "../compiled/missing.json"
    path.write_text(yaml.safe_dump(overlay))
    with pytest.raises(CatalogError, match=re.escape("missing.json: cannot read")):
        load_catalog([path], shipped=False)


def test_every_shipped_curated_endpoint_keeps_method_and_path_of_its_source() -> None:
    """Catalog truth by construction: every endpoint that names a source operation has
    that operation's method, path and required path parameters (compiled/*.json is the
    importer's output, checked against the pinned sources in test_sources.py)."""
    from skillgate.catalog.overlay import operation_id
    from skillgate.catalog.sources import read_lock

    catalog = load_catalog()
    checked = 0
    for source in read_lock():
        if source.slug not in catalog.integrations:
            continue
        compiled = json.loads(source.compiled_path.read_text())
        by_op = {operation_id(e): e for e in compiled["endpoints"]}
        for e in catalog.integrations[source.slug].endpoints:
            if e.operation is None:
                continue  # hand-written
            want = by_op[e.operation]
            assert (e.method, e.path) == (want["method"], want["path"]), e.name
            wire = {p.wire_name for p in e.parameters if p.location == "path"}
            assert wire == {p["maps_to"] if p.get("maps_to") else p["name"]
                            for p in want["parameters"] if p["in"] == "path"}, e.name  # fmt: skip
            checked += 1
    assert checked > 2_000
