"""Keep `.env` (which holds the API key) out of git.

In a git work tree (a `.git` directory or file here or in a parent), `.env`
is appended to `./.gitignore` unless a pattern there already ignores it. No
`git` process is started: the check reads `./.gitignore` only (last matching
pattern wins, `!` negates), so a parent's ignore rule can lead to one
redundant but harmless line.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path


def in_work_tree(cwd: Path) -> bool:
    return any((d / ".git").exists() for d in (cwd, *cwd.parents))


def ignores(lines: list[str], name: str) -> bool:
    ignored = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line[1:] if negate else line
        pattern = pattern.removeprefix("/").removeprefix("**/")
        if pattern.endswith("/"):
            continue  # directories only
        if "/" in pattern:
            continue  # anchored to a subdirectory
        if fnmatchcase(name, pattern):
            ignored = not negate
    return ignored


def ensure_ignored(cwd: Path, name: str = ".env") -> bool:
    """Add `name` to ./.gitignore when in a work tree and not yet ignored; True if added."""
    if not in_work_tree(cwd):
        return False
    path = cwd / ".gitignore"
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        text = ""
    if ignores(text.splitlines(), name):
        return False
    newline = "\r\n" if "\r\n" in text else "\n"
    prefix = newline if text and not text.endswith("\n") else ""
    with path.open("ab") as f:
        f.write((prefix + name + newline).encode("utf-8"))
    return True
