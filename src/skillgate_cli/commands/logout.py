"""`svc logout`: forget the API key saved in the project's .env (other lines stay)."""

from __future__ import annotations

from pathlib import Path

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import CliError


@click.command("logout")
def command() -> int:
    """Remove SVC_API_KEY from the project's .env; other lines and SVC_PLATFORM stay.

    The key itself stays valid: revoke it on the dashboard's API keys page.
    """
    from skillgate_cli import envfile
    from skillgate_cli.output import say

    config = Config.load()
    path = config.env_path
    shown = config.shown(Path(path.name))
    if "SVC_API_KEY" not in config.file_values():
        say(f"No SVC_API_KEY in {shown}: nothing to remove.")
    else:
        try:
            envfile.update(path, {"SVC_API_KEY": None})
        except envfile.EnvFileError as exc:
            raise CliError(f"{exc}; the key is still saved") from None
        say(f"Removed SVC_API_KEY from {shown}. Revoke the key on the dashboard if it leaked.")
    if config.env.get("SVC_API_KEY"):
        say("note: SVC_API_KEY is still set in your environment: unset it too.")
    return 0
