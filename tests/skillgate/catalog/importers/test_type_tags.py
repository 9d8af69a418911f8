"""A body's type tag (the schema's `discriminator` property) that the source marks
required: left out when the body is one type (Microsoft Graph's `@odata.type` on an
event), kept (and the operation skipped, since its name holds a '.') when the body is
a base whose subtypes the caller must choose between (Graph's attachment). And a lock
entry's path selection over a large description (`sources.selected`)."""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers import import_openapi
from skillgate.catalog.sources import Source, selected
from tests.skillgate.catalog.importers.documents import by_name, params

TAG = {"@odata.type": {"type": "string"}}


def _document() -> dict[str, Any]:
    def body(name: str) -> dict[str, Any]:
        ref = {"$ref": f"#/components/schemas/{name}"}
        return {"required": True, "content": {"application/json": {"schema": ref}}}

    ok = {"200": {"description": "ok"}}
    return {
        "openapi": "3.0.0",
        "info": {"title": "Graph-like", "version": "1"},
        "servers": [{"url": "https://graph.example.com/v1.0"}],
        "paths": {
            "/me/events": {
                "post": {
                    "operationId": "me.CreateEvents",
                    "requestBody": body("event"),
                    "responses": ok,
                }
            },
            "/me/calendars": {
                "post": {
                    "operationId": "me.CreateCalendars",
                    "requestBody": body("calendar"),
                    "responses": ok,
                }
            },
            "/me/events/{event-id}/attachments": {
                "post": {
                    "operationId": "me.events.CreateAttachments",
                    "requestBody": body("attachment"),
                    "responses": ok,
                    "parameters": [
                        {
                            "name": "event-id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                }
            },
            "/me/events/$count": {"get": {"operationId": "count", "responses": ok}},
            "/me/events/{event-id}/instances/{instance-id}": {
                "get": {
                    "operationId": "deep",
                    "responses": ok,
                    "parameters": [
                        {
                            "name": "event-id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "instance-id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                    ],
                }
            },
            "/me/microsoft.graph.reminderView(Start='{Start}')": {
                "get": {"operationId": "fn", "responses": ok}
            },
            "/users": {"get": {"operationId": "users", "responses": ok}},
        },
        "components": {
            "schemas": {
                "entity": {
                    "type": "object",
                    "required": ["@odata.type"],
                    "discriminator": {"propertyName": "@odata.type"},
                    "properties": {"id": {"type": "string", "readOnly": True}, **TAG},
                },
                "event": {
                    "allOf": [
                        {"$ref": "#/components/schemas/entity"},
                        {
                            "type": "object",
                            "required": ["@odata.type"],
                            "properties": {
                                "@odata.type": {
                                    "type": "string",
                                    "default": "#microsoft.graph.event",
                                },
                                "subject": {"type": "string"},
                            },
                        },
                    ]
                },
                "calendar": {
                    "allOf": [
                        {"$ref": "#/components/schemas/entity"},
                        {
                            "type": "object",
                            "required": ["@odata.type"],
                            "properties": {**TAG, "name": {"type": "string"}},
                        },
                    ]
                },
                "attachment": {
                    "allOf": [
                        {"$ref": "#/components/schemas/entity"},
                        {
                            "type": "object",
                            "required": ["@odata.type"],
                            "discriminator": {
                                "propertyName": "@odata.type",
                                "mapping": {
                                    "#microsoft.graph.fileAttachment": "#/components/schemas/entity"
                                },
                            },
                            "properties": {**TAG, "name": {"type": "string"}},
                        },
                    ]
                },
            }
        },
    }


def test_a_one_type_body_leaves_its_type_tag_out() -> None:
    imported = import_openapi(_document(), slug="graphlike")
    endpoints = by_name(imported)
    event = params(endpoints["me_create_events"])
    assert set(event) == {"subject"}  # the tag with a default: the body is an event
    calendar = params(endpoints["me_create_calendars"])
    assert set(calendar) == {"name"}  # no default, no subtypes of its own: a calendar
    [skipped] = [s for s in imported.skipped if s.operation == "me.events.CreateAttachments"]
    assert skipped.reason == "required body field '@odata.type': its name holds a '.'"


def test_a_lock_entry_selects_paths_by_prefix_and_depth() -> None:
    def names(paths: tuple[str, ...], depth: int | None) -> set[str]:
        source = Source("g", "openapi", "npm", "p", "1", "d", "f", "s", "x", paths, depth)
        return set(selected(source, _document())["paths"])

    assert names(("/me/events",), 1) == {"/me/events", "/me/events/{event-id}/attachments"}
    assert names(("/me/events",), None) == {
        "/me/events",
        "/me/events/{event-id}/attachments",
        "/me/events/{event-id}/instances/{instance-id}",
    }  # never `$count` nor a function call `name(arg='{arg}')`
    assert names(("/me$", "/users"), 2) == {"/users"}  # `$`: that path alone
    everything = Source("g", "openapi", "npm", "p", "1", "d", "f", "s", "x")
    assert selected(everything, _document()) == _document()
