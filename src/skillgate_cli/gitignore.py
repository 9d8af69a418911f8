"""Keep what svc writes for itself out of git: `.env` (which holds the API key) and
`<skill dir>/out/` (answers `svc run` saved instead of printing).

In a git work tree (a `.git` directory or file here or in a parent), `.env` (or
`/<dir>/`) is appended to `./.gitignore` unless a pattern there already ignores
it. No `git` process is started: the check reads `./.gitignore` only (last
matching pattern wins, `!` negates), so a parent's ignore rule can lead to one
redundant but harmless line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fnmatch import fnmatchcase
from pathlib import Path


def in_work_tree(cwd: Path) -> bool:
    return any((d / ".git").exists() for d in (cwd, *cwd.parents))


def _rules(lines: list[str]) -> Iterator[tuple[bool, str]]:
    """(negated, pattern) of each rule: blank lines and comments skipped, `!` taken off."""
    for raw in lines:
        line = raw.strip()
        if line and not line.startswith("#"):
            negate = line.startswith("!")
            yield negate, line[1:] if negate else line


def ignores(lines: list[str], name: str) -> bool:
    """Whether a file `name` in the .gitignore's folder is ignored by these lines."""
    ignored = False
    for negate, rule in _rules(lines):
        pattern = rule.removeprefix("/").removeprefix("**/")
        if pattern.endswith("/") or "/" in pattern:
            continue  # directories only, or anchored to a subdirectory
        if fnmatchcase(name, pattern):
            ignored = not negate
    return ignored


def ignores_dir(lines: list[str], relative: str) -> bool:
    """Whether `relative` (a directory, `/`-separated, under the .gitignore's folder) or
    one of its parents is ignored by these lines."""
    parts = relative.strip("/").split("/")
    ignored = False
    for negate, rule in _rules(lines):
        pattern = rule.rstrip("/")
        anchored = "/" in pattern.removeprefix("**/")
        pattern = pattern.removeprefix("/").removeprefix("**/")
        if not pattern:
            continue
        if anchored:
            hit = any(fnmatchcase("/".join(parts[:n]), pattern) for n in range(1, len(parts) + 1))
        else:
            hit = any(fnmatchcase(part, pattern) for part in parts)
        if hit:
            ignored = not negate
    return ignored


def ensure_ignored(cwd: Path, name: str = ".env") -> bool:
    """Add `name` to ./.gitignore when in a work tree and not yet ignored; True if added."""
    return _ensure(cwd, name, lambda lines: ignores(lines, name))


def ensure_dir_ignored(cwd: Path, relative: str) -> bool:
    """Add `/<relative>/` (a directory under `cwd`) to ./.gitignore when in a work tree
    and not yet ignored; True if added."""
    return _ensure(cwd, f"/{relative.strip('/')}/", lambda lines: ignores_dir(lines, relative))


def _ensure(cwd: Path, line: str, covered: Callable[[list[str]], bool]) -> bool:
    if not in_work_tree(cwd):
        return False
    path = cwd / ".gitignore"
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        text = ""
    if covered(text.splitlines()):
        return False
    newline = "\r\n" if "\r\n" in text else "\n"
    prefix = newline if text and not text.endswith("\n") else ""
    with path.open("ab") as f:
        f.write((prefix + line + newline).encode("utf-8"))
    return True
