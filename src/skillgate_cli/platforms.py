"""Agent platforms: where each one reads skills (2026), and how we tell which is in use.

| platform | `--platform` | skill directory     | detected when (first row wins)          |
|----------|--------------|---------------------|-----------------------------------------|
| Claude   | claude       | `.claude/skills/`   | `.claude/` exists                       |
| Cursor   | cursor       | `.cursor/skills/`   | `.cursor/` exists                       |
| Windsurf | windsurf     | `.windsurf/skills/` | `.windsurf/` exists                     |
| Codex    | codex        | `.agents/skills/`   | `.codex/` exists                        |
| Gemini   | gemini       | `.agents/skills/`   | `.gemini/` exists                       |
| Copilot  | copilot      | `.agents/skills/`   | `.github/copilot-instructions.md` exists|
| generic  | generic      | `.agents/skills/`   | none of the above                       |

Paths are relative to the project root (see `config.project_root`). The core
pointer goes to `<dir>/svc/SKILL.md`, pulled docs to `<dir>/svc-<slug>/` with `_`
in the slug written `-`: the Agent Skills format wants the front matter `name`
equal to the folder, 1-64 characters of `[a-z0-9-]`, no leading, trailing or
double hyphen, and extra data only under `metadata` (string to string).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from skillgate_cli import __version__
from skillgate_cli.errors import CliError

SKILL_DIRS: dict[str, str] = {
    "claude": ".claude/skills",
    "cursor": ".cursor/skills",
    "windsurf": ".windsurf/skills",
    "codex": ".agents/skills",
    "gemini": ".agents/skills",
    "copilot": ".agents/skills",
    "generic": ".agents/skills",
}
NAMES = {
    "claude": "Claude Code",
    "cursor": "Cursor",
    "windsurf": "Windsurf",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "copilot": "GitHub Copilot",
    "generic": "generic agent",
}
# (platform, marker path, is a directory), in detection order.
MARKERS: tuple[tuple[str, str, bool], ...] = (
    ("claude", ".claude", True),
    ("cursor", ".cursor", True),
    ("windsurf", ".windsurf", True),
    ("codex", ".codex", True),
    ("gemini", ".gemini", True),
    ("copilot", ".github/copilot-instructions.md", False),
)
POINTER_DIR = "svc"
GENERATOR = "svc"  # metadata.generator of the pointer: how a later login knows it is ours


def detect(root: Path) -> str:
    """The platform whose marker exists in `root` (first in MARKERS order); else generic."""
    for platform, marker, is_dir in MARKERS:
        path = root / marker
        if path.is_dir() if is_dir else path.is_file():
            return platform
    return "generic"


def resolve(root: Path, chosen: str | None) -> str:
    """`chosen` (a flag or SVC_PLATFORM) when valid, else detection."""
    if not chosen:
        return detect(root)
    name = chosen.strip().lower()
    if name not in SKILL_DIRS:
        raise CliError(
            f"unknown platform {chosen!r}: use one of {', '.join(SKILL_DIRS)} "
            "(--platform or SVC_PLATFORM)"
        )
    return name


def skill_dir(platform: str) -> Path:
    """The skill directory, relative to the project root."""
    return Path(SKILL_DIRS[platform])


def docs_folder(slug: str) -> str:
    """The folder (and skill `name`) of an integration's pulled docs: `svc-google-calendar`."""
    return "svc-" + slug.replace("_", "-")


def pointer_path(platform: str) -> Path:
    """`<skill dir>/svc/SKILL.md`, relative to the project root."""
    return skill_dir(platform) / POINTER_DIR / "SKILL.md"


POINTER = """\
---
name: svc
description: >-
  Call third-party APIs (GitHub, Slack, Gmail, Google Calendar, Google Drive,
  Notion, Linear and more) on the user's behalf through Skill Gateway with the
  `svc` command. Use it when a task needs to read or change data in one of
  those services: list integrations, read an endpoint's documentation, run it.
metadata:
  generator: {generator}
  version: "{version}"
---

# Skill Gateway (`svc`)

Skill Gateway holds the user's OAuth connections to third-party services and
calls their APIs for you. You never see or need the user's tokens: run the
`svc` command, which sends your request to the gateway with the API key saved
in the project's `.env` ({platform_name} set-up, gateway {base_url}).

## Run these first

```sh
svc status                          # who is signed in, which integrations are connected
svc skills                          # every integration, with its status and endpoint count
svc skills <integration>            # its endpoints, grouped by category
svc skills <integration> <endpoint> # parameters, an example and the errors of one endpoint
svc skills --search "what to do"    # the endpoints that do it, best first
```

## Then act

```sh
svc run <integration> <endpoint> --param value ...
svc run github create_issue --owner octocat --repo hello-world --title "Found a bug"
```

`--name text` is a string, `--n 5` a number, a bare `--flag` true, `--tags a,b`
an array, a JSON object or array argument is parsed as JSON, a repeated flag
collects an array, and `--` ends flags. The answer is always JSON on stdout:
`{{"status": <upstream status>, "data": ...}}` or `{{"status": ..., "error": ...}}`.

Exit code 0: done. 1: fix something (parameters, a missing connection, the
key); the one line on stderr says what. 2: network or server trouble; retry
later.

## Acting safely and cheaply

- `--dry-run` shows the exact request a call would send, and sends nothing.
- A destructive call may answer `"error": "confirmation_required"` with a
  `preview` of the request and a `command`: show the user the preview, and run
  that command only if they agree.
- `--retry` tries again on network errors and 5xx without ever sending a write
  twice; `--idempotency-key K` makes your own repeats safe the same way.
- `--all` (with `--max-items N`) follows the pages of a list; `--fields a,b.c`
  keeps only the fields you need.
- A large answer is saved to a file: stdout then says `saved_to` with a
  `preview`; read the file only for what the preview lacks.

- An integration whose status is `not_connected` must be connected by the
  user first: run `svc connect <integration>` and ask them to finish in the
  browser.
- `svc pull <integration>` saves its full documentation next to this file
  (`svc-<integration>/`, `_` written `-`), so later runs parse values to the
  declared types.
- Never ask the user for passwords or tokens; if the key is missing or
  invalid, ask them to run `svc login`.
"""


def pointer_text(platform: str, base_url: str) -> str:
    return POINTER.format(
        platform_name=NAMES[platform],
        base_url=base_url,
        generator=GENERATOR,
        version=__version__,
    )


def is_ours(path: Path) -> bool:
    """A SKILL.md whose front matter carries our `metadata.generator` marker."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    front, sep, _ = text.removeprefix("---\n").partition("\n---\n")
    if not text.startswith("---\n") or not sep:
        return False
    lines = front.splitlines()
    try:
        at = lines.index("metadata:")
    except ValueError:
        return False
    for line in lines[at + 1 :]:
        if not line.startswith((" ", "\t")):
            break
        if line.strip() == f"generator: {GENERATOR}":
            return True
    return False


def install_pointer(root: Path, platform: str, base_url: str) -> Path:
    """Write `<skill dir>/svc/SKILL.md` under `root`; returns its path relative to `root`."""
    relative = pointer_path(platform)
    target = root / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pointer_text(platform, base_url), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {relative}: {exc.strerror or exc}") from None
    return relative


def remove_old_pointer(root: Path, old_platform: str | None, new_platform: str) -> Path | None:
    """After a platform change, delete the pointer svc wrote for the old one (only if it
    is ours) and its then-empty `svc/` folder; returns the removed path, relative."""
    if not old_platform or old_platform not in SKILL_DIRS:
        return None
    old = pointer_path(old_platform)
    if old == pointer_path(new_platform) or not is_ours(root / old):
        return None
    try:
        (root / old).unlink()
    except OSError:
        return None
    with contextlib.suppress(OSError):  # the folder holds something else now: leave it
        (root / old).parent.rmdir()
    return old
