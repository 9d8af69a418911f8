"""Catalog snapshots (catalog/snapshot.py): a file loaded once is served from its
snapshot the next time, exactly as loading it again gives it, and a changed or damaged
file or entry is loaded again from the files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillgate.catalog import loader, snapshot
from skillgate.catalog.loader import CatalogError, load_catalog

SHIPPED = loader.SHIPPED_DIR
# Two overlays on compiled files and one hand-written file, copied from the shipped ones.
SLUGS = ("google_sheets", "google_tasks", "linear")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(snapshot.ENV, str(folder))
    return folder


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A catalog directory of three integrations; overlays name `../compiled/*.json`."""
    catalog, compiled = tmp_path / "catalog", tmp_path / "compiled"
    catalog.mkdir()
    compiled.mkdir()
    for slug in SLUGS:
        shutil.copy(SHIPPED / f"{slug}.yaml", catalog)
        source = loader.COMPILED_DIR / f"{slug}.json"
        if source.exists():
            shutil.copy(source, compiled)
    return catalog


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files the loader parses (those not served from a snapshot)."""
    seen: list[Path] = []
    real: Callable[..., Any] = loader.parse_file

    def spy(path: Path, digest: Any = None) -> Any:
        seen.append(path)
        return real(path, digest)

    monkeypatch.setattr(loader, "parse_file", spy)
    return seen


def _dumps(catalog: loader.Catalog) -> dict[str, dict[str, Any]]:
    return {slug: i.model_dump() for slug, i in catalog.integrations.items()}


def test_a_snapshot_serves_what_loading_the_files_gives(
    cache: Path, files: Path, parsed: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_catalog([files], shipped=False)
    assert len(parsed) == 3
    assert len(list(cache.glob("*.json"))) == 3
    again = load_catalog([files], shipped=False)
    assert len(parsed) == 3  # nothing parsed: all three from their snapshots
    monkeypatch.setenv(snapshot.ENV, "")
    without = load_catalog([files], shipped=False)
    assert len(parsed) == 6
    assert again.digest == first.digest == without.digest
    assert _dumps(again) == _dumps(first) == _dumps(without)
    assert again.sources == without.sources


def test_equal_parameters_and_errors_are_one_object(cache: Path, files: Path) -> None:
    load_catalog([files], shipped=False)
    sheets = load_catalog([files], shipped=False).integrations["google_sheets"]
    params = [p for e in sheets.endpoints for p in e.parameters]
    errors = [x for e in sheets.endpoints for x in e.errors]
    assert len({id(p) for p in params}) < len(params)
    assert len({id(x) for x in errors}) < len(errors)
    for group in (params, errors):
        by_value: dict[str, object] = {}
        for item in group:
            same = by_value.setdefault(item.model_dump_json(), item)
            assert same is item  # equal ones are the same frozen object


def test_a_changed_compiled_file_is_loaded_again(
    cache: Path, files: Path, parsed: list[Path]
) -> None:
    first = load_catalog([files], shipped=False)
    compiled = files.parent / "compiled" / "google_tasks.json"
    compiled.write_bytes(compiled.read_bytes() + b"\n")
    parsed.clear()
    again = load_catalog([files], shipped=False)
    assert parsed == [files / "google_tasks.yaml"]
    assert again.digest != first.digest
    assert _dumps(again) == _dumps(first)


def test_a_changed_file_is_checked_again(cache: Path, files: Path) -> None:
    load_catalog([files], shipped=False)
    path = files / "linear.yaml"
    path.write_text(path.read_text().replace("slug: linear", "slug: Linear!"))
    with pytest.raises(CatalogError, match=r"linear\.yaml: slug: slug 'Linear!' must match"):
        load_catalog([files], shipped=False)


@pytest.mark.parametrize("damage", [b"{", b'{"format": 1}', b'{"format": 1, "files": 3}', b""])
def test_a_damaged_entry_is_a_miss(
    cache: Path, files: Path, parsed: list[Path], damage: bytes
) -> None:
    first = load_catalog([files], shipped=False)
    for entry in cache.glob("*.json"):
        entry.write_bytes(damage)
    parsed.clear()
    again = load_catalog([files], shipped=False)
    assert len(parsed) == 3
    assert _dumps(again) == _dumps(first)


def test_snapshots_can_be_turned_off(
    tmp_path: Path, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(snapshot.ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    load_catalog([files], shipped=False)
    assert snapshot.directory() is None
    assert not (tmp_path / "xdg").exists()


def test_old_entries_go(cache: Path, files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "MAX_ENTRIES", 2)
    load_catalog([files], shipped=False)
    assert len(list(cache.glob("*.json"))) == 2


def test_a_directory_others_can_write_to_is_not_used(
    cache: Path, files: Path, parsed: list[Path]
) -> None:
    """A snapshot is served unvalidated: one written by another user could serve any
    catalog (a private network allowed, a header the gateway owns)."""
    load_catalog([files], shipped=False)
    cache.chmod(0o777)
    try:
        parsed.clear()
        load_catalog([files], shipped=False)
        assert len(parsed) == 3
    finally:
        cache.chmod(0o700)
    parsed.clear()
    load_catalog([files], shipped=False)
    assert parsed == []
