"""Issue 23.2: the importer marks a path parameter holding a ref, branch, tag or file
path `multi_segment` (importers/segments.py), for any imported API."""

from __future__ import annotations

from typing import Any

from skillgate.catalog.importers import import_openapi
from tests.skillgate.catalog.importers.documents import by_name

OK = {"200": {"description": "OK"}}
TREE = "The SHA1 value or ref (branch or tag) name of the tree."
POLICY = "The unique identifier of the branch policy."


def _path_param(name: str, description: str = "") -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string"}}  # fmt: skip


def _op(op_id: str, *params: dict[str, Any]) -> dict[str, Any]:
    return {"get": {"operationId": op_id, "parameters": list(params), "responses": OK}}


def _marked(paths: dict[str, Any]) -> dict[str, list[str]]:
    document = {"openapi": "3.0.0", "servers": [{"url": "https://x.example.com"}], "paths": paths}
    endpoints = by_name(import_openapi(document, slug="x"))
    return {
        name: [p["name"] for p in e["parameters"] if p.get("multi_segment")]
        for name, e in endpoints.items()
    }


def test_refs_branches_tags_and_file_paths_are_multi_segment() -> None:
    marked = _marked(
        {
            "/git/ref/{ref}": _op("get-ref", _path_param("ref")),
            "/branches/{branch}/protection": _op("protection", _path_param("branch")),
            "/files/{filePath}": _op("get-file", _path_param("filePath")),
            "/trees/{tree_sha}": _op("tree", _path_param("tree_sha", TREE)),
            "/deploys/{target}": _op("deploy", _path_param("target", "Name of the branch.")),
            "/compare/{basehead}": _op("compare", _path_param("basehead")),
        }
    )
    assert marked == {
        "get_ref": ["ref"],
        "protection": ["branch"],
        "get_file": ["filePath"],
        "tree": ["tree_sha"],
        "deploy": ["target"],
        "compare": ["basehead"],
    }


def test_identifiers_partial_segments_and_two_candidates_are_not() -> None:
    marked = _marked(
        {
            # An id that only mentions a branch, a SHA, a label name.
            "/policies/{branch_policy_id}": _op("policy", _path_param("branch_policy_id", POLICY)),
            "/tags/{tag_sha}": _op("tag", _path_param("tag_sha")),
            "/labels/{name}": _op("label", _path_param("name", "The name of the label.")),
            # The placeholder is not a whole segment: a slash could not be told from the suffix.
            "/archive/{ref}.zip": _op("archive", _path_param("ref")),
            # Two candidates in one path: which segments belong to which is unknowable.
            "/diff/{ref}/{path}": _op("diff", _path_param("ref"), _path_param("path")),
        }
    )
    assert marked == {"policy": [], "tag": [], "label": [], "archive": [], "diff": []}
