"""What an agent is told is required is what the source requires (issue 25.1).

A body schema's `required` list binds whether or not `requestBody.required` is set
(the gateway sends a body on every POST, PUT and PATCH), also inside a single object
`oneOf`; an overlay cannot quietly relax a source-required field (Gmail's
`create_label`), only through its reviewed `optional` list with a reason.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from skillgate.catalog.importers import import_openapi
from skillgate.catalog.loader import Catalog, load_catalog
from skillgate.catalog.models import Endpoint, Parameter
from skillgate.catalog.overlay import OverlayError, apply_overlay
from skillgate.errors import BadRequest
from skillgate.executor.params import validate


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog()


def _endpoint(catalog: Catalog, slug: str, name: str) -> Endpoint:
    [endpoint] = [e for e in catalog.integrations[slug].endpoints if e.name == name]
    return endpoint


def _required(catalog: Catalog, slug: str, name: str) -> set[str]:
    return {p.wire_name for p in _endpoint(catalog, slug, name).parameters if p.required}


@pytest.mark.parametrize(
    ("slug", "name", "fields"),
    [
        ("box", "post_groups", {"name"}),  # requestBody.required absent
        ("sendgrid", "send_mail", {"personalizations", "from", "subject", "content"}),
        ("github", "repos_set_status_check_contexts", {"contexts"}),  # single object oneOf
        ("github", "repos_add_team_access_restrictions", {"teams"}),
        ("github", "users_add_email_for_authenticated_user", {"emails"}),
        ("github", "users_delete_email_for_authenticated_user", {"emails"}),
        ("gmail", "create_label", {"name", "labelListVisibility", "messageListVisibility"}),
    ],
)
def test_the_sources_required_fields_are_required(
    shipped: Catalog, slug: str, name: str, fields: set[str]
) -> None:
    assert fields <= _required(shipped, slug, name)


def test_a_call_without_a_source_required_body_field_is_refused_naming_it(
    shipped: Catalog,
) -> None:
    endpoint = _endpoint(shipped, "box", "post_groups")
    with pytest.raises(BadRequest) as caught:
        validate(endpoint, {"description": "Finance team"})
    assert "name: is required" in str(caught.value)
    assert validate(endpoint, {"name": "Finance"}) == {"name": "Finance"}


def _document(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Groups", "version": "1"},
        "servers": [{"url": "https://api.groups.test"}],
        "paths": {
            "/groups": {
                "post": {
                    "operationId": "createGroup",
                    "requestBody": body,
                    "responses": {"201": {"description": "Created."}},
                }
            }
        },
    }


_OBJECT = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "note": {"type": "string"}},
    "required": ["name"],
}


@pytest.mark.parametrize(
    "body",
    [
        {"content": {"application/json": {"schema": _OBJECT}}},
        {"required": False, "content": {"application/json": {"schema": _OBJECT}}},
        {"required": False, "content": {"application/json": {"schema": {"oneOf": [_OBJECT]}}}},
        {"content": {"application/x-www-form-urlencoded": {"schema": _OBJECT}}},
    ],
    ids=["required-absent", "required-false", "single-oneof", "form"],
)
def test_the_body_schemas_required_list_binds_however_the_body_is_marked(
    body: dict[str, Any],
) -> None:
    imported = import_openapi(_document(body), slug="groups")
    [endpoint] = imported.endpoints
    by_name = {p["name"]: p for p in endpoint["parameters"]}
    assert by_name["name"]["required"] is True
    assert by_name["name"]["example"] == "name"
    assert "required" not in by_name["note"]


def _compiled() -> dict[str, Any]:
    def param(name: str, **more: Any) -> dict[str, Any]:
        return {"name": name, "type": "string", "in": "body", "description": f"The {name}.", **more}

    return {
        "slug": "acme",
        "name": "Acme",
        "description": "Acme.",
        "base_url": "https://api.acme.test",
        "endpoints": [
            {
                "name": "create_label",
                "operation": "labels.create",
                "method": "POST",
                "path": "/labels",
                "category": "labels",
                "description": "Create a label.",
                "parameters": [
                    param("name", required=True, example="name"),
                    param("visibility", required=True, example="show", enum=["show", "hide"]),
                    param("color"),
                ],
                "errors": [{"code": 400, "cause": "Bad.", "fix": "Fix it."}],
            }
        ],
    }


def _curated(*params: dict[str, Any], **overlay: Any) -> dict[str, Any]:
    entry = {"operation": "labels.create", "name": "create_label", "parameters": list(params)}
    merged = apply_overlay(copy.deepcopy(_compiled()), {"endpoints": [entry], **overlay})
    [endpoint] = merged["endpoints"]
    return {p["name"]: p for p in endpoint["parameters"]}


def test_a_curated_parameter_keeps_the_sources_required_and_example() -> None:
    shown = {"name": "visibility", "type": "string", "in": "body", "description": "Shown or not."}
    params = _curated(shown)
    assert params["visibility"]["required"] is True
    assert params["visibility"]["example"] == "show"
    assert params["visibility"]["description"] == "Shown or not."  # the overlay's text
    own = _curated({**shown, "example": "hide"})
    assert own["visibility"]["example"] == "hide"


@pytest.mark.parametrize("relaxing", [{"required": False}, {"default": "show"}])
def test_relaxing_a_source_required_parameter_needs_the_reviewed_list(
    relaxing: dict[str, Any],
) -> None:
    shown = {"name": "visibility", "type": "string", "in": "body", "description": "Shown."}
    with pytest.raises(OverlayError, match="'visibility' is required by the source"):
        _curated({**shown, **relaxing})
    reviewed = [
        {
            "operation": "labels.create",
            "parameter": "visibility",
            "reason": 'Acme: "visibility defaults to show when left out."',
        }
    ]
    params = _curated({**shown, **relaxing}, optional=reviewed)
    assert not params["visibility"].get("required")


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (
            {"operation": "labels.create", "parameter": "color", "reason": "Acme says so, really."},
            "requires no parameter 'color'",
        ),
        (
            {"operation": "labels.create", "parameter": "visibility", "reason": "short"},
            "give the `reason`",
        ),
        (
            {"operation": "labels.gone", "parameter": "name", "reason": "Acme says so, really."},
            "requires no parameter 'name'",
        ),
    ],
)
def test_a_stale_or_unexplained_optional_entry_is_refused(
    rule: dict[str, Any], problem: str
) -> None:
    with pytest.raises(OverlayError, match=problem):
        _curated(optional=[rule])


def test_a_curated_parameter_keeps_the_sources_other_forms_and_null() -> None:
    compiled = _compiled()
    union = {"type": "string", "also": ["number"], "nullable": True}
    compiled["endpoints"][0]["parameters"][2].update(union)  # color
    restated = {"name": "color", "type": "number", "in": "body", "description": "A colour."}
    entry = {"operation": "labels.create", "name": "create_label", "parameters": [restated]}
    [endpoint] = apply_overlay(compiled, {"endpoints": [entry]})["endpoints"]
    color = next(p for p in endpoint["parameters"] if p["name"] == "color")
    assert (color["type"], color["also"], color["nullable"]) == ("number", ["string"], True)
    own = {**restated, "nullable": False, "also": []}
    entry["parameters"] = [own]
    [endpoint] = apply_overlay(compiled, {"endpoints": [entry]})["endpoints"]
    color = next(p for p in endpoint["parameters"] if p["name"] == "color")
    assert (color["also"], color["nullable"]) == ([], False)  # the entry's own word wins


@pytest.mark.parametrize(
    ("more", "problem"),
    [
        ({"in": "query", "nullable": True}, "only body parameters can be nullable"),
        ({"also": ["string"]}, "`also` repeats a type"),
        ({"also": ["number", "number"]}, "`also` repeats a type"),
    ],
)
def test_unions_and_null_are_checked_in_the_model(more: dict[str, Any], problem: str) -> None:
    raw = {"name": "x", "type": "string", "in": "body", "description": "The x.", **more}
    with pytest.raises(ValueError, match=problem):
        Parameter.model_validate(raw)
