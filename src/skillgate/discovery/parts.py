"""One integration's share of the search index's start-up work, kept per integration.

The index's snapshot (analysed.py, semantic.py) is keyed by the whole catalog's digest: a
catalog of one new or changed file (`skillgate catalog import`, then a reload) misses it
and analysed every endpoint again (~2.5 s of CPU for the shipped 9,617). What is read off
each integration alone, its endpoints' documents and names (`analysed.Part`) and their
meaning vectors (semantic.py), is also kept under a key of that integration's own files
(`Catalog.parts`) and the code that made it; the rest of the work (BM25's weights, which
depend on every document) is done again. The folder is the catalog snapshots'
(catalog.snapshot: `SKILLGATE_CACHE_DIR`); an unreadable or mismatched entry is a miss.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from skillgate.catalog import snapshot

KEEP = 200  # entries of each kind kept (about four catalogs' integrations; the oldest go)
_DAMAGED = (OSError, ValueError, KeyError, TypeError, EOFError)


def _path(key: str, suffix: str) -> Path | None:
    folder = snapshot.directory()
    if not key or folder is None or not snapshot.trusted(folder):
        return None
    return folder / f"part-{key}{suffix}"


def read(key: str) -> dict[str, Any] | None:
    """The part kept under `key` as it was written (a JSON object), or None: the reader
    checks its shape."""
    path = _path(key, ".part")
    if path is None or not path.exists():
        return None
    with contextlib.suppress(*_DAMAGED):
        data = orjson.loads(path.read_bytes())
        if isinstance(data, dict):
            return data
    return None


def write(key: str, part: Any) -> None:
    """Keep `part` (a dataclass of lists) under `key` (nothing when keys are off)."""
    path = _path(key, ".part")
    if path is None:
        return
    data = {f.name: getattr(part, f.name) for f in fields(part)}
    with contextlib.suppress(OSError):
        snapshot.write(path.parent, path.name, orjson.dumps(data), "part-*.part", KEEP)


def read_vectors(key: str, rows: int, dims: int) -> np.ndarray | None:
    """The float32 vectors kept under `key`, if `rows` x `dims` of them."""
    path = _path(key, ".npy")
    return None if path is None else load_vectors(path, rows, dims)


def write_vectors(key: str, vectors: np.ndarray) -> None:
    path = _path(key, ".npy")
    if path is not None:
        save_vectors(path, vectors, "part-*.npy", KEEP)


def load_vectors(path: Path, rows: int, dims: int) -> np.ndarray | None:
    """The float32 vectors stored at `path` (`.npy`, no pickle), if `rows` x `dims` of
    them; None when there are none, others, or the file is damaged."""
    if not path.exists():
        return None
    with contextlib.suppress(*_DAMAGED), path.open("rb") as fh:
        vectors: np.ndarray = np.load(fh, allow_pickle=False)
        if vectors.shape == (rows, dims) and vectors.dtype == np.float32:
            return vectors
    return None


def save_vectors(path: Path, vectors: np.ndarray, pattern: str, keep: int) -> None:
    """`vectors` stored at `path` (snapshot.write: whole or not at all; `keep` of the files
    matching `pattern` kept)."""
    buffer = io.BytesIO()
    np.save(buffer, vectors, allow_pickle=False)
    with contextlib.suppress(OSError):
        snapshot.write(path.parent, path.name, buffer.getvalue(), pattern, keep)
