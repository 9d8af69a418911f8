"""`svc login [--key KEY] [--platform P]`: get a key, check it, save it, install the pointer.

Order matters: the key is validated with GET /v1/me before anything is
written, and the project's `.env` is checked for writability before the first write.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click

from skillgate_cli.config import DEFAULT_BASE_URL, Config
from skillgate_cli.errors import CliError, ExitCode, one_line


def validate(base_url: str, key: str, timeout: float) -> dict[str, Any]:
    """The /v1/me profile for `key`, or CliError (exit 1 refused, 2 unreachable)."""
    from skillgate_cli.client import Client, gateway_error

    again = "check it, or create a new key on the dashboard and run `svc login --key <key>`"
    try:
        client = Client(base_url, key, timeout)
    except CliError as exc:  # its advice is about SVC_API_KEY; this key came from login
        if exc.error != "bad_api_key":
            raise
        raise CliError(
            f"this API key contains spaces, control or non-ASCII characters: {again}",
            error="bad_api_key",
        ) from None
    resp = client.request("GET", "/v1/me")
    data = resp.json()
    if resp.status == 401:
        # The gateway's own advice ("Invalid API key. Check SVC_API_KEY, ... run `svc
        # login`") would repeat ours: keep only its first sentence, what is wrong.
        _, message, _ = resp.error_fields()
        reason = re.split(r"[.:](?:\s|$)", one_line(message), maxsplit=1)[0]
        raise CliError(
            f"the gateway refused this API key ({reason}): {again}", error="unauthorized"
        )
    if resp.status != 200 or not isinstance(data, dict):
        if 200 <= resp.status < 300:
            raise CliError(
                f"{base_url}/v1/me did not answer JSON: check SVC_BASE_URL", ExitCode.UNAVAILABLE
            )
        raise gateway_error(resp, "checking the key")
    return data


def _check_env_file(config: Config) -> None:
    """Fail before the sign-in, not after it, when the project's .env cannot be written."""
    from skillgate_cli import envfile

    try:
        envfile.check_writable(config.env_path)
    except envfile.EnvFileError as exc:
        raise CliError(f"{exc}; nothing was saved") from None


def save(config: Config, key: str, platform: str, base_url: str) -> dict[str, Any]:
    """Write .env, .gitignore and the pointer (removing the one a former platform got);
    what was written, for the JSON answer. Paths are under the project root."""
    from skillgate_cli import envfile, gitignore, platforms

    saved_platform = config.file_values().get("SVC_PLATFORM", "").strip().lower() or None

    changes: dict[str, str | None] = {
        "SVC_API_KEY": key,
        "SVC_PLATFORM": platform,
        "SVC_BASE_URL": None if base_url == DEFAULT_BASE_URL else base_url,
    }
    try:
        envfile.update(config.env_path, changes)
    except envfile.EnvFileError as exc:
        raise CliError(
            f"{exc}; nothing was saved (or set SVC_API_KEY in the environment instead)"
        ) from None
    try:
        ignored = gitignore.ensure_ignored(config.root)
    except OSError as exc:
        raise CliError(f"cannot update .gitignore: {exc.strerror or exc}") from None
    pointer = platforms.install_pointer(config.root, platform, base_url)
    written: dict[str, Any] = {
        "env_file": config.shown(Path(".env")),
        "gitignore_updated": ignored,
        "pointer": config.shown(pointer),
    }
    removed = platforms.remove_old_pointer(config.root, saved_platform, platform)
    if removed is not None:
        written["removed_pointer"] = config.shown(removed)
    return written


@click.command("login")
@click.option(
    "--key",
    metavar="KEY",
    help="Use this API key instead of the browser sign-in ('-' reads it from stdin).",
)
@click.option(
    "--platform",
    type=click.Choice(
        ["claude", "cursor", "windsurf", "codex", "gemini", "copilot", "generic"],
        case_sensitive=False,
    ),
    help="Agent platform for the skill pointer (default: SVC_PLATFORM if set, else "
    "detected from .claude/, .cursor/, .windsurf/, .codex/, .gemini/, "
    ".github/copilot-instructions.md in the project root).",
)
def command(key: str | None, platform: str | None) -> int:
    """Sign in and save the API key to the project's .env (mode 0600).

    Without --key: prints a code and an address (opening the browser when
    there is a display), waits for you to approve, then uses the key the
    gateway hands over or asks you to paste one. Either way the key is checked
    with the gateway before anything is written. Then installs the skill
    pointer <skill dir>/svc/SKILL.md for the agent platform.
    Exit 1 when the key is invalid or the sign-in denied or expired, 2 when
    the gateway cannot be reached.
    """
    from skillgate_cli import platforms
    from skillgate_cli.client import Client
    from skillgate_cli.output import print_json, say

    config = Config.load()
    base_url = config.base_url
    chosen = platforms.resolve(config.root, platform or config.platform)
    _check_env_file(config)
    if key == "-":
        key = sys.stdin.readline().strip()
        if not key:
            raise CliError("--key - read no key from stdin: pipe the key in", error="no_api_key")
    elif key is not None:
        key = key.strip()
        if not key:
            raise CliError("--key is empty: pass the API key", error="no_api_key")
    else:
        from skillgate_cli.device import device_login

        key = device_login(Client(base_url, None, config.timeout))
    me = validate(base_url, key, config.timeout)
    written = save(config, key, chosen, base_url)
    user = {k: me.get(k) for k in ("email", "display_name", "plan")}
    print_json({"user": user, "platform": chosen, "base_url": base_url, **written})
    say(
        f"Signed in to {base_url} as {user['email']} (plan {user['plan']}). Saved the key to "
        f"{written['env_file']}; skill pointer for {platforms.NAMES[chosen]} at "
        f"{written['pointer']}. Next: `svc status`. For an MCP client (Claude, Cursor, "
        "VS Code, Windsurf): `svc mcp config --client <name>`."
    )
    if "removed_pointer" in written:
        say(f"Removed the former platform's pointer {written['removed_pointer']}.")
    env_key = config.env.get("SVC_API_KEY")
    if env_key and env_key.strip() != key:
        say(
            f"note: SVC_API_KEY in your environment overrides {written['env_file']}: "
            "unset it to use this key."
        )
    return 0
