"""A validator for SKILL.md front matter per the Agent Skills format (used by tests).

    ---
    name: <1-64 chars of [a-z0-9-], no leading/trailing/double hyphen, = the folder>
    description: <1-1024 characters>
    metadata:            # optional; extra data only here, string -> string
      key: "value"
    ---

Also allowed at the top level: `license`, `compatibility` (<= 500 characters),
`allowed-tools`. Anything else is a problem.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ALLOWED = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


def front_matter(text: str) -> dict[str, Any]:
    if not text.startswith("---\n"):
        raise ValueError("SKILL.md must start with a '---' front matter line")
    front, sep, _ = text[4:].partition("\n---\n")
    if not sep:
        raise ValueError("the front matter has no closing '---' line")
    data = yaml.safe_load(front)
    if not isinstance(data, dict):
        raise ValueError("the front matter is not a mapping")
    return data


def problems(text: str, folder: str) -> list[str]:
    """Everything wrong with a SKILL.md living in `<skills dir>/<folder>/`; [] when valid."""
    try:
        data = front_matter(text)
    except (ValueError, yaml.YAMLError) as exc:
        return [str(exc)]
    found = [f"unknown top-level field {k!r}" for k in data if k not in ALLOWED]
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 64 or not NAME_RE.match(name):
        found.append(f"name {name!r}: 1-64 of [a-z0-9-], no leading/trailing/double hyphen")
    elif name != folder:
        found.append(f"name {name!r} is not its folder {folder!r}")
    description = data.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= 1024:
        found.append("description: 1-1024 characters")
    compatibility = data.get("compatibility")
    if compatibility is not None and (
        not isinstance(compatibility, str) or len(compatibility) > 500
    ):
        found.append("compatibility: at most 500 characters")
    metadata = data.get("metadata")
    if metadata is not None and not (
        isinstance(metadata, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    ):
        found.append("metadata: a mapping of strings to strings")
    return found
