"""The compact response schema an endpoint tool declares (importers.responses): the
shape kept, what a real answer could fail for left out, the size bounded."""

from __future__ import annotations

import orjson
from jsonschema import Draft202012Validator

from skillgate.catalog.importers import responses
from skillgate.catalog.importers.openapi import import_openapi


def test_types_properties_and_items_are_kept_the_rest_left_out() -> None:
    source = {
        "type": "object",
        "required": ["id"],
        "additionalProperties": False,
        "description": "A thing.",
        "properties": {
            "id": {"type": "integer", "format": "int64", "example": 1},
            "state": {"type": "string", "enum": ["open", "closed"]},
            "note": {"type": "string", "nullable": True},
            "tags": {"type": "array", "items": {"type": "string"}},
            "raw": {"description": "anything"},
        },
    }
    assert responses.compact(source) == {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "state": {"type": "string"},
            "note": {"type": ["string", "null"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "raw": {},
        },
    }


def test_all_of_merges_and_one_of_admits_every_branch() -> None:
    base = {"type": "object", "properties": {"id": {"type": "integer"}}}
    merged = responses.compact(
        {"allOf": [base, {"type": "object", "properties": {"name": {"type": "string"}}}]}
    )
    assert merged == {
        "type": "object",
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    }
    either = responses.compact(
        {
            "oneOf": [
                {"type": "object", "properties": {"id": {"type": "integer"}}},
                {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "x": {"type": "number"}},
                },
            ]
        }
    )
    assert either is not None
    check = Draft202012Validator(either)
    assert check.is_valid({"id": 1})
    assert check.is_valid({"id": "a", "x": 2})  # id described two ways: left open
    assert not check.is_valid({"x": "not a number"})


def test_a_recursive_schema_ends_and_the_size_is_bounded() -> None:
    node: dict = {"type": "object", "properties": {"name": {"type": "string"}}}
    node["properties"]["children"] = {"type": "array", "items": node}
    out = responses.compact(node)
    assert out is not None
    assert out == {  # where it repeats, its items are left open
        "type": "object",
        "properties": {"name": {"type": "string"}, "children": {"type": "array"}},
    }
    assert len(orjson.dumps(out)) <= responses.MAX_BYTES
    wide = {
        "type": "object",
        "properties": {
            f"field_{i}": {
                "type": "object",
                "properties": {f"sub_{j}": {"type": "string"} for j in range(60)},
            }
            for i in range(80)
        },
    }
    cut = responses.compact(wide)
    assert cut is not None
    assert len(cut["properties"]) == responses.MAX_PROPERTIES
    assert len(orjson.dumps(cut)) <= responses.MAX_BYTES
    assert responses.compact({"type": "string"}) is None  # nothing past its root type
    assert responses.compact(None) is None


def test_the_importer_keeps_it_apart_by_operation() -> None:
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Things", "version": "1"},
        "servers": [{"url": "https://api.things.test"}],
        "paths": {
            "/things/{id}": {
                "get": {
                    "operationId": "things/get",
                    "parameters": [{"name": "id", "in": "path", "required": True,
                                    "schema": {"type": "string"}}],
                    "responses": {"2XX": {"content": {"application/json": {"schema": {
                        "$ref": "#/components/schemas/Thing"}}}, "description": "ok"}},
                }
            }
        },
        "components": {"schemas": {"Thing": {"type": "object", "properties": {
            "id": {"type": "string"}, "size": {"type": "integer"}}}}},
    }  # fmt: skip
    imported = import_openapi(document, slug="things")
    assert "responses" not in imported.endpoints[0]
    assert imported.responses == {
        "things/get": {
            "type": "object",
            "properties": {"id": {"type": "string"}, "size": {"type": "integer"}},
        }
    }
