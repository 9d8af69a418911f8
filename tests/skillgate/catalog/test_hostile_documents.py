"""Hostile documents: an imported API description or an operator's catalog file past
a bound (size, nesting, alias expansion) is refused at once with the limit named,
never run for minutes, crashed on, or loaded at the cost of the server's memory."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from skillgate.catalog import loader
from skillgate.catalog.importers import document
from skillgate.catalog.loader import CatalogError, load_catalog
from skillgate.cli.catalog import catalog
from tests.conftest import FIXTURES
from tests.process import run_cli

HOSTILE = FIXTURES / "hostile"
DEEP_JSON = '{"openapi": "3.0.0", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
DEEP_YAML = "openapi: 3.0.0\nx: " + "[" * 100_000 + "]" * 100_000 + "\n"


def _import(path: Path) -> tuple[int, str]:
    started = time.perf_counter()
    result = CliRunner().invoke(
        catalog, ["import", "openapi", str(path), "--slug", "hostile", "--out", "-"]
    )
    assert time.perf_counter() - started < 10
    assert result.stdout == ""
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr


def test_import_refuses_billion_laughs_and_deep_documents(tmp_path: Path) -> None:
    laughs = HOSTILE / "billion-laughs-openapi.yaml"
    code, err = _import(laughs)  # ran for minutes before
    assert code == 1
    assert f"skillgate: {laughs}: refused: aliases expand to more than 100000 nodes" in err
    deep_json = tmp_path / "deep.json"
    deep_json.write_text(DEEP_JSON)
    code, err = _import(deep_json)  # a RecursionError before
    assert code == 1
    assert f"skillgate: {deep_json}: invalid JSON: depth limit exceeded" in err
    deep_yaml = tmp_path / "deep.yaml"
    deep_yaml.write_text(DEEP_YAML)
    code, err = _import(deep_yaml)
    assert code == 1
    assert f"skillgate: {deep_yaml}: refused: nested deeper than 64 levels" in err


def test_import_refuses_a_document_over_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document, "MAX_DOCUMENT", 1000)
    big = tmp_path / "big.json"
    big.write_text('{"openapi": "3.0.0", "x": "' + "y" * 1000 + '"}')
    code, err = _import(big)
    assert code == 1
    assert f"skillgate: {big}: the document is over 64 MiB" in err


def test_the_loader_refuses_an_alias_bomb_and_a_deep_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bomb = HOSTILE / "alias-bomb-catalog.yaml"
    started = time.perf_counter()
    with pytest.raises(CatalogError) as caught:
        load_catalog([bomb], shipped=False)  # took minutes and hundreds of MB before
    assert time.perf_counter() - started < 2
    assert str(caught.value) == f"{bomb}: refused: aliases expand to more than 100000 nodes"
    deep = tmp_path / "deep.yaml"
    deep.write_text("slug: deep\nx: " + "{a: " * 65 + "1" + "}" * 65 + "\n")
    with pytest.raises(CatalogError, match="refused: nested deeper than 64 levels"):
        load_catalog([deep], shipped=False)
    compiled = tmp_path / "deep.json"
    compiled.write_text('{"endpoints": [], "x": ' + "[" * 70 + "]" * 70 + "}")
    overlay = tmp_path / "over.yaml"
    overlay.write_text("compiled: deep.json\nslug: over\n")
    with pytest.raises(CatalogError, match=r"deep.json: refused: nested deeper than 64"):
        load_catalog([overlay], shipped=False)
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 100)
    with pytest.raises(CatalogError, match="refused: larger than"):
        load_catalog([bomb], shipped=False)


def test_catalog_validate_refuses_them_without_crashing(tmp_path: Path) -> None:
    """`skillgate catalog validate` (what `catalog reload` checks first): the alias bomb
    passed it before; a file nested 100,000 deep crashed libyaml (SIGSEGV)."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("slug: deep\nx: " + "[" * 100_000 + "]" * 100_000 + "\n")
    bomb = HOSTILE / "alias-bomb-catalog.yaml"
    for path, words in ((deep, "nested deeper than 64 levels"), (bomb, "aliases expand")):
        done = run_cli("skillgate", "catalog", "validate", str(path), cwd=tmp_path)
        assert done.returncode == 1, (path, done.returncode)
        assert f"{path}: refused: {words}" in done.stderr
        assert "Traceback" not in done.stderr
