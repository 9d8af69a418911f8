"""`Endpoint.curated`: set by the loader for what a person wrote or reviewed (an
overlay's entries, a hand-written file's endpoints), false for the rest of a compiled
integration and for an importer's output; search ranks it first among equals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from skillgate.catalog.loader import Catalog, load_catalog, parse_file

ERRORS = [{"code": 404, "cause": "Not found.", "fix": "Check the id."}]


def _endpoint(name: str, path: str, operation: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {
        "name": name,
        "method": "GET",
        "path": path,
        "category": "things",
        "description": f"Get the {name.split('_', 1)[-1]} of the account.",
        "parameters": [],
        "errors": ERRORS,
    }
    if operation:
        e["operation"] = operation
    return e


def _integration(endpoints: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "slug": "things",
        "name": "Things",
        "description": "A fixture integration of the curation tests.",
        "base_url": "https://api.things.test",
        "auth": {"token": {"help": "Create a token on the site."}},
        "verify": {"path": "/things"},
        "endpoints": endpoints,
    }


def _curated(path: Path) -> dict[str, bool]:
    return {e.name: e.curated for e in parse_file(path).endpoints}


def test_an_overlay_marks_what_it_lists(tmp_path: Path) -> None:
    compiled = _integration(
        [
            _endpoint("get_things", "/things", "GetThings"),
            _endpoint("get_widgets", "/widgets", "GetWidgets"),
            _endpoint("get_gadgets", "/gadgets", "GetGadgets"),
        ]
    )
    (tmp_path / "things.json").write_text(json.dumps(compiled))
    overlay = {
        "compiled": "things.json",
        "endpoints": [
            {"operation": "GetThings", "name": "list_things"},
            {"operation": "GetGadgets", "curated": False},  # reviewed, yet not a favourite
            _endpoint("get_status", "/status"),  # hand-written, whole
        ],
    }
    (tmp_path / "things.yaml").write_text(yaml.safe_dump(overlay))
    assert _curated(tmp_path / "things.yaml") == {
        "list_things": True,
        "get_gadgets": False,
        "get_status": True,
        "get_widgets": False,  # compiled, untouched
    }


def test_a_hand_written_file_is_curated_but_an_importers_output(tmp_path: Path) -> None:
    written = _integration([_endpoint("get_things", "/things")])
    (tmp_path / "written.yaml").write_text(yaml.safe_dump(written))
    assert _curated(tmp_path / "written.yaml") == {"get_things": True}
    imported = _integration(
        [
            _endpoint("get_things", "/things", "GetThings"),
            {**_endpoint("get_widgets", "/widgets", "GetWidgets"), "curated": True},
        ]
    )
    (tmp_path / "imported.yaml").write_text(yaml.safe_dump(imported))
    assert _curated(tmp_path / "imported.yaml") == {"get_things": False, "get_widgets": True}


def test_the_shipped_catalog_marks_every_overlay_entry() -> None:
    catalog: Catalog = load_catalog()
    for slug in ("slack", "notion", "linear"):  # hand-written whole
        assert all(e.curated for e in catalog.integrations[slug].endpoints), slug
    github = {e.name: e.curated for e in catalog.integrations["github"].endpoints}
    assert github["create_issue"]
    assert github["list_pull_requests"]
    assert not github["activity_star_repo_for_authenticated_user"]
    curated = sum(github.values())
    assert 30 <= curated < len(github) // 10


def test_no_shipped_endpoint_is_described_as_another_operation() -> None:
    """Microsoft Graph's description gives three calls the open-extension page's text
    ("Create open extension" for posting a group conversation or a user's message), one
    the page of another method, and two each other's: the overlay says what their paths
    do. An agent choosing by the description would act on the wrong thing."""
    catalog: Catalog = load_catalog()
    wrong = [
        f"{slug}/{e.name}"
        for slug, integration in catalog.integrations.items()
        for e in integration.endpoints
        if "open extension" in e.description.lower() and "extension" not in e.path.lower()
    ]
    assert wrong == []
    entra = {e.name: e for e in catalog.integrations["microsoft_entra"].endpoints}
    assert entra["users_list_messages"].description.startswith("List messages.")
    assert entra["users_create_messages"].description.startswith("Create message.")
    assert entra["groups_create_conversations"].description.startswith("Create conversation.")
    # A PATCH described as creating the team (the PUT's page), and two reads whose
    # descriptions Graph swapped (a plan's says tasks, a task's says plans).
    assert "Create" not in entra["groups_update_team"].description
    todo = {e.name: e for e in catalog.integrations["microsoft_todo"].endpoints}
    assert "plannerPlans" in todo["me_planner_get_plans"].description
    assert "plannerTasks" not in todo["me_planner_get_plans"].description
    assert "plannerTasks" in todo["me_planner_get_tasks"].description
    assert "plannerPlans" not in todo["me_planner_get_tasks"].description
