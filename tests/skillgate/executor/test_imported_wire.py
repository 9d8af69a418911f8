"""Endpoints imported from excerpts of real documents (tests/fixtures/importers, each
file names its source) execute against the loopback upstream, which records what it
received: a HEAD, a POST with no body (no Content-Type at all), a JSON Patch and a JSON
Merge Patch body with their own Content-Type, a `*/*` body as JSON, a query string the
path carries, a Swagger 2.0 form body and `collectionFormat`s, and a document whose
only server is a path, given `--base-url`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillgate.catalog.importers import import_openapi, integration_dict, load_document
from skillgate.catalog.loader import load_catalog
from tests.conftest import Harness, open_harness
from tests.skillgate.catalog.importers.documents import FIXTURES
from tests.upstream import Provider

DOCUMENTS = {
    "docker": "swagger-docker.yaml",
    "box": "box-json-patch.json",
    "zuora": "zuora-merge-patch.json",
    "flickr": "flickr-query-in-path.json",
    "slack": "swagger-slack.json",
    "jira": "jira-any-media.json",
}


def _catalog_file(folder: Path, slug: str, base_url: str) -> Path:
    imported = import_openapi(load_document(FIXTURES / DOCUMENTS[slug]), slug=slug)
    data: dict[str, Any] = integration_dict(
        imported, slug=f"{slug}_x", base_url=base_url, auth="bearer", verify_path="/me"
    )
    data["allow_private_network"] = True
    path = folder / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.fixture
async def gateway(
    database_url: str, tmp_path: Path, provider: Provider
) -> AsyncIterator[tuple[Harness, str]]:
    folder = tmp_path / "catalog"
    folder.mkdir()
    files = [_catalog_file(folder, slug, provider.url) for slug in DOCUMENTS]
    async with open_harness(database_url, tmp_path, load_catalog(files)) as harness:
        await harness.user(plan="pro")
        full, _ = await harness.key()
        for slug in DOCUMENTS:
            await harness.connect_token(full, f"{slug}_x")
        provider.clear()
        yield harness, full


async def test_head_and_a_post_without_body(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    r = await harness.run(full, "docker_x", "container_archive_info", id="web", path="/etc")
    assert r.json()["status"] == 200, r.text
    r = await harness.run(full, "docker_x", "container_start", id="web")
    assert r.json()["status"] == 200, r.text
    r = await harness.run(
        full, "docker_x", "image_get_all", names="busybox,alpine", platform=["linux/amd64", "x"]
    )
    assert r.json()["status"] == 200, r.text
    head, start, export = provider.api_requests()
    # The document's only server is `basePath: /v1.56`: appended to the given host.
    assert (head.method, head.path, head.query) == (
        "HEAD",
        "/v1.56/containers/web/archive",
        [("path", "/etc")],
    )
    assert (start.method, start.path, start.body) == ("POST", "/v1.56/containers/web/start", b"")
    assert "content-type" not in start.headers  # not application/octet-stream
    assert start.headers["authorization"] == "Bearer good-token"
    # Swagger's `collectionFormat`: csv (the default) one value, `multi` repeated keys.
    assert export.query == [
        ("names", "busybox,alpine"),
        ("platform", "linux/amd64"),
        ("platform", "x"),
    ]


async def test_json_patch_and_merge_patch_bodies_keep_their_type(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    patch = [{"op": "replace", "path": "/status", "value": "done"}]
    r = await harness.run(
        full,
        "box_x",
        "put_files_id_metadata_id_id",
        file_id="12",
        scope="global",
        template_key="properties",
        body=patch,
    )
    assert r.json()["status"] == 200, r.text
    r = await harness.run(
        full,
        "zuora_x",
        "patch_partial_update_custom_object_record",
        object="vehicle",
        id="a1",
        body={"color__c": None, "seats__c": 4},
    )
    assert r.json()["status"] == 200, r.text
    r = await harness.run(full, "jira_x", "set_columns", id=10, body=["summary", "status"])
    assert r.json()["status"] == 200, r.text
    box, zuora, jira = provider.api_requests()
    assert (box.method, box.path) == ("PUT", "/files/12/metadata/global/properties")
    assert box.headers["content-type"] == "application/json-patch+json"
    assert box.json() == patch
    assert (zuora.method, zuora.path) == ("PATCH", "/objects/records/default/vehicle/a1")
    assert zuora.headers["content-type"] == "application/merge-patch+json"
    assert zuora.json() == {"color__c": None, "seats__c": 4}
    # `*/*` with a schema: JSON, as application/json.
    assert (jira.method, jira.path) == ("PUT", "/rest/api/3/filter/10/columns")
    assert jira.headers["content-type"] == "application/json"
    assert jira.json() == ["summary", "status"]


async def test_query_in_the_path_and_a_swagger_form_body(
    gateway: tuple[Harness, str], provider: Provider
) -> None:
    harness, full = gateway
    r = await harness.run(
        full, "flickr_x", "get_favorites_by_person_id", api_key="k", user_id="u1", page=2
    )
    assert r.json()["status"] == 200, r.text
    r = await harness.run(full, "slack_x", "chat_post_message", token="t", channel="C1", text="hi")
    assert r.json()["status"] == 200, r.text
    flickr, slack = provider.api_requests()
    assert (flickr.path, flickr.query) == (
        "/rest",
        [
            ("method", "flickr.favorites.getList"),
            ("api_key", "k"),
            ("user_id", "u1"),
            ("page", "2"),
        ],
    )
    assert (slack.method, slack.path) == ("POST", "/chat.postMessage")
    assert slack.headers["content-type"] == "application/x-www-form-urlencoded"
    assert slack.body == b"channel=C1&text=hi"
