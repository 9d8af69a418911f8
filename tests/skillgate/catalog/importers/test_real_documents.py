"""What real documents contain (issue 25 item 2), on excerpts of them checked in under
tests/fixtures/importers (each file names its source): Swagger 2.0, bodies of other
JSON types, query strings in paths, `$ref`s inside `x-` extensions and dangling ones,
and the reasons listed when nothing imports. Their calls on the wire:
tests/skillgate/executor/test_imported_wire.py."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from skillgate.catalog.importers import (
    import_discovery,
    import_openapi,
    integration_dict,
    load_document,
)
from skillgate.cli.catalog import catalog
from tests.skillgate.catalog.importers.documents import FIXTURES, MAIL, by_name, params

SLACK = FIXTURES / "swagger-slack.json"
DOCKER = FIXTURES / "swagger-docker.yaml"
JIRA = FIXTURES / "jira-any-media.json"


def test_swagger_2_servers_security_and_form_body() -> None:
    slack = import_openapi(load_document(SLACK), slug="slack")
    assert slack.base_url == "https://slack.com/api"  # schemes + host + basePath
    assert slack.authorize_url == "https://slack.com/oauth/authorize"  # accessCode flow
    assert slack.token_url == "https://slack.com/api/oauth.access"
    assert "chat:write:bot" in slack.scopes
    post = by_name(slack)["chat_post_message"]
    assert (post["method"], post["path"], post["body"]) == ("POST", "/chat.postMessage", "form")
    fields = params(post)
    assert fields["channel"]["in"] == "body"
    assert fields["channel"]["required"] is True
    assert fields["mrkdwn"]["type"] == "boolean"
    assert post["docs_url"] == "https://api.slack.com/methods/chat.postMessage"
    listing = params(by_name(slack)["conversations_list"])
    assert listing["limit"]["type"] == "number"
    assert listing["limit"]["in"] == "query"


def test_swagger_2_body_parameter_refs_and_relative_base_path() -> None:
    docker = import_openapi(load_document(DOCKER), slug="docker")
    assert docker.base_url is None
    assert docker.base_path == "/v1.56"
    update = params(by_name(docker)["container_update"])
    # `in: body` with `allOf: [$ref Resources, {RestartPolicy: $ref}]`, resolved first.
    assert update["Memory"]["in"] == "body"
    assert update["RestartPolicy_Name"]["maps_to"] == "RestartPolicy.Name"
    assert "always" in update["RestartPolicy_Name"]["enum"]
    assert by_name(docker)["container_archive_info"]["method"] == "HEAD"
    export = params(by_name(docker)["image_get_all"])
    # `collectionFormat` absent is Swagger's default `csv`; `multi` repeats the key.
    assert export["names"]["type"] == "string"
    assert "Comma-separated." in export["names"]["description"]
    assert (export["platform"]["type"], export["platform"]["items"]) == ("array", "string")
    [skipped] = docker.skipped
    assert skipped.operation == "PutContainerArchive"
    assert "application/x-tar" in skipped.reason
    data = integration_dict(
        docker, slug="docker", base_url="http://127.0.0.1:2375", auth="bearer", verify_path="/x"
    )
    assert data["base_url"] == "http://127.0.0.1:2375/v1.56"
    kept = integration_dict(
        docker, slug="docker", base_url="https://d.example/v1.41", auth="bearer", verify_path="/x"
    )
    assert kept["base_url"] == "https://d.example/v1.41"  # a base URL with a path is kept


def test_any_media_body_with_a_schema_is_json_and_without_is_skipped() -> None:
    jira = import_openapi(load_document(JIRA), slug="jira")
    [columns] = by_name(jira)["set_columns"]["parameters"][1:]
    assert (columns["name"], columns["type"], columns["items"]) == ("body", "array", "string")
    assert columns["whole_body"] is True
    assert "content_type" not in by_name(jira)["set_columns"]  # */*: sent as application/json
    [avatar] = jira.skipped
    assert avatar.operation == "createProjectAvatar"
    assert avatar.reason == "request body of any type (*/*) with no schema: a raw upload"


def test_query_string_in_path_is_a_fixed_query() -> None:
    flickr = import_openapi(load_document(FIXTURES / "flickr-query-in-path.json"), slug="f")
    endpoints = by_name(flickr)
    assert endpoints["get_favorites_by_person_id"]["path"] == "/rest"
    assert endpoints["get_favorites_by_person_id"]["query"] == {
        "method": "flickr.favorites.getList"
    }
    assert endpoints["get_favorites_context_by_id"]["query"] == {
        "method": "flickr.favorites.getContext"
    }


def _box() -> dict[str, Any]:
    return load_document(FIXTURES / "box-json-patch.json")


def test_refs_in_extensions_are_ignored_and_dangling_ones_noted() -> None:
    document = _box()
    op = document["paths"]["/files/{file_id}/metadata/{scope}/{template_key}"]["put"]
    op["x-box-sample"] = {"$ref": "#/components/examples/Missing"}  # never read: dropped
    body = op["requestBody"]["content"]["application/json-patch+json"]["schema"]
    body["items"]["properties"]["op"] = {"$ref": "#/components/schemas/Gone", "description": "Op"}
    imported = import_openapi(document, slug="box")
    [endpoint] = imported.endpoints
    assert endpoint["content_type"] == "application/json-patch+json"
    [note] = [n for n in imported.notes if "dangling" in n]
    assert "'#/components/schemas/Gone'" in note
    assert "paths//files/{file_id}/metadata/{scope}/{template_key}/put/requestBody" in note
    assert not any("Missing" in n for n in imported.notes)


def test_the_source_document_is_left_as_it_was() -> None:
    document = _box()
    op = document["paths"]["/files/{file_id}/metadata/{scope}/{template_key}"]["put"]
    op["x-sample"] = {"$ref": "#/nowhere"}
    before = copy.deepcopy(document)
    import_openapi(document, slug="box")
    assert document == before


def test_nothing_imported_lists_the_reasons(tmp_path: Path) -> None:
    document = load_document(JIRA)
    del document["paths"]["/rest/api/3/filter/{id}/columns"]
    source = tmp_path / "avatars.yaml"
    source.write_text(yaml.safe_dump(document))
    out = tmp_path / "out.yaml"
    result = CliRunner().invoke(
        catalog, ["import", "openapi", str(source), "--slug", "avatars", "--out", str(out)]
    )
    assert result.exit_code == 1
    assert result.stderr == (
        f"skillgate: {source}: no operation imported: 1 operations skipped\n"
        "  1 skipped: request body of any type (*/*) with no schema: a raw upload\n"
    )
    assert not out.exists()


def test_swagger_document_imports_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "docker.yaml"
    args = ["import", "openapi", str(DOCKER), "--slug", "docker", "--out", str(out)]
    extra = ["--base-url", "https://docker.example", "--auth", "bearer", "--verify-path", "/_ping"]
    result = CliRunner().invoke(catalog, args + extra)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(out.read_text())
    assert data["base_url"] == "https://docker.example/v1.56"
    assert [e["method"] for e in data["endpoints"]] == ["POST", "HEAD", "POST", "GET"]


def test_a_dangling_discovery_reference_is_noted_too() -> None:
    document = load_document(MAIL)
    document["schemas"]["Message"]["properties"]["payload"]["$ref"] = "Gone"
    imported = import_discovery(document, slug="mail")
    assert imported.endpoints
    assert any("dangling $ref '#/schemas/Gone' at schemas/Message" in n for n in imported.notes)
