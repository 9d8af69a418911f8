"""The OpenAPI importer on the 3.0 (YAML) and 3.1 (JSON) fixtures: what each rule makes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from skillgate.catalog.importers import (
    DocumentError,
    Imported,
    import_openapi,
    integration_dict,
    load_document,
)
from skillgate.catalog.models import Endpoint
from skillgate.catalog.validate import check_example
from tests.skillgate.catalog.importers.documents import PETSTORE, by_name, params


def test_document_facts(petstore: Imported, notes: Imported) -> None:
    assert petstore.title == "Petstore API"
    assert petstore.base_url == "https://eu.petstore.example.com/v1"  # server variable default
    assert petstore.docs_url == "https://docs.example.com/petstore"
    assert petstore.auth_hint == "bearer"
    assert notes.authorize_url == "https://notes.example.com/oauth/authorize"
    assert notes.token_url == "https://notes.example.com/oauth/token"
    assert notes.scopes == {"notes:read": "Read notes", "notes:write": "Write notes"}
    assert notes.verify_path == "/me"  # the caller, over the first parameterless GET


def test_skipped_operations_each_with_its_reason(petstore: Imported) -> None:
    reasons = {s.operation: (s.method, s.path, s.reason) for s in petstore.skipped}
    assert reasons == {
        "uploads/create": (
            "POST",
            "/uploads",
            "served from another host (https://uploads.petstore.example.com), not the base URL",
        ),
        "pets/visits": (
            "GET",
            "/pets/{petId}/visits",
            "required cookie parameter 'session': cookies are not sent by the executor",
        ),
    }
    cookie = "optional cookie parameter 'session': cookies are not sent by the executor"
    assert f"pets/list: {cookie}: left out" in petstore.notes
    assert any("'Authorization': left out, the gateway sends it" in n for n in petstore.notes)


def test_head_and_an_array_body_import(petstore: Imported) -> None:
    head = by_name(petstore)["pets_head"]
    assert (head["method"], head["path"], head["changes_data"]) == ("HEAD", "/pets", False)
    [body] = by_name(petstore)["pets_bulk_create"]["parameters"]
    assert (body["name"], body["in"], body["type"], body["whole_body"]) == (
        "body",
        "body",
        "array",
        True,
    )
    assert body["required"] is True


def test_names_snake_case_unique_and_without_operation_id(petstore: Imported) -> None:
    names = [e["name"] for e in petstore.endpoints]
    assert names[:3] == ["pets_head", "pets_list", "pets_create"]
    # `pets.list` snake-cases to the name `pets/list` already holds: a deterministic suffix.
    assert by_name(petstore)["pets_list_2"]["operation"] == "pets.list"
    # No operationId: method + path.
    assert by_name(petstore)["delete_pets_pet_id"]["method"] == "DELETE"
    assert "operation" not in by_name(petstore)["delete_pets_pet_id"]


def test_parameters_sanitised_with_maps_to_and_location_collisions(petstore: Imported) -> None:
    listing = params(by_name(petstore)["pets_list"])
    assert listing["sort_by"]["maps_to"] == "sort-by"
    assert listing["X_Request_Id"] == {
        "name": "X_Request_Id",
        "type": "string",
        "in": "header",
        "description": "The X_Request_Id parameter.",
        "maps_to": "X-Request-Id",
    }
    assert "Authorization" not in listing
    assert "session" not in listing
    # A default outside the enum is dropped; the enum stays.
    assert listing["sort_by"]["enum"] == ["name", "age"]
    assert "default" not in listing["sort_by"]
    update = params(by_name(petstore)["pets_update"])
    assert update["state"]["in"] == "query"
    assert "maps_to" not in update["state"]
    assert update["state_body"]["in"] == "body"
    assert update["state_body"]["maps_to"] == "state"


def test_one_of_and_explode(petstore: Imported) -> None:
    listing = params(by_name(petstore)["pets_list"])
    assert listing["size"]["type"] == "number"  # integer | number
    assert (listing["ids"]["type"], listing["ids"]["items"]) == ("array", "string")
    assert listing["tags"]["type"] == "string"  # explode: false
    assert listing["tags"]["description"] == "Comma-separated."


def test_all_of_merged_read_only_left_out_small_object_flattened(petstore: Imported) -> None:
    create = by_name(petstore)["pets_create"]
    p = params(create)
    assert list(p) == ["name", "tag", "owner_name", "owner_email", "metadata"]
    assert p["name"]["required"] is True
    assert p["name"]["example"] == "Rex"
    assert p["owner_name"]["maps_to"] == "owner.name"
    assert p["metadata"]["type"] == "object"  # a map, passed as JSON
    assert "id" not in p  # readOnly
    assert create["changes_data"] is True


def test_recursive_ref_body(petstore: Imported) -> None:
    tree = params(by_name(petstore)["pets_put_tree"])
    assert tree["children"]["type"] == "array"
    assert "items" not in tree["children"]
    assert tree["petId"] == {
        "name": "petId",
        "type": "number",
        "in": "path",
        "required": True,
        "description": "The pet's id.",
        "example": 1,
    }


def test_form_body(petstore: Imported) -> None:
    token = by_name(petstore)["token_create"]
    assert token["body"] == "form"
    p = params(token)
    assert p["grant_type"]["example"] == "authorization_code"  # enum[0]
    assert p["client_id"]["maps_to"] == "client[id]"  # nested form fields, bracketed
    # an array of strings with no `encoding`: OpenAPI's default, form + explode (k=a&k=b)
    assert (p["scopes"]["type"], p["scopes"]["items"], p["scopes"]["style"]) == (
        "array",
        "string",
        "form",
    )


def test_multipart_body_with_a_file_field(petstore: Imported) -> None:
    photo = by_name(petstore)["pets_upload_photo"]
    assert photo["body"] == "multipart"
    assert params(photo)["file"] == {
        "name": "file",
        "type": "string",
        "in": "body",
        "description": "The file parameter.",
        "file": True,
    }


def test_a_post_named_search_is_a_write_and_bad_example_falls_back(petstore: Imported) -> None:
    search = by_name(petstore)["pets_search"]
    # A name is no marker (Stripe's PostRadarValueListsValueList updates a list): without
    # the source's read flag, a POST changes data; the overlay's `reads` says otherwise.
    assert search["changes_data"] is True
    # The source example "true" would parse back as a boolean: the placeholder replaces it.
    assert params(search)["q"]["example"] == "q"
    assert check_example("petstore", Endpoint.model_validate(search)) is None


def test_pagination_recognised(petstore: Imported, notes: Imported) -> None:
    assert by_name(petstore)["pets_list"]["pagination"] == {
        "style": "link_header",
        "param": "page",
        "size_param": "per_page",
        "max_size": 100,  # from "(max 100)" in the description
    }
    assert by_name(notes)["list_notes"]["pagination"] == {
        "style": "cursor",
        "param": "start_cursor",
        "next": "next_cursor",
        "items": "results",  # the response's one array property
        "size_param": "page_size",
        "max_size": 100,
    }
    assert by_name(notes)["list_archive"]["pagination"] == {
        "style": "offset",
        "param": "offset",
        "size_param": "limit",
        "max_size": 50,
    }
    assert "pagination" not in by_name(notes)["get_me"]


def test_errors_documented_or_fallback(petstore: Imported, notes: Imported) -> None:
    assert by_name(petstore)["pets_list"]["errors"] == [
        {
            "code": 401,
            "cause": "Requires authentication.",
            "fix": "Reconnect the integration on the dashboard's Integrations page.",
        }
    ]
    # "Not Found" says nothing more than the status: the table's cause.
    [nf] = by_name(petstore)["pets_get"]["errors"]
    assert nf["cause"] == "The resource does not exist or the connected account cannot see it."
    assert [e["code"] for e in by_name(petstore)["delete_pets_pet_id"]["errors"]] == [400, 403, 404]
    # 4XX and default responses are not statuses.
    assert [e["code"] for e in by_name(notes)["list_notes"]["errors"]] == [400, 403]


def test_descriptions_cleaned_and_docs_url(petstore: Imported, notes: Imported) -> None:
    listing = by_name(petstore)["pets_list"]
    assert listing["description"] == "List pets. Lists the pets. See the guide and code."
    assert listing["docs_url"] == "https://docs.example.com/petstore"
    assert by_name(petstore)["pets_get"]["docs_url"] == "https://docs.example.com/petstore#get"
    assert by_name(notes)["create_note"]["description"].startswith("Create a note. Creates a note.")
    assert "---" not in by_name(notes)["create_note"]["description"]


def test_openapi_31_type_lists_examples_and_ref_siblings(notes: Imported) -> None:
    p = params(by_name(notes)["create_note"])
    assert p["title"]["type"] == "string"
    assert p["title"]["example"] == "Groceries"
    assert p["pinned"]["type"] == "boolean"
    assert p["priority"] == {
        "name": "priority",
        "type": "number",
        "in": "body",
        "description": "May be null.",  # [integer, "null"]: null is sent (issue 25.1)
        "enum": [1, 2, 3],
        "nullable": True,
    }
    assert p["body"]["type"] == "object"
    assert p["body"]["description"] == "The note's first block."  # beside the $ref
    assert p["parent"]["type"] == "object"  # anyOf [Note (recursive), null]
    assert params(by_name(notes)["get_note"])["note_id"]["example"] == "n_123"


def test_query_objects(notes: Imported) -> None:
    p = params(by_name(notes)["list_archive"])
    assert p["filter"]["type"] == "object"  # `content: application/json`: sent as JSON text
    assert "style" not in p["filter"]
    # `style: deepObject` (explode not given: brackets are its only defined form)
    assert (p["where"]["type"], p["where"]["style"]) == ("object", "deepObject")


def test_deep_object_query_array_is_sent_with_brackets(notes: Imported) -> None:
    # Stripe's `expand`: `expand[]=a&expand[]=b` (the way deepObject servers read arrays)
    p = params(by_name(notes)["list_archive"])["expand"]
    assert p["maps_to"] == "expand[]"
    assert (p["type"], p["items"]) == ("array", "string")


def test_a_path_fragment_is_not_part_of_the_request(notes: Imported) -> None:
    # Box's `/files/{file_id}#add_shared_link`: the fragment tells operations apart
    share = by_name(notes)["share_note"]
    assert (share["method"], share["path"], share["operation"]) == (
        "PUT",
        "/notes/{note_id}",
        "shareNote",
    )
    assert params(share)["fields"]["example"] == "shared"


def test_category_without_tags_is_the_first_segment_past_a_version(notes: Imported) -> None:
    assert by_name(notes)["list_labels"]["category"] == "labels"  # GET /v2/labels


def test_a_data_envelope_is_flattened_one_level(notes: Imported) -> None:
    p = params(by_name(notes)["create_label"])
    assert list(p) == [
        "data_name",
        "data_color",
        "data_hidden",
        "data_rank",
        "data_aliases",
        "data_style",
        "data_owner",
    ]  # `gid` is read-only
    assert p["data_name"] | {"description": ""} == {
        "name": "data_name",
        "type": "string",
        "in": "body",
        "required": True,
        "description": "",
        "maps_to": "data.name",
        "example": "urgent",
    }
    assert p["data_style"]["type"] == "object"  # a nested object stays one parameter
    assert not p["data_color"].get("required")


def test_integration_from_the_document(notes: Imported) -> None:
    data = integration_dict(notes, slug="notes")
    assert data["name"] == "Notes"
    assert data["description"] == "Keep notes & lists."
    assert data["auth"]["oauth2"]["scopes"] == ["notes:read", "notes:write"]
    assert data["auth"]["token"]["format"] == "Bearer {token}"
    assert data["verify"] == {"method": "GET", "path": "/me"}
    keyed = integration_dict(notes, slug="notes", auth="header:X-Api-Key")
    assert keyed["auth"]["token"] | {"help": ""} == {
        "label": "API key",
        "help": "",
        "header": "X-Api-Key",
        "format": "{token}",
    }
    queried = integration_dict(notes, slug="notes", auth="query:key")
    assert queried["auth"]["token"]["query"] == "key"
    with pytest.raises(DocumentError, match="expected bearer, header:NAME or query:NAME"):
        integration_dict(notes, slug="notes", auth="cookie:key")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"swagger": "1.2", "paths": {}}, r"Swagger 1.2 is not supported \(2.0 is\)"),
        ({"openapi": "2.5", "paths": {}}, "not an OpenAPI 3.0/3.1 or Swagger 2.0 document"),
        ({"openapi": "3.0.0"}, "no `paths`"),
        (
            {
                "openapi": "3.0.0",
                "paths": {"/a": {"get": {"parameters": [{"$ref": "other.yaml#/p"}]}}},
            },
            "external reference",
        ),
    ],
)
def test_documents_refused_with_a_clear_error(document: dict[str, Any], message: str) -> None:
    with pytest.raises(DocumentError, match=message):
        import_openapi(document, slug="x")


def test_load_document_reads_json_yaml_paths_and_text(tmp_path: Any) -> None:
    from_path = load_document(PETSTORE)
    from_text = load_document(PETSTORE.read_text())
    assert from_path == from_text
    assert from_path["openapi"] == "3.0.3"
    json_file = tmp_path / "doc.json"
    json_file.write_text(json.dumps({"openapi": "3.1.0"}))
    assert load_document(str(json_file)) == {"openapi": "3.1.0"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1,\n")
    with pytest.raises(DocumentError, match=rf"{bad}: invalid YAML"):
        load_document(bad)
    with pytest.raises(DocumentError, match=r"missing\.yaml: cannot read: no such file"):
        load_document(str(tmp_path / "missing.yaml"))
    with pytest.raises(DocumentError, match="must be a JSON or YAML object"):
        load_document("[1, 2]")


def test_a_malformed_operation_is_skipped_not_fatal() -> None:
    document = {
        "openapi": "3.0.0",
        "servers": [{"url": "https://x.example.com"}],
        "paths": {
            "/bad": {
                "get": {
                    "operationId": "bad",
                    "parameters": [{"name": "q", "in": "query", "examples": ["not", "a map"]}],
                }
            },
            "/good": {"get": {"operationId": "good", "responses": {"200": {"description": "OK"}}}},
        },
    }
    imported = import_openapi(document, slug="x")
    assert [e["name"] for e in imported.endpoints] == ["good"]
    [bad] = imported.skipped
    assert (bad.operation, bad.method, bad.path) == ("bad", "GET", "/bad")
    assert bad.reason.startswith("the operation is malformed (AttributeError: ")


def test_scopes_when_each_security_alternative_is_one_oauth_scope() -> None:
    ok = {"200": {"description": "OK"}}
    document = {
        "openapi": "3.0.0",
        "servers": [{"url": "https://x.example.com"}],
        "security": [{"oauth": ["things:read"]}],
        "components": {
            "securitySchemes": {
                "oauth": {
                    "type": "oauth2",
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": "https://x.example.com/authorize",
                            "tokenUrl": "https://x.example.com/token",
                            "scopes": {"things:read": "Read", "things:write": "Write"},
                        }
                    },
                },
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
            }
        },
        "paths": {
            "/inherits": {"get": {"operationId": "inherits", "responses": ok}},
            "/either": {
                "get": {
                    "operationId": "either",
                    "security": [{"oauth": ["things:read"]}, {"oauth": ["things:write"]}],
                    "responses": ok,
                }
            },
            "/both": {
                "get": {
                    "operationId": "both",
                    "security": [{"oauth": ["things:read", "things:write"]}],
                    "responses": ok,
                }
            },
            "/or_key": {
                "get": {
                    "operationId": "or_key",
                    "security": [{"oauth": ["things:read"]}, {"key": []}],
                    "responses": ok,
                }
            },
            "/open": {"get": {"operationId": "open", "security": [], "responses": ok}},
        },
    }
    eps = by_name(import_openapi(document, slug="x"))
    assert eps["inherits"]["scopes"] == ["things:read"]
    assert eps["either"]["scopes"] == ["things:read", "things:write"]
    # All of several scopes at once, another way in, or no auth: no single-scope list.
    for name in ("both", "or_key", "open"):
        assert "scopes" not in eps[name], name


@pytest.mark.parametrize("flag", ["x-readOnly", "x-read-only", "x-readonly"])
def test_only_the_documents_read_flag_makes_a_post_a_read(flag: str) -> None:
    document = load_document(PETSTORE)
    document["paths"]["/pets/search"]["post"][flag] = True
    marked = by_name(import_openapi(document, slug="petstore"))
    assert marked["pets_search"]["changes_data"] is False
    assert marked["pets_create"]["changes_data"] is True
