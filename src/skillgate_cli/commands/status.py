"""`svc status`: who is signed in, on which plan, and what is connected."""

from __future__ import annotations

from typing import Any

import click

from skillgate_cli.config import Config


def summary(me: dict[str, Any], skills: dict[str, Any]) -> dict[str, Any]:
    """The spec's shape exactly: user {email, display_name, plan} and
    integrations [{slug, name, status}]."""
    return {
        "user": {k: me.get(k) for k in ("email", "display_name", "plan")},
        "integrations": [
            {k: item.get(k) for k in ("slug", "name", "status")}
            for item in skills.get("integrations", [])
            if isinstance(item, dict)
        ],
    }


def _plain(data: dict[str, Any], base_url: str) -> str:
    user = data["user"]
    lines = [
        f"Signed in to {base_url} as {user['email']} ({user['display_name']}), plan {user['plan']}",
        "",
    ]
    width = max((len(str(i["name"])) for i in data["integrations"]), default=0)
    # Slugs padded to 16, or past the longest one (google_search_console): columns line up.
    slugs = max((len(str(i["slug"])) + 1 for i in data["integrations"]), default=0)
    for i in data["integrations"]:
        mark = "connected" if i["status"] == "connected" else "not connected"
        lines.append(f"  {i['name']!s:<{width}}  {i['slug']!s:<{max(16, slugs)}} {mark}")
    lines += [
        "",
        "Connect one with `svc connect <slug>`; see its endpoints with `svc skills <slug>`.",
    ]
    return "\n".join(lines)


def _pretty(data: dict[str, Any], base_url: str) -> None:
    from skillgate_cli.output import color_allowed, write_stdout

    if not color_allowed():
        write_stdout(_plain(data, base_url))
        return
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        write_stdout(_plain(data, base_url))
        return
    user = data["user"]
    console = Console()
    console.print(
        f"Signed in to [bold]{base_url}[/] as [bold]{user['email']}[/] "
        f"({user['display_name']}), plan [bold]{user['plan']}[/]",
        highlight=False,
    )
    table = Table(box=None, pad_edge=False)
    table.add_column("Integration")
    table.add_column("Slug", style="cyan")
    table.add_column("Status")
    for i in data["integrations"]:
        status = "[green]connected[/]" if i["status"] == "connected" else "[dim]not connected[/]"
        table.add_row(str(i["name"]), str(i["slug"]), status)
    console.print(table)
    console.print(
        "Connect one with [cyan]svc connect <slug>[/]; "
        "see its endpoints with [cyan]svc skills <slug>[/].",
        highlight=False,
    )


@click.command("status")
def command() -> int:
    """Show the signed-in user, the plan and each integration's connection status.

    A readable summary on a terminal; JSON when piped:
    {"user":{"email","display_name","plan"},"integrations":[{"slug","name","status"}]}.
    Exit 1 when not signed in (no key, or the key is invalid), 2 on network or
    server errors.
    """
    from skillgate_cli.client import expect_json, from_config
    from skillgate_cli.output import print_json, stdout_is_tty

    config = Config.load()
    client = from_config(config)
    me = expect_json(client.request("GET", "/v1/me"))
    skills = expect_json(client.request("GET", "/v1/skills"))
    data = summary(me if isinstance(me, dict) else {}, skills if isinstance(skills, dict) else {})
    if stdout_is_tty():
        _pretty(data, client.base_url)
    else:
        print_json(data)
    return 0
