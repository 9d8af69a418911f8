"""Declared parameter types, cached by `svc pull` so `svc run` parses instead of guessing.

The download bundle is markdown for agents; its endpoint files
(`endpoints/<category>/<name>.md`) carry a `## Parameters` table whose first
two columns are the name and the type (`string`, `number`, `boolean`,
`object`, `array` or `array of <type>`). `pull` reads those tables once and
writes what `run` needs as JSON beside the docs:

    <skill dir>/svc-<slug with - for _>/.svc-types.json
    {"slug": "github", "version": "f9cb42f8068f",
     "endpoints": {"create_issue": {"title": ["string", null], "labels": ["array", "string"]}}}

No extra requests (a free plan's per-minute budget is untouched), and the
cache lives and dies with the docs it came from: delete or re-pull the
directory and the types follow. A table that cannot be read leaves that
endpoint out, and `run` falls back to the guessing table for it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

CACHE_FILE = ".svc-types.json"
TYPES = {"string", "number", "boolean", "object", "array"}
_SLUG_RE = re.compile(r"^[A-Za-z0-9_-]+$")

Types = dict[str, tuple[str, str | None]]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def types_from_markdown(text: str) -> Types | None:
    """The `## Parameters` table as {name: (type, items)}; {} when there is none."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "## Parameters")
    except StopIteration:
        return {}
    header_at = None
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("#"):
            break  # the next section: no table ("None.")
        if lines[i].lstrip().startswith("|"):
            header_at = i
            break
    if header_at is None:
        return {}
    header = [c.lower() for c in _cells(lines[header_at])]
    if "name" not in header or "type" not in header:
        return None
    name_col, type_col = header.index("name"), header.index("type")
    types: Types = {}
    for line in lines[header_at + 2 :]:
        if not line.lstrip().startswith("|"):
            break
        cells = _cells(line)
        if len(cells) <= max(name_col, type_col):
            return None
        name = cells[name_col].strip("`")
        words = cells[type_col].split()
        if not name or not words or words[0] not in TYPES:
            return None
        items = words[2] if len(words) == 3 and words[1] == "of" else None
        if items is not None and items not in TYPES:
            return None
        types[name] = (words[0], items)
    return types


def _front_matter_version(text: str) -> str | None:
    """`metadata.version` of a SKILL.md's front matter (Agent Skills format)."""
    if not text.startswith("---\n"):
        return None
    front = text[4:].partition("\n---\n")[0]
    in_metadata = False
    for line in front.splitlines():
        if not line.startswith((" ", "\t")):
            in_metadata = line.rstrip() == "metadata:"
            continue
        match = re.match(r"^\s+version:\s*(\S+?)\s*$", line)
        if in_metadata and match:
            return match.group(1).strip("\"'")
    return None


def build(slug: str, files: list[dict[str, Any]]) -> dict[str, Any]:
    """The cache document for a download bundle's files."""
    endpoints: dict[str, dict[str, list[str | None]]] = {}
    version = None
    for f in files:
        path = PurePosixPath(str(f.get("file_path", "")))
        content = str(f.get("content", ""))
        if path.as_posix() == "SKILL.md":
            version = _front_matter_version(content)
        elif path.parts[:1] == ("endpoints",) and path.suffix == ".md":
            types = types_from_markdown(content)
            if types is not None:
                endpoints[path.stem] = {k: [t, items] for k, (t, items) in types.items()}
    return {"slug": slug, "version": version, "endpoints": endpoints}


def load(directory: Path, slug: str, endpoint: str) -> Types | None:
    """Declared types of one endpoint from a pulled directory; None when not cached."""
    if not _SLUG_RE.match(slug) or not _SLUG_RE.match(endpoint):
        return None
    folder = "svc-" + slug.replace("_", "-")  # platforms.docs_folder, without the import
    try:
        data = json.loads((directory / folder / CACHE_FILE).read_text(encoding="utf-8"))
        params = data["endpoints"][endpoint]
        return {str(k): (str(v[0]), None if v[1] is None else str(v[1])) for k, v in params.items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
