"""`skillgate catalog import openapi|google`, run in-process: a validated catalog file out,
a summary and the skipped operations on stderr, clear errors with a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from skillgate.catalog.loader import load_catalog
from skillgate.catalog.models import Integration
from skillgate.catalog.validate import check_integration
from skillgate.cli.catalog import catalog
from tests.skillgate.catalog.importers.documents import MAIL, NOTES, PETSTORE


def test_openapi_writes_a_catalog_file_the_server_loads(tmp_path: Path) -> None:
    out = tmp_path / "petstore.yaml"
    args = ["import", "openapi", str(PETSTORE), "--slug", "petstore", "--out", str(out)]
    result = CliRunner().invoke(catalog, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert f"{PETSTORE}: 12 endpoints for 'petstore' written to {out}; 2 operations skipped" in (
        result.stderr
    )
    assert (
        "  skipped pets/visits (GET /pets/{petId}/visits): required cookie parameter "
        "'session': cookies are not sent by the executor" in result.stderr
    )
    assert "pets/upload-photo" not in result.stderr  # a multipart upload imports
    data = yaml.safe_load(out.read_text())
    integration = Integration.model_validate(data)
    assert check_integration(integration) == []
    assert integration.base_url == "https://eu.petstore.example.com/v1"
    assert integration.verify.path == "/pets"
    assert integration.auth.token is not None
    assert integration.auth.token.format == "Bearer {token}"
    # The file is one the loader takes beside the shipped catalog.
    loaded = load_catalog([out])
    assert loaded.endpoint("petstore", "pets_create") is not None


def test_openapi_options_override_the_document(tmp_path: Path) -> None:
    args = [
        "import", "openapi", str(NOTES), "--slug", "notes", "--base-url", "http://127.0.0.1:9/api",
        "--auth", "header:X-Api-Key", "--verify-path", "/notes", "--name", "Our notes",
        "--out", "-", "--allow-private-network",
    ]  # fmt: skip
    result = CliRunner().invoke(catalog, args)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.stdout)  # --out -: the file on stdout
    assert data["name"] == "Our notes"
    assert data["base_url"] == "http://127.0.0.1:9/api"
    assert data["auth"]["token"]["header"] == "X-Api-Key"
    assert data["verify"]["path"] == "/notes"
    assert data["allow_private_network"] is True  # 127.0.0.1: the operator said so
    assert "skillgate: " in result.stderr
    assert "written to stdout" in result.stderr


def test_google_writes_a_catalog_file(tmp_path: Path) -> None:
    out = tmp_path / "mail.yaml"
    result = CliRunner().invoke(
        catalog, ["import", "google", str(MAIL), "--slug", "mail", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "  skipped mail.files.upload (POST /files): needs a media upload" in result.stderr
    assert "  note mail.files.get: media download (alt=media)" in result.stderr
    integration = Integration.model_validate(yaml.safe_load(out.read_text()))
    assert check_integration(integration) == []
    assert integration.auth.oauth2 is not None


def test_errors_name_the_file_and_exit_non_zero(tmp_path: Path) -> None:
    runner = CliRunner()
    cookie = runner.invoke(
        catalog, ["import", "openapi", str(NOTES), "--slug", "notes", "--auth", "cookie:key"]
    )
    assert cookie.exit_code == 1
    assert f"skillgate: {NOTES}: --auth 'cookie:key': expected bearer" in cookie.stderr
    swagger = tmp_path / "old.json"
    swagger.write_text('{"swagger": "1.2", "paths": {}}')
    old = runner.invoke(catalog, ["import", "openapi", str(swagger), "--slug", "old"])
    assert old.exit_code == 1
    assert f"skillgate: {swagger}: Swagger 1.2 is not supported (2.0 is)" in old.stderr
    missing = runner.invoke(
        catalog, ["import", "google", str(tmp_path / "nope.json"), "--slug", "x"]
    )
    assert missing.exit_code == 1
    assert "nope.json: cannot read" in missing.stderr
    bad_slug = runner.invoke(catalog, ["import", "google", str(MAIL), "--slug", "Bad-Slug"])
    assert bad_slug.exit_code == 1
    assert f"{MAIL}: slug: slug 'Bad-Slug' must match" in bad_slug.stderr


def test_no_verify_candidate_asks_for_verify_path(tmp_path: Path) -> None:
    doc = tmp_path / "post-only.yaml"
    doc.write_text(
        "openapi: 3.0.0\ninfo: {title: Posts}\nservers: [{url: 'https://p.example.com'}]\n"
        "paths:\n  /things/{id}:\n    get:\n      operationId: get-thing\n"
        "      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n"
        "      responses: {'200': {description: OK}}\n"
    )
    result = CliRunner().invoke(
        catalog, ["import", "openapi", str(doc), "--slug", "posts", "--auth", "bearer"]
    )
    assert result.exit_code == 1
    assert f"skillgate: {doc}: no GET without required parameters" in result.stderr
    assert "pass --verify-path" in result.stderr
