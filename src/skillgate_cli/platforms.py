"""Agent platforms: where each one looks for skills, and how we tell which is in use.

| platform  | `--platform` | skill directory     | detected when      |
|-----------|--------------|---------------------|--------------------|
| Claude    | claude       | `.claude/skills/`   | `./.claude/` exists   |
| Cursor    | cursor       | `.cursor/rules/`    | `./.cursor/` exists   |
| Windsurf  | windsurf     | `.windsurf/rules/`  | `./.windsurf/` exists |
| generic   | generic      | `.svc/skills/`      | none of the above  |

The core pointer goes to `<dir>/svc/SKILL.md`, pulled docs to `<dir>/svc-<slug>/`.
When several markers exist the first row of the table wins.
"""

from __future__ import annotations

from pathlib import Path

from skillgate_cli.errors import CliError

SKILL_DIRS: dict[str, str] = {
    "claude": ".claude/skills",
    "cursor": ".cursor/rules",
    "windsurf": ".windsurf/rules",
    "generic": ".svc/skills",
}
NAMES = {
    "claude": "Claude Code",
    "cursor": "Cursor",
    "windsurf": "Windsurf",
    "generic": "generic agent",
}
POINTER_DIR = "svc"


def detect(cwd: Path) -> str:
    """The platform whose marker directory exists in `cwd`; generic otherwise."""
    for platform, directory in SKILL_DIRS.items():
        if platform != "generic" and (cwd / directory.split("/")[0]).is_dir():
            return platform
    return "generic"


def resolve(cwd: Path, chosen: str | None) -> str:
    """`chosen` (a flag or SVC_PLATFORM) when valid, else detection."""
    if not chosen:
        return detect(cwd)
    name = chosen.strip().lower()
    if name not in SKILL_DIRS:
        raise CliError(
            f"unknown platform {chosen!r}: use one of {', '.join(SKILL_DIRS)} "
            "(--platform or SVC_PLATFORM)"
        )
    return name


def skill_dir(platform: str) -> Path:
    """The skill directory, relative to the working directory."""
    return Path(SKILL_DIRS[platform])


POINTER = """\
---
name: svc
description: >-
  Call third-party APIs (GitHub, Slack, Gmail, Google Calendar, Google Drive,
  Notion, Linear and more) on the user's behalf through Skill Gateway with the
  `svc` command. Use it when a task needs to read or change data in one of
  those services: list integrations, read an endpoint's documentation, run it.
---

# Skill Gateway (`svc`)

Skill Gateway holds the user's OAuth connections to third-party services and
calls their APIs for you. You never see or need the user's tokens: run the
`svc` command, which sends your request to the gateway with the API key saved
in `./.env` ({platform_name} set-up, gateway {base_url}).

## Run these first

```sh
svc status                          # who is signed in, which integrations are connected
svc skills                          # every integration, with its status and endpoint count
svc skills <integration>            # its endpoints, grouped by category
svc skills <integration> <endpoint> # parameters, an example and the errors of one endpoint
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

- An integration whose status is `not_connected` must be connected by the
  user first: run `svc connect <integration>` and ask them to finish in the
  browser.
- `svc pull <integration>` saves its full documentation next to this file
  (`svc-<integration>/`), so later runs parse values to the declared types.
- Never ask the user for passwords or tokens; if the key is missing or
  invalid, ask them to run `svc login`.
"""


def pointer_text(platform: str, base_url: str) -> str:
    return POINTER.format(platform_name=NAMES[platform], base_url=base_url)


def install_pointer(cwd: Path, platform: str, base_url: str) -> Path:
    """Write `<skill dir>/svc/SKILL.md`; returns its path relative to `cwd`."""
    relative = skill_dir(platform) / POINTER_DIR / "SKILL.md"
    target = cwd / relative
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pointer_text(platform, base_url), encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {relative}: {exc.strerror or exc}") from None
    return relative
