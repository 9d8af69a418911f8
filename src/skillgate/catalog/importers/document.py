"""Read a JSON or YAML description document from a file or from text.

Within bounds (kit.documents): at most `MAX_DOCUMENT` bytes (64 MiB; GitHub's
OpenAPI document, the largest source, is 13 MB), nesting at most 64 levels, YAML
aliases adding at most 100,000 nodes once expanded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import yaml

from skillgate.catalog.importers.source import DocumentError
from skillgate.kit.documents import DocumentLimitError, load_json, load_yaml

MAX_DOCUMENT = 64 * 1024 * 1024


def load_document(path_or_text: str | Path) -> dict[str, Any]:
    """The document in a file (a `Path`, or a string naming an existing file) or in text.

    JSON is tried first (it is also YAML, but the JSON parser is much faster);
    errors name the file and the line.
    """
    where = "the document"
    text: str
    if isinstance(path_or_text, Path) or (
        "\n" not in path_or_text and len(path_or_text) < 4096 and Path(path_or_text).is_file()
    ):
        path = Path(path_or_text)
        where = str(path)
        try:
            with path.open("rb") as f:
                raw = f.read(MAX_DOCUMENT + 1)
            if len(raw) > MAX_DOCUMENT:
                raise DocumentError(f"{where}: the document is over 64 MiB")
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DocumentError(f"{where}: cannot read: {exc}") from None
    elif "\n" not in path_or_text and path_or_text.lower().endswith((".json", ".yaml", ".yml")):
        raise DocumentError(f"{path_or_text}: cannot read: no such file")
    else:
        text = str(path_or_text)
        if len(text) > MAX_DOCUMENT:
            raise DocumentError(f"{where}: the document is over 64 MiB")
    try:
        data = _parse(text, where)
    except DocumentLimitError as exc:
        raise DocumentError(f"{where}: refused: {exc}") from None
    if not isinstance(data, dict):
        raise DocumentError(f"{where}: the document must be a JSON or YAML object")
    return data


def _parse(text: str, where: str) -> Any:
    if text.lstrip().startswith("{"):
        try:
            return load_json(text)
        except orjson.JSONDecodeError as exc:
            raise DocumentError(f"{where}: invalid JSON: {exc}") from None
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise DocumentError(f"{where}: invalid YAML{line}: {problem}") from None
