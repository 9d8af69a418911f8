"""The commands that README.md and docs/ show, read from their code blocks.

- A ```sh block is a script: each logical line (`\\` continuations joined) is a command
  that must exit 0.
- A ```text or ```console block is a transcript: each line starting with `$ ` is a
  command, the lines after it its output; `[exit N]` (or the `exit N` printed by a
  trailing `echo "exit $?"`) is the exit code it must have, else 0.
- A ```json block whose first line is `POST /v1/...` is a request: its JSON body goes to
  that path and the answer must have the status of the line that starts with a
  status code (`200 {...}`).
- `<!-- doc-test: TAGS -->` before a block sets how it runs (tests/test_docs_commands.py);
  `<!-- readme-test` blocks are run by tests/test_readme.py instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).parents[1]

_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
_MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->")
_EXIT = re.compile(r"^\[?exit (\d+)\]?(\s+#.*)?$")
_STATUS = re.compile(r"^(\d{3}) [\[{]")


@dataclass
class Command:
    doc: str
    line: int
    kind: str  # "sh", "transcript" or "request"
    text: str
    exit: int = 0
    output: list[str] = field(default_factory=list)
    tags: frozenset[str] = frozenset()

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}: {self.text.splitlines()[0][:90]}"


def _sh(doc: str, start: int, lines: list[str], tags: frozenset[str]) -> list[Command]:
    out: list[Command] = []
    pending: list[str] = []
    first = start
    for number, line in enumerate(lines, start):
        if not pending:
            first = number
            if not line.strip() or line.lstrip().startswith("#"):
                continue
        pending.append(line)
        if line.rstrip().endswith("\\"):
            continue
        out.append(Command(doc, first, "sh", "\n".join(pending), tags=tags))
        pending = []
    return out


def _transcript(doc: str, start: int, lines: list[str], tags: frozenset[str]) -> list[Command]:
    out: list[Command] = []
    for number, line in enumerate(lines, start):
        if line.startswith("$ "):
            out.append(Command(doc, number, "transcript", line[2:], tags=tags))
        elif out:
            found = _EXIT.match(line.strip())
            if found:
                out[-1].exit = int(found.group(1))
            else:
                out[-1].output.append(line)
    return out


def _request(doc: str, start: int, lines: list[str], tags: frozenset[str]) -> list[Command]:
    if not lines or not re.match(r"^(POST|GET|PUT|DELETE) /", lines[0]):
        return []
    body, status = [], 200
    for line in lines[1:]:
        found = _STATUS.match(line)
        if found:
            status = int(found.group(1))
            break
        body.append(line)
    text = lines[0] + "\n" + "\n".join(body).strip()
    return [Command(doc, start, "request", text, exit=status, tags=tags)]


def commands(doc: str) -> list[Command]:
    """Every command of `doc` (a path relative to the repository), in document order."""
    lines = (ROOT / doc).read_text().splitlines()
    out: list[Command] = []
    tags: frozenset[str] = frozenset()
    readme_test = False
    index = 0
    while index < len(lines):
        line = lines[index]
        marker = _MARKER.search(line)
        if marker:
            tags = frozenset(t.strip() for t in marker.group(1).split(",") if t.strip())
        if "<!-- readme-test" in line:
            readme_test = True
        fence = _FENCE.match(line)
        if not fence:
            index += 1
            continue
        indent, lang = fence.group(1), fence.group(2)
        end = index + 1
        while not _FENCE.match(lines[end]):
            end += 1
        body = [b[len(indent) :] if b.startswith(indent) else b for b in lines[index + 1 : end]]
        if not readme_test:
            if lang == "sh":
                out += _sh(doc, index + 2, body, tags)
            elif lang in ("text", "console"):
                out += _transcript(doc, index + 2, body, tags)
            elif lang == "json":
                out += _request(doc, index + 2, body, tags)
        tags, readme_test = frozenset(), False
        index = end + 1
    return out
