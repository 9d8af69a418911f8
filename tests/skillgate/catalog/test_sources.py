"""The shipped compiled integrations are exactly what the importers make of the
pinned sources: stored copies match the lock's SHA-256, and compiling them again
gives the checked-in files byte for byte."""

from __future__ import annotations

import lzma

import orjson
import pytest

from skillgate.catalog.sources import (
    SourceError,
    compile_parts,
    read_lock,
    render,
    render_responses,
    stored_text,
)

SOURCES = read_lock()


def test_the_lock_pins_every_shipped_compiled_file() -> None:
    from skillgate.catalog.sources import COMPILED_DIR

    assert {s.compiled_path for s in SOURCES} == set(COMPILED_DIR.glob("*.json"))
    for s in SOURCES:
        assert s.registry in ("npm", "pypi")
        assert s.version
        assert s.digest
        assert len(s.sha256) == 64


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.slug)
def test_compiled_file_is_what_the_importer_makes_of_the_pinned_source(source) -> None:
    compiled, schemas = compile_parts(source, stored_text(source))
    assert compiled["source"]["sha256"] == source.sha256
    assert render(compiled) == source.compiled_path.read_bytes(), (
        f"{source.compiled_path} differs from the importer's output: run `make catalog-build`"
    )
    assert render_responses(schemas) == source.responses_path.read_bytes(), (
        f"{source.responses_path} differs from the importer's output: run `make catalog-build`"
    )


def test_a_stored_copy_that_does_not_match_the_lock_is_refused(tmp_path) -> None:
    from dataclasses import replace

    import skillgate.catalog.sources as sources

    source = SOURCES[-1]
    fake = tmp_path / "x.json.xz"
    fake.write_bytes(lzma.compress(orjson.dumps({"kind": "tampered"})))
    tampered = replace(source, stored="x.json.xz")
    original = sources.SOURCES_DIR
    sources.SOURCES_DIR = tmp_path
    try:
        with pytest.raises(SourceError, match="is not the pinned"):
            stored_text(tampered)
    finally:
        sources.SOURCES_DIR = original
