"""`svc connect <integration>`: start the OAuth connection and wait until it is done.

    POST /v1/connect {"integration", "variables"?} -> {"id", "connect_url", "expires_in"}
    GET  /v1/connect/:id            -> {"id", "integration", "status"}
                                       status pending | connected | failed | expired

The address goes to stderr (and to the browser when there is a display); the
final status object goes to stdout. Exit 0 when connected, 1 when the
connection failed, expired or was refused, 2 on network or server errors.
"""

from __future__ import annotations

import click

from skillgate_cli.config import Config
from skillgate_cli.errors import CliError, one_line

POLL_SECONDS = 1.0


@click.command("connect")
@click.argument("integration")
@click.option(
    "--no-wait",
    is_flag=True,
    help='Print {"id","connect_url","expires_in"} and exit instead of waiting.',
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="A value the integration asks for when connecting (its site, data centre or "
    "shop: `--set domain=acme` for acme.atlassian.net); repeatable. The connect page "
    "asks for any not given.",
)
def command(integration: str, no_wait: bool, settings: tuple[str, ...]) -> int:
    """Connect an integration to your account in the browser, then wait for it.

    Prints the address to open on stderr (and opens it when there is a
    display), waits until the gateway reports the connection (at most the
    request's lifetime), and prints {"id","integration","status"}. Needs a
    person at the browser; an agent can pass --no-wait and hand the
    connect_url to the user.
    """
    import time

    from skillgate_cli import browser
    from skillgate_cli.client import expect_json, from_config, segment
    from skillgate_cli.output import print_json, say

    body: dict[str, object] = {"integration": integration}
    if settings:
        body["variables"] = _variables(settings)
    config = Config.load()
    client = from_config(config)
    started = expect_json(client.request("POST", "/v1/connect", body), f"connect {integration}")
    if not isinstance(started, dict) or not started.get("id") or not started.get("connect_url"):
        raise CliError(
            "the gateway's connect answer has no connect_url: check SVC_BASE_URL",
            error="bad_response",
        )
    url = str(started["connect_url"])
    if no_wait:
        print_json(started)
        say(f"To connect {integration}, open {url}")
        return 0
    say(f"To connect {integration}, open {url}")
    say("Opened your browser; waiting ..." if browser.open_url(url) else "Waiting ...")
    expires = started.get("expires_in")
    seconds = float(expires) if isinstance(expires, int | float) and expires > 0 else 600.0
    deadline = time.monotonic() + seconds
    path = f"/v1/connect/{segment(str(started['id']))}"
    while True:
        time.sleep(max(0.0, min(POLL_SECONDS, deadline - time.monotonic())))
        state = expect_json(client.request("GET", path), f"connect {integration}")
        status = state.get("status") if isinstance(state, dict) else None
        if status == "connected":
            print_json(state)
            say(f"{integration} is connected: try `svc skills {integration}`.")
            return 0
        if status in ("failed", "expired"):
            print_json(state)
            reason = f" ({one_line(str(state['error']))})" if state.get("error") else ""
            raise CliError(
                f"connecting {integration} {status}{reason}: "
                f"run `svc connect {integration}` to try again",
                error=f"connect_{status}",
            )
        if time.monotonic() >= deadline:
            raise CliError(
                f"connecting {integration} was not finished in time: "
                f"run `svc connect {integration}` to try again",
                error="connect_expired",
            )


def _variables(settings: tuple[str, ...]) -> dict[str, str]:
    """`--set NAME=VALUE` options as the connect request's `variables`."""
    out: dict[str, str] = {}
    for item in settings:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise CliError(f"--set {item!r}: expected NAME=VALUE (e.g. domain=acme)", error="usage")
        out[name.strip()] = value.strip()
    return out
