"""`svc pull <integration>`: the integration's docs, where the agent's platform looks.

GET /v1/<slug>/download returns `{"slug", "files": [{"file_path", "content"}]}`.
The files are written to `<skill dir>/svc-<slug>/` (`_` in the slug written `-`,
under the project root) exactly as named, plus the
types cache of `typecache`. The bundle is assembled in a temporary directory
beside the target and swapped in at the end, so a failed pull leaves the
previous docs intact and a re-pull leaves no stale endpoint files behind.
A file path that is absolute, has a `..`, `.` or empty segment, or a backslash, is
refused and nothing is written.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import CliError, ExitCode

_SLUG_RE = re.compile(r"^[A-Za-z0-9_-]+$")


def safe_relative(file_path: str) -> PurePosixPath:
    """`file_path` as a path inside the target directory, or CliError."""
    path = PurePosixPath(file_path)
    bad = (
        not file_path
        or "\\" in file_path
        or "\x00" in file_path
        or path.is_absolute()
        or re.match(r"^[A-Za-z]:", file_path) is not None
        or any(part in ("..", ".", "") for part in file_path.split("/"))
    )
    if bad:
        raise CliError(
            f"the gateway sent an unsafe file path {file_path!r}; nothing was written: "
            "check SVC_BASE_URL points at a gateway you trust",
            ExitCode.UNAVAILABLE,
        )
    return path


def _write_bundle(target: Path, files: list[tuple[PurePosixPath, str]], cache: str) -> None:
    import os
    import shutil
    import tempfile

    from skillgate_cli.typecache import CACHE_FILE

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for relative, content in files:
            path = staging.joinpath(*relative.parts)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        (staging / CACHE_FILE).write_text(cache, encoding="utf-8")
        os.chmod(staging, 0o755)  # noqa: S103 - docs, readable like the files in it
        old = None
        if target.exists() or target.is_symlink():
            old = target.with_name(f".{target.name}.old-{os.getpid()}")
            os.replace(target, old)
        os.replace(staging, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink()
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def parse_bundle(integration: str, data: Any) -> tuple[str, list[tuple[PurePosixPath, str]]]:
    """(slug, [(safe path, content)]) from a download answer, or CliError (exit 2)."""
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise CliError(
            f"the gateway's download of {integration!r} has no file list: retry later",
            ExitCode.UNAVAILABLE,
        )
    slug = str(data.get("slug") or integration)
    if not _SLUG_RE.match(slug):
        raise CliError(
            f"the gateway sent an unsafe integration slug {slug!r}; nothing was written",
            ExitCode.UNAVAILABLE,
        )
    files: list[tuple[PurePosixPath, str]] = []
    seen: set[PurePosixPath] = set()
    for item in data["files"]:
        if not isinstance(item, dict) or not isinstance(item.get("content"), str):
            raise CliError(
                "the gateway sent a malformed file entry: retry later", ExitCode.UNAVAILABLE
            )
        path = safe_relative(str(item.get("file_path", "")))
        if path in seen:
            continue
        seen.add(path)
        files.append((path, item["content"]))
    return slug, files


@click.command("pull")
@click.argument("integration")
def command(integration: str) -> int:
    """Download an integration's documentation into the agent's skill directory.

    Writes the overview SKILL.md and one file per endpoint to
    <skill dir>/svc-<integration>/ (e.g. .claude/skills/svc-github/) and caches
    the declared parameter types there, so `svc run` parses values to them.
    Prints {"slug","files","path"}.
    """
    import json

    from skillgate_cli import platforms, typecache
    from skillgate_cli.client import expect_json, from_config, segment
    from skillgate_cli.output import print_json, say

    config = Config.load()
    platform = platforms.resolve(config.root, config.platform)
    client = from_config(config)
    data = expect_json(client.request("GET", f"/v1/{segment(integration)}/download"))
    slug, files = parse_bundle(integration, data)
    relative = platforms.skill_dir(platform) / platforms.docs_folder(slug)
    shown = Path(config.shown(relative)).as_posix()
    cache = json.dumps(
        typecache.build(slug, [{"file_path": str(p), "content": c} for p, c in files])
    )
    try:
        _write_bundle(config.root / relative, files, cache)
    except OSError as exc:
        raise CliError(f"cannot write {shown}: {exc.strerror or exc}") from None
    print_json({"slug": slug, "files": len(files), "path": shown})
    say(f"Saved {len(files)} files for {slug} to {shown}/ ({platforms.NAMES[platform]}).")
    return 0
