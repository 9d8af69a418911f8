"""`svc skills [integration] [endpoint]` and `svc skills --search TEXT`: the gateway's
discovery documents as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlencode

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import CliError, one_line

if TYPE_CHECKING:
    from skillgate_cli.client import Client

MAX_LIMIT = 50  # the gateway's own bound (GET /v1/skills/search)
NO_MATCH = (
    "No endpoint fits this request: nothing in the catalog seems to do it; "
    "the results above are guesses (see each one's match)."
)


def _search_path(text: str, integration: str | None, limit: int | None) -> str:
    params: dict[str, str | int] = {"q": text}
    if integration:
        params["integration"] = integration
    if limit is not None:
        params["limit"] = limit
    return "/v1/skills/search?" + urlencode(params)


def _search(client: Client, text: str, only: str | None, limit: int | None) -> int:
    """`svc skills --search`: the answer as served; no fit said plainly on stderr."""
    from skillgate_cli.client import expect_json
    from skillgate_cli.output import print_json

    found = expect_json(client.request("GET", _search_path(text, only, limit)))
    print_json(found, color=True)
    if isinstance(found, dict) and found.get("no_match") is True:
        click.echo(NO_MATCH, err=True)  # beside the JSON: stdout stays the answer
    return 0


@click.command("skills")
@click.argument("integration", required=False)
@click.argument("endpoint", required=False)
@click.option("--category", default=None, help="Only this category's endpoints (with INTEGRATION).")
@click.option("--search", "text", metavar="TEXT", help="Find endpoints by what they do.")
@click.option("--integration", "only", metavar="SLUG", help="With --search: only this integration.")
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_LIMIT),
    help=f"With --search: at most this many results (default 10, max {MAX_LIMIT}).",
)
def command(
    integration: str | None,
    endpoint: str | None,
    category: str | None,
    text: str | None,
    only: str | None,
    limit: int | None,
) -> int:
    """List integrations, one integration's endpoints, or one endpoint's documentation;
    or search every endpoint the key may use.

    \b
    svc skills                         integrations with their connection status
    svc skills github                  endpoints grouped by category
    svc skills github --category pull_requests   one category's endpoints
    svc skills github create_issue     parameters, example and errors
    svc skills --search "open a bug"   the best matching endpoints, best first
    svc skills --search "reply to Ana's mail" --integration gmail --limit 5

    Prints the gateway's JSON (indented and coloured on a terminal, compact
    when piped). Exit 1 when the integration or endpoint does not exist, the
    key may not see it, or the integration is not connected (the JSON is
    printed first; a search exits 0 whatever its results' status; when no
    result fits, it says so on stderr); 2 on network or server errors.
    """
    from urllib.parse import urlencode

    from skillgate_cli.client import expect_json, from_config, segment
    from skillgate_cli.output import print_json

    if category is not None and (not integration or endpoint):
        raise click.UsageError("--category needs an integration and no endpoint")
    if text is None and (only is not None or limit is not None):
        raise click.UsageError("--integration and --limit go with --search")
    if text is not None and (integration or endpoint):
        raise click.UsageError("--search takes no INTEGRATION or ENDPOINT (use --integration)")
    client = from_config(Config.load())
    if text is not None:
        return _search(client, text, only, limit)
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
