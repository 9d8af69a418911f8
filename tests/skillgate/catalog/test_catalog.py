"""The shipped catalog validates; malformed files are named precisely and stop the server."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from skillgate.catalog.coerce import coerce
from skillgate.catalog.examples import build_example
from skillgate.catalog.loader import CatalogError, load_catalog
from skillgate.catalog.validate import validate_paths
from skillgate_cli.params import parse_params
from tests.process import clean_env, run_cli

MINIMUM = {
    "github": 30,
    "slack": 15,
    "gmail": 8,
    "google_calendar": 8,
    "google_drive": 8,
    "notion": 8,
    "linear": 8,
}
GITHUB_CATEGORIES = {
    "repos",
    "issues",
    "comments",
    "pull_requests",
    "reviews",
    "branches",
    "commits",
    "contents",
    "releases",
    "workflows",
    "search",
    "users",
}
VALID = """\
slug: extra
name: Extra
description: An extra integration from SKILLGATE_CATALOG_PATH.
base_url: https://api.extra.test
auth: {token: {help: Paste an API key from the settings page.}}
verify: {path: /me}
endpoints:
  - name: get_thing
    method: GET
    path: /things/{thing_id}
    category: things
    description: Fetch one thing by id.
    parameters:
      - {name: thing_id, type: string, in: path, required: true, description: The id., example: t1}
    errors:
      - {code: 404, cause: No such thing., fix: Check the id.}
"""


def test_every_shipped_file_validates() -> None:
    assert validate_paths([]) == []


def test_shipped_catalog_meets_the_coverage_floor() -> None:
    catalog = load_catalog()
    counts = {slug: len(i.endpoints) for slug, i in catalog.integrations.items()}
    for slug, floor in MINIMUM.items():
        assert counts[slug] >= floor, slug
    assert sum(counts.values()) >= 100
    github = catalog.integrations["github"]
    assert {e.category for e in github.endpoints} >= GITHUB_CATEGORIES
    linear = catalog.integrations["linear"]
    assert all(e.body == "graphql" and e.graphql for e in linear.endpoints)


CUT = re.compile(r"^[a-z0-9_]{50,57}_[0-9a-f]{6}$")  # the importer's name cut to 64, with a hash


def test_cut_names_are_said_shorter_and_kept_as_aliases() -> None:
    """252 shipped calls the importer named past 64 characters have a readable name, the
    cut one their alias; 16 keep the cut name (nothing shorter fits, or two calls would
    share it: docs/catalog.md, "Endpoint names")."""
    renamed = cut = 0
    for integration in load_catalog().integrations.values():
        for e in integration.endpoints:
            cut += bool(CUT.match(e.name))
            renamed += bool(e.aliases)
            for alias in e.aliases:
                assert CUT.match(alias), (e.name, alias)
                assert not CUT.match(e.name), (e.name, alias)
                assert integration.named[alias] is e
    assert (renamed, cut) == (252, 16)


def test_every_example_parses_to_the_declared_values() -> None:
    for integration in load_catalog().integrations.values():
        for e in integration.endpoints:
            argv = shlex.split(build_example(integration.slug, e))
            params = parse_params(argv[4:])
            declared = {p.name: p for p in e.parameters}
            assert {p.name for p in e.parameters if p.required} <= params.keys(), e.name
            for name, value in params.items():
                assert coerce(declared[name], value) == declared[name].example, (e.name, name)


def _write(tmp_path: Path, text: str, name: str = "extra.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("slug: [unclosed\n", "invalid YAML at line"),
        (VALID.replace("name: Extra\n", ""), "name: Field required"),
        (
            VALID.replace("/things/{thing_id}", "/things/{thing_id}/{other}"),
            "endpoint 'get_thing': placeholder {other} in path is not a declared path parameter",
        ),
        (
            VALID.replace("/things/{thing_id}", "/things"),
            "endpoint 'get_thing': path parameter 'thing_id' does not appear in the path",
        ),
        (
            VALID.replace("required: true,", "required: true, default: x,"),
            "is required and so cannot have a default",
        ),
        (
            VALID.replace(
                "    errors:\n      - {code: 404, cause: No such thing., fix: Check the id.}\n",
                "    errors: []\n",
            ),
            "endpoint 'get_thing' errors",
        ),
        (
            # Google's media upload: the file is what the call sends, so it is required.
            VALID.replace("method: GET", "method: POST\n    body: related").replace(
                "example: t1}\n",
                "example: t1}\n      - {name: content, type: string, in: body, file: true,"
                " description: The file.}\n",
            ),
            "`body: related` takes one required file and its JSON metadata",
        ),
        (VALID.replace("example: t1", "example: 12"), "example 12 is not a string"),
        (VALID.replace("example: t1", ""), "required parameter 'thing_id' needs an `example`"),
        (VALID.replace("slug: extra", "slug: skills"), "reserved"),
        # `svc-ex--tra` / `svc-extra-` would not be valid Agent Skills names.
        (VALID.replace("slug: extra", "slug: ex__tra"), "double or trailing underscore"),
        (VALID.replace("slug: extra", "slug: extra_"), "double or trailing underscore"),
        (VALID.replace("slug: extra", "slug: github"), "slug already defined"),
    ],
)
def test_malformed_files_name_file_entry_and_problem(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = _write(tmp_path, text)
    problems = validate_paths([str(path)])
    assert problems, text
    assert str(path) in problems[0]
    assert expected in problems[0]
    with pytest.raises(CatalogError) as err:
        load_catalog([path])
    assert str(path) in str(err.value)


def test_extra_catalog_files_load_from_the_environment(tmp_path: Path) -> None:
    _write(tmp_path, VALID)
    catalog = load_catalog([tmp_path])
    assert "extra" in catalog.integrations
    assert "github" in catalog.integrations


def test_validate_command_and_server_refusal_share_the_message(tmp_path: Path) -> None:
    bad = _write(tmp_path, VALID.replace("/things/{thing_id}", "/things/{nope}"))
    r = run_cli("skillgate", "catalog", "validate", str(bad), cwd=tmp_path)
    assert r.returncode == 1
    assert f"{bad}: endpoint 'get_thing': placeholder {{nope}}" in r.stderr
    serve = run_cli(
        "skillgate", "serve", cwd=tmp_path, env=clean_env(SKILLGATE_CATALOG_PATH=str(tmp_path))
    )
    assert serve.returncode == 1
    assert f"refusing to start: {bad}: endpoint 'get_thing': placeholder {{nope}}" in serve.stderr
    ok = run_cli("skillgate", "catalog", "validate", cwd=tmp_path)
    assert ok.returncode == 0
    assert {row["slug"] for row in json.loads(ok.stdout)} >= set(MINIMUM)


def test_readme_table_is_generated_from_the_catalog(tmp_path: Path) -> None:
    table = run_cli("skillgate", "catalog", "table", cwd=tmp_path)
    assert table.returncode == 0
    readme = (Path(__file__).parents[3] / "README.md").read_text()
    assert table.stdout.strip() in readme, "run `make catalog-table` and paste it into README.md"


def test_json_schema_export_matches_the_committed_schema(tmp_path: Path) -> None:
    r = run_cli("skillgate", "catalog", "schema", cwd=tmp_path)
    committed = (Path(__file__).parents[3] / "docs" / "catalog.schema.json").read_text()
    assert json.loads(r.stdout) == json.loads(committed)


def test_libyaml_reads_the_catalog_as_the_python_parser_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Start-up reads the catalog's YAML with libyaml's safe loader (~0.6 s faster); it must
    build exactly what PyYAML's pure-Python safe loader builds."""
    import yaml

    from skillgate.catalog import loader

    assert yaml.__with_libyaml__  # PyYAML's wheels include it
    assert loader._SAFE_LOADER is yaml.CSafeLoader
    fast = loader.load_catalog()
    monkeypatch.setattr(loader, "_SAFE_LOADER", yaml.SafeLoader)
    slow = loader.load_catalog()
    assert fast.slugs == slow.slugs
    for slug in fast.slugs:
        assert fast.get(slug) == slow.get(slug), slug
