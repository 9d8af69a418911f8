"""`svc run --retry`: up to 3 tries of one execute, all with one Idempotency-Key.

A try is repeated after a network error or a timeout (exit code 2 errors of the
client), a gateway 5xx, or an envelope whose upstream status is 5xx; after 0.5 s,
then 1 s. Every try carries the same `Idempotency-Key` (`--idempotency-key K`, or
one made here and printed on stderr as `idempotency key: K`), so the gateway sends
a write upstream at most once: a try that follows a lost answer gets the stored
envelope instead of a second call. A stored answer (`Idempotent-Replayed: true`)
is final: it is not tried again.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from skillgate_cli.errors import CliError, ExitCode
from skillgate_cli.output import say

if TYPE_CHECKING:
    from skillgate_cli.client import Client, Response
    from skillgate_cli.run_options import RunOptions

TRIES = 3
DELAYS = (0.5, 1.0)


def idempotency_key(options: RunOptions) -> str | None:
    """The key to send: the one given, else a new one with --retry (said on stderr)."""
    if options.idempotency_key is not None:
        return options.idempotency_key
    if not options.retry or options.dry_run:
        return None
    import secrets  # only here: its imports cost start-up every call would pay

    key = f"svc-{secrets.token_hex(16)}"
    say(f"idempotency key: {key}")
    return key


def _failed(resp: Response) -> str | None:
    """Why a try should be repeated; None when its answer stands."""
    if resp.headers.get("idempotent-replayed") == "true":
        return None  # the gateway's stored answer for this key: a repeat gets it again
    if resp.status >= 500:
        return f"the gateway answered HTTP {resp.status}"
    if resp.status == 200:
        data = resp.json()
        status = data.get("status") if isinstance(data, dict) else None
        if isinstance(status, int) and not isinstance(status, bool) and status >= 500:
            return f"the service answered {status}"
    return None


def send(
    client: Client, path: str, body: dict[str, Any], headers: dict[str, str], tries: int
) -> Response:
    """POST `body` to `path`, trying up to `tries` times; the last answer or error."""
    for attempt in range(1, tries + 1):
        try:
            resp = client.request("POST", path, body, extra=headers)
        except CliError as exc:
            if exc.code != ExitCode.UNAVAILABLE or attempt == tries:
                raise
            reason = exc.message
        else:
            failed = _failed(resp)
            if failed is None or attempt == tries:
                return resp
            reason = failed
        delay = DELAYS[min(attempt, len(DELAYS)) - 1]
        say(f"note: try {attempt} of {tries} failed ({reason}): trying again in {delay:g} s")
        time.sleep(delay)
    raise AssertionError("unreachable")  # the last try returns or raises
