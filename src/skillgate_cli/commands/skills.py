"""`svc skills [integration] [endpoint]`: the gateway's discovery documents as JSON."""

from __future__ import annotations

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import CliError, one_line


@click.command("skills")
@click.argument("integration", required=False)
@click.argument("endpoint", required=False)
@click.option("--category", default=None, help="Only this category's endpoints (with INTEGRATION).")
def command(integration: str | None, endpoint: str | None, category: str | None) -> int:
    """List integrations, one integration's endpoints, or one endpoint's documentation.

    \b
    svc skills                         integrations with their connection status
    svc skills github                  endpoints grouped by category
    svc skills github --category pulls only one category's endpoints
    svc skills github create_issue     parameters, example and errors

    Prints the gateway's JSON (indented and coloured on a terminal, compact
    when piped). Exit 1 when the integration or endpoint does not exist, the
    key may not see it, or the integration is not connected (the JSON is
    printed first); 2 on network or server errors.
    """
    from urllib.parse import urlencode

    from skillgate_cli.client import expect_json, from_config, segment
    from skillgate_cli.output import print_json

    if category is not None and (not integration or endpoint):
        raise click.UsageError("--category needs an integration and no endpoint")
    config = Config.load()
    client = from_config(config)
    path = "/v1/skills"
    if integration:
        path += "/" + segment(integration)
        if endpoint:
            path += "/" + segment(endpoint)
    if category is not None:
        path += "?" + urlencode({"category": category})
    data = expect_json(client.request("GET", path))
    print_json(data, color=True)
    if integration and isinstance(data, dict) and data.get("status") == "not_connected":
        # The spec's exit 1 for "not connected": the docs are printed all the same.
        slug = one_line(str(data.get("integration") or integration))
        raise CliError(
            f"{slug} is not connected yet: run `svc connect {slug}` before `svc run`",
            error="integration_not_connected",
        )
    return 0
