"""Load the catalog: the shipped YAML files plus any under SKILLGATE_CATALOG_PATH.

Loading is all or nothing: a single bad file raises CatalogError naming the
file, the entry and the problem, and the server refuses to start.

A catalog file is read within bounds (kit.documents): at most 16 MiB, nesting at
most 64 levels, YAML aliases adding at most 100,000 nodes once expanded. A
compiled file outside the shipped catalog is held to the same depth. The shipped
files are checked against the same limits by the tests, not at every start
(the alias count is ~45 ms over their 363 kB).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import yaml
from pydantic import ValidationError

from skillgate.catalog import snapshot
from skillgate.catalog.models import Endpoint, Integration
from skillgate.catalog.overlay import OverlayError, apply_overlay
from skillgate.kit.documents import SAFE_LOADER, DocumentLimitError, check_depth, load_yaml

SHIPPED_DIR = Path(__file__).parent / "integrations"
COMPILED_DIR = Path(__file__).parent / "compiled"
MAX_FILE_BYTES = 16 * 1024 * 1024


class CatalogError(Exception):
    """A catalog file that cannot be served; the message names file, entry and problem."""


@dataclass
class Catalog:
    """The integrations a server serves. One object for the server's life: a reload
    (`replace_with`) updates it in place, so every holder sees the new catalog."""

    integrations: dict[str, Integration]
    sources: dict[str, Path] = field(default_factory=dict)
    # SHA-256 of the files it was loaded from, as read (names and contents, compiled
    # files included): which catalog a server serves (`/healthz`, `catalog reload`).
    digest: str = ""
    # Each integration's own: its files and the code that loads them, by slug. What keys
    # the search index's work on one integration, kept when another changes
    # (discovery/parts.py).
    parts: dict[str, str] = field(default_factory=dict)

    def replace_with(self, other: Catalog) -> None:
        """Take `other`'s integrations, in one step (no await in between)."""
        self.integrations.clear()
        self.integrations.update(other.integrations)
        self.sources.clear()
        self.sources.update(other.sources)
        self.digest = other.digest
        self.parts = dict(other.parts)

    def get(self, slug: str) -> Integration | None:
        return self.integrations.get(slug)

    def endpoint(self, slug: str, name: str) -> Endpoint | None:
        """The endpoint `name` (or a former name of it, `Endpoint.aliases`) of `slug`."""
        integration = self.integrations.get(slug)
        return None if integration is None else integration.named.get(name)

    @property
    def slugs(self) -> list[str]:
        return list(self.integrations)

    @property
    def endpoint_count(self) -> int:
        return sum(len(i.endpoints) for i in self.integrations.values())


def _entry_label(data: object, loc: tuple[int | str, ...]) -> str:
    """A readable name for where a validation error sits: `endpoint create_issue`."""
    if len(loc) >= 2 and loc[0] == "endpoints" and isinstance(loc[1], int):
        name = None
        if isinstance(data, dict):
            endpoints = data.get("endpoints")
            if isinstance(endpoints, list) and loc[1] < len(endpoints):
                item = endpoints[loc[1]]
                if isinstance(item, dict):
                    name = item.get("name")
        rest = ".".join(str(x) for x in loc[2:])
        label = f"endpoint {name!r}" if name else f"endpoint #{loc[1] + 1}"
        return f"{label}{' ' + rest if rest else ''}"
    return ".".join(str(x) for x in loc) or "integration"


class _Both:
    """Two digests fed the same bytes: the catalog's and one integration's."""

    def __init__(self, *digests: Any) -> None:
        self._digests = digests

    def update(self, data: bytes) -> None:
        for digest in self._digests:
            digest.update(data)


class Reads:
    """The files one catalog file was loaded from (the file, then the compiled file its
    overlay names), passed on to the catalog's digest: what its snapshot is checked by."""

    def __init__(self, digest: Any = None) -> None:
        self.digest = digest
        self.files: list[tuple[Path, bytes]] = []


def _seen(digest: Any, path: Path, raw: bytes) -> None:
    """Add a file read to the catalog's digest (when one is being computed)."""
    if isinstance(digest, Reads):
        digest.files.append((path, raw))
        digest = digest.digest
    if digest is not None:
        digest.update(b"%d:%s%d:" % (len(path.name), path.name.encode(), len(raw)) + raw)


def _read_bounded(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CatalogError(f"{path}: refused: larger than {MAX_FILE_BYTES // 2**20} MiB")
    return raw


def read_compiled(path: Path, digest: Any = None) -> dict[str, Any]:
    """A compiled integration (JSON written by `skillgate catalog build`)."""
    raw = _read_bounded(path)
    _seen(digest, path, raw)
    try:
        data = orjson.loads(raw)
        # The shipped ones are built from pinned sources and checked before they ship.
        if path.parent.resolve() != COMPILED_DIR.resolve():
            check_depth(data)
    except orjson.JSONDecodeError as exc:
        raise CatalogError(f"{path}: invalid JSON: {exc}") from None
    except DocumentLimitError as exc:
        raise CatalogError(f"{path}: refused: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("endpoints"), list):
        raise CatalogError(f"{path}: a compiled integration needs an `endpoints` list")
    return data


def _with_compiled(path: Path, overlay: dict[str, Any], digest: Any) -> dict[str, Any]:
    """The overlay at `path` applied to the compiled file it names (catalog.overlay)."""
    ref = overlay["compiled"]
    if not isinstance(ref, str) or not ref.endswith(".json"):
        raise CatalogError(f"{path}: `compiled` must name a .json file relative to this file")
    compiled = read_compiled(path.parent / ref, digest)
    try:
        return apply_overlay(compiled, overlay)
    except OverlayError as exc:
        raise CatalogError(f"{path}: {exc}") from None


def _hand_written(data: dict[str, Any]) -> dict[str, Any]:
    """A file without `compiled:`: its endpoints are curated (`Endpoint.curated`) but for
    those an importer wrote (they carry their source `operation`: `skillgate catalog
    import` output, a whole API of equals)."""
    endpoints = data.get("endpoints")
    if not isinstance(endpoints, list):
        return data  # the model reports it
    marked = [
        {"curated": "operation" not in e, **e} if isinstance(e, dict) else e for e in endpoints
    ]
    return {**data, "endpoints": marked}


# libyaml's safe loader when PyYAML was built with it (its wheels are): the catalog's
# YAML is ~2 MB, which the pure-Python parser took ~0.6 s of start-up to read.
_SAFE_LOADER = SAFE_LOADER


def parse_file(path: Path, digest: Any = None) -> Integration:
    """The integration in `path`; `digest` (a hashlib object) takes the files read."""
    try:
        raw = _read_bounded(path)
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogError(f"{path}: cannot read: not UTF-8 text") from None
    _seen(digest, path, raw)
    try:
        if path.parent == SHIPPED_DIR:  # within the limits: tests/skillgate/kit/test_documents
            data = yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 (a safe loader)
        else:
            data = load_yaml(text, _SAFE_LOADER)
    except DocumentLimitError as exc:
        raise CatalogError(f"{path}: refused: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise CatalogError(f"{path}: invalid YAML{where}: {problem}") from None
    if not isinstance(data, dict):
        raise CatalogError(f"{path}: the file must hold one integration (a mapping)")
    data = _with_compiled(path, data, digest) if "compiled" in data else _hand_written(data)
    try:
        return Integration.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        label = _entry_label(data, tuple(first["loc"]))
        msg = first["msg"].removeprefix("Value error, ")
        more = len(exc.errors()) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise CatalogError(f"{path}: {label}: {msg}{suffix}") from None


def catalog_files(extra: Iterable[str | Path] = (), *, shipped: bool = True) -> list[Path]:
    files = sorted(SHIPPED_DIR.glob("*.yaml")) if shipped else []
    for entry in extra:
        p = Path(entry)
        if p.is_dir():
            files.extend(sorted(p.glob("*.yaml")) + sorted(p.glob("*.yml")))
        elif p.exists():
            files.append(p)
        else:
            raise CatalogError(f"{p}: SKILLGATE_CATALOG_PATH entry does not exist")
    return files


def _load_file(path: Path, digest: Any) -> Integration:
    """The integration in `path`, from its snapshot when one still holds (catalog.
    snapshot), else parsed, checked and then kept as a snapshot."""
    # Imported here: validate imports this module.
    from skillgate.catalog.validate import check_integration

    raw = _read_bounded(path)
    kept = snapshot.load(path, raw, MAX_FILE_BYTES)
    if kept is not None:
        _seen(digest, path, raw)
        for other, data in kept[1]:
            _seen(digest, other, data)
        return kept[0]
    reads = Reads(digest)
    integration = parse_file(path, reads)
    # The shipped files' examples are checked before they ship, not at every start.
    problems = check_integration(integration, examples=path.parent != SHIPPED_DIR)
    if problems:
        raise CatalogError(f"{path}: {problems[0]}")
    # Keyed by the bytes parsed (the file may have changed since `raw` was read).
    return snapshot.save(path, reads.files[0][1], integration, reads.files[1:])


def load_catalog(extra: Iterable[str | Path] = (), *, shipped: bool = True) -> Catalog:
    integrations: dict[str, Integration] = {}
    sources: dict[str, Path] = {}
    digest = hashlib.sha256()
    parts: dict[str, str] = {}
    for path in catalog_files(extra, shipped=shipped):
        part = hashlib.sha256(snapshot.code())  # the files, and the code that loads them
        integration = _load_file(path, _Both(digest, part))
        if integration.slug in integrations:
            raise CatalogError(
                f"{path}: integration {integration.slug!r}: slug already defined "
                f"in {sources[integration.slug]}"
            )
        integrations[integration.slug] = integration
        sources[integration.slug] = path
        parts[integration.slug] = part.hexdigest()[:16]
    return Catalog(
        integrations=dict(sorted(integrations.items())),
        sources=sources,
        digest=digest.hexdigest()[:16],
        parts=parts,
    )


# `skillgate serve` loads the catalog to refuse a bad one before serving; its one
# worker (the same process) then serves that catalog instead of loading it again.
_handed: tuple[tuple[str, ...], Catalog] | None = None


def hand_over(extra: Iterable[str | Path], catalog: Catalog) -> None:
    """Keep `catalog`, loaded from `extra`, for the next `take_over` of the same paths."""
    global _handed
    _handed = (tuple(map(str, extra)), catalog)


def take_over(extra: Iterable[str | Path]) -> Catalog | None:
    """The catalog `hand_over` kept for these paths (once), else None."""
    global _handed
    handed, _handed = _handed, None
    if handed is None or handed[0] != tuple(map(str, extra)):
        return None
    return handed[1]
