"""`svc approve ID [--deny]`: decide a call a key's policy held for your approval.

Run by the person, not the agent: it needs a key with the `approve` scope (created on
the dashboard; an agent's key cannot have or mint it), read from SVC_APPROVE_KEY
(else SVC_API_KEY). Prints the approval as JSON (`state` sent, failed or denied;
`result`: what the service answered). Exit 0 when decided; 1 when refused (unknown
approval, already decided or expired, a key without `approve`); 2 network or server.
"""

from __future__ import annotations

import click

from skillgate_cli.config import Config


@click.command("approve")
@click.argument("approval_id")
@click.option("--deny", is_flag=True, help="Refuse the call instead: nothing is sent.")
def command(approval_id: str, deny: bool) -> int:
    """Approve (send, once, exactly as shown) or --deny the held call APPROVAL_ID."""
    from skillgate_cli.client import Client, expect_json, segment
    from skillgate_cli.output import print_json

    config = Config.load()
    key = config.env.get("SVC_APPROVE_KEY") or config.require_key()
    client = Client(config.base_url, key, config.timeout)
    verb = "deny" if deny else "approve"
    resp = client.request("POST", f"/v1/approvals/{segment(approval_id)}/{verb}")
    print_json(expect_json(resp, f"svc approve {approval_id}"))
    return 0
