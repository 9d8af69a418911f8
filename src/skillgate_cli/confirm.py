"""A call that needs confirmation (HTTP 409 `confirmation_required`, issue 15).

The gateway sent nothing upstream; its answer carries the exact request it would
send (`preview`: method, URL, headers, body, credentials redacted) and a single-use
`confirm` token bound to that request.

- On a terminal (stdin and stderr are TTYs): the preview on stderr, then
  `Send this request? [y/N]`; `y` or `yes` repeats the call with the token (the
  caller prints that answer), anything else ends with `confirmation_declined`.
- Otherwise (an agent, a pipe): the 409 JSON plus `"command"`, the exact `svc run`
  line that sends it (shell-quoted, with `--confirm <token>`), and exit 1.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from skillgate_cli.errors import CliError
from skillgate_cli.output import say

if TYPE_CHECKING:
    from skillgate_cli.client import Response
    from skillgate_cli.run_options import RunOptions

PROMPT = "Send this request? [y/N] "


def challenge(resp: Response) -> dict[str, Any] | None:
    """The 409 body when `resp` asks for confirmation with a token; else None."""
    if resp.status != 409:
        return None
    data = resp.json()
    if (
        isinstance(data, dict)
        and data.get("error") == "confirmation_required"
        and isinstance(data.get("confirm"), str)
    ):
        return data
    return None


def interactive() -> bool:
    """A person can answer: stdin and stderr are terminals."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def command_line(
    integration: str,
    endpoint: str,
    options: RunOptions,
    args: list[str],
    token: str,
    declared: Collection[str] | None = None,
) -> str:
    """`svc run` as typed (svc's options as `--name=value`) with `--confirm <token>`,
    before a `--` when there is one (what follows it is JSON only). An option whose
    short spelling is one of the endpoint's parameters (`declared`: Stripe's `confirm`)
    is written `--svc-NAME`; unknown parameters: `--svc-confirm`."""
    from skillgate_cli.run_options import flag_for

    own = options.argv(without="confirm", declared=declared)
    confirm = [flag_for("confirm", declared), token]
    if "--" in args:
        at = args.index("--")
        rest = [*args[:at], *confirm, *args[at:]]
    else:
        rest = [*args, *confirm]
    return shlex.join(["svc", "run", integration, endpoint, *own, *rest])


def _body_lines(body: Any) -> list[str]:
    if body is None:
        return ["  (no body)"]
    text = body if isinstance(body, str) else json.dumps(body, indent=2, ensure_ascii=False)
    return ["", *("  " + line for line in text.splitlines())]


def describe(preview: Any) -> list[str]:
    """The request as a person reads it: `METHOD URL`, the headers, the body."""
    if not isinstance(preview, dict):
        return ["  " + json.dumps(preview, ensure_ascii=False)]
    lines = [f"  {preview.get('method', '?')} {preview.get('url', '?')}"]
    headers = preview.get("headers") or {}
    pairs = headers.items() if isinstance(headers, dict) else headers
    for pair in pairs:
        if isinstance(pair, list | tuple) and len(pair) == 2:
            lines.append(f"  {pair[0]}: {pair[1]}")
    return lines + _body_lines(preview.get("body"))


def ask(label: str, asked: dict[str, Any]) -> bool:
    """Show the request on stderr and read the answer from stdin; True for yes."""
    say(f"{label} needs your confirmation; nothing has been sent yet. The request:")
    say("\n".join(describe(asked.get("preview"))))
    sys.stderr.write(PROMPT)
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not answer.endswith("\n"):
        say("")  # end of input: the prompt's line ends here
    return answer.strip().lower() in ("y", "yes")


def declined(label: str) -> tuple[dict[str, Any], CliError]:
    message = f"{label}: not sent: the request was not confirmed"
    failure = CliError(message, error="confirmation_declined")
    return {"error": failure.error, "message": message}, failure


def piped(label: str, asked: dict[str, Any], command: str) -> tuple[dict[str, Any], CliError]:
    """(the 409 JSON with `command`, the failure): what an agent gets."""
    wait = asked.get("expires_in")
    within = f" within {wait} s" if isinstance(wait, int) and not isinstance(wait, bool) else ""
    failure = CliError(
        f"{label}: needs confirmation, nothing was sent: show the user the `preview` and, "
        f"if they agree, run the `command` of this JSON{within}",
        error="confirmation_required",
    )
    return {**asked, "command": command}, failure
