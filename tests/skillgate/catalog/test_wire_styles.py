"""How each body and query field is written is what its source says (issue 25 item 2):
Stripe's shipped document, read here as plain JSON (its `$ref`s followed by hand, no
importer code), declares `encoding: {style: deepObject, explode: true}` for its form
fields; every compiled Stripe field that source declares so is sent in brackets, and
no nested field of a kept operation is left out. Real excerpts (GitLab, NetLicensing,
FaceCheck, Rumble; tests/fixtures/importers/wire-excerpts.json) give the other rules."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

from skillgate.catalog.importers import import_openapi
from tests.conftest import FIXTURES
from tests.skillgate.catalog.importers.documents import by_name, params

ROOT = Path(__file__).resolve().parents[3]
FORM = "application/x-www-form-urlencoded"


def _deref(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in str(node["$ref"]).lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def test_stripe_fields_are_sent_as_its_document_encodes_them() -> None:
    source = json.loads(lzma.decompress((ROOT / "catalog-sources/stripe.com.json.xz").read_bytes()))
    compiled = json.loads((ROOT / "src/skillgate/catalog/compiled/stripe.json").read_text())
    checked = bracketed = 0
    for endpoint in compiled["endpoints"]:
        op = source["paths"][endpoint["path"]][endpoint["method"].lower()]
        media = (_deref(source, op.get("requestBody")) or {}).get("content", {}).get(FORM)
        if media is None:
            continue
        encoding = media.get("encoding") or {}
        schema = _deref(source, media["schema"])
        body = [p for p in endpoint["parameters"] if p["in"] == "body"]
        for key, prop in schema.get("properties", {}).items():
            prop = _deref(source, prop)
            kinds = {_deref(source, a).get("type") for a in prop.get("anyOf", [prop])}
            nested = bool(kinds & {"object", "array"})
            sent = [p for p in body if p.get("maps_to", p["name"]).split("[")[0] == key]
            if not nested:
                continue
            checked += 1
            assert encoding.get(key) == {"explode": True, "style": "deepObject"}, (op, key)
            assert sent, f"{endpoint['name']}: {key} is left out"
            for p in sent:
                split = "maps_to" in p and "[" in p["maps_to"]  # a small object's fields
                assert split or p.get("style") == "deepObject", (endpoint["name"], p)
                bracketed += not split
    assert (checked, bracketed) == (750, 682)  # every one of them, as pinned today


def test_excerpts_of_real_documents() -> None:
    excerpts = json.loads((FIXTURES / "importers" / "wire-excerpts.json").read_text())
    gitlab = by_name(import_openapi(excerpts["gitlab"], slug="gitlab"))
    tags = params(gitlab["put_v3_runners_id"])["tag_list"]
    assert (tags["type"], tags["items"], tags["style"]) == ("array", "string", "form")
    netlicensing = by_name(import_openapi(excerpts["netlicensing"], slug="netlicensing"))
    subject = params(netlicensing["update_payment_method"])["paypal_subject"]
    assert subject["maps_to"] == "paypal.subject"  # a form name with a dot, kept whole
    facecheck = import_openapi(excerpts["facecheck"], slug="facecheck")
    upload = by_name(facecheck)["post_api_upload_pic"]
    assert upload["body"] == "multipart"
    assert list(params(upload)) == ["id_search"]
    assert any("'images': an array of files: left out" in n for n in facecheck.notes)
    rumble = by_name(import_openapi(excerpts["rumble"], slug="rumble"))["import_scan_data"]
    assert rumble["body"] == "binary"  # application/octet-stream: the file is the body
    assert [p for p in rumble["parameters"] if p["in"] == "body"] == [
        {"name": "body", "type": "string", "in": "body", "description": "The file to upload.",
         "file": True}
    ]  # fmt: skip
