"""The device authorization flow (RFC 8628 as DESIGN "Device authorization" has it).

    POST /auth/device/code  {"client_name"}  -> device_code, user_code, verification_uri,
                                                verification_uri_complete, expires_in, interval
    POST /auth/device/token {"device_code"}  -> 200 pending (authorization_pending | slow_down
                                                with a new interval) | complete
                                                400 expired_token | already_used | bad_request

The user code and the address go to stderr; a browser is opened only when
there is a display. Polls wait `interval` seconds (raised by `slow_down`) and
stop at `expires_in`. A `complete` answer's `api_key` is used when present;
otherwise the user is sent to `api_keys_url` and pastes a key (hidden input on
a terminal, one line from stdin otherwise).
"""

from __future__ import annotations

import socket
import sys
import time
from typing import Any

from skillgate_cli import browser
from skillgate_cli.client import Client, expect_json, gateway_error
from skillgate_cli.errors import CliError, ExitCode
from skillgate_cli.output import say

DEFAULT_INTERVAL = 5.0
SLOW_DOWN_STEP = 5.0
AGAIN = "run `svc login` again"

_REFUSALS = {
    "expired_token": f"the sign-in code expired before it was approved: {AGAIN}",
    "already_used": f"this sign-in code was already used: {AGAIN}",
    "access_denied": f"the sign-in was denied in the browser: {AGAIN} to retry",
    "authorization_denied": f"the sign-in was denied in the browser: {AGAIN} to retry",
    "not_found": f"the gateway does not know this sign-in code: {AGAIN}",
    "bad_request": f"the gateway refused the sign-in code: {AGAIN}",
}


def _number(value: Any, default: float) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return default


def request_code(client: Client) -> dict[str, Any]:
    body = {"client_name": f"svc on {socket.gethostname()}"}
    data = expect_json(
        client.request("POST", "/auth/device/code", body, auth=False), "device sign-in"
    )
    if not isinstance(data, dict) or not data.get("device_code") or not data.get("user_code"):
        raise CliError(
            "the gateway's device sign-in answer has no code: check SVC_BASE_URL",
            ExitCode.UNAVAILABLE,
        )
    return data


def poll(client: Client, code: dict[str, Any]) -> dict[str, Any]:
    """Poll until `complete` (returned) or a refusal / expiry (CliError exit 1)."""
    interval = _number(code.get("interval"), DEFAULT_INTERVAL)
    deadline = time.monotonic() + _number(code.get("expires_in"), 900.0)
    body = {"device_code": code["device_code"]}
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise CliError(_REFUSALS["expired_token"], error="expired_token")
        time.sleep(min(interval, remaining))
        if time.monotonic() >= deadline:
            raise CliError(_REFUSALS["expired_token"], error="expired_token")
        resp = client.request("POST", "/auth/device/token", body, auth=False)
        data = resp.json()
        data = data if isinstance(data, dict) else {}
        status, error = data.get("status"), data.get("error")
        if resp.status == 200 and status == "complete":
            return data
        if resp.status == 200 and status == "pending":
            if error == "slow_down":
                interval = _number(data.get("interval"), interval + SLOW_DOWN_STEP)
            continue
        if resp.status == 429:
            interval += SLOW_DOWN_STEP
            continue
        if status == "expired":
            error = "expired_token"
        if isinstance(error, str) and error in _REFUSALS and 200 <= resp.status < 500:
            raise CliError(_REFUSALS[error], error=error)
        if resp.status == 200:
            raise CliError(
                f"unexpected sign-in status {status!r} from the gateway: {AGAIN}",
                ExitCode.UNAVAILABLE,
            )
        raise gateway_error(resp, "device sign-in")


def read_pasted_key(api_keys_url: str | None) -> str:
    where = api_keys_url or "the gateway's API keys page"
    say(f"Create or copy an API key at {where} and paste it here.")
    # The approval made no key: none was asked for, or the plan's active keys are all in
    # use (svc does not know the plan yet, so it names none).
    say(
        "If your plan allows no more active keys: paste one you have, or revoke one at "
        f"{where} and create a new one. The approval page can also replace a key: run "
        '`svc login` again and choose "replace my existing key".'
    )
    if sys.stdin.isatty():
        import getpass

        key = getpass.getpass("API key: ")
    else:
        key = sys.stdin.readline()
    key = key.strip()
    if not key:
        raise CliError(
            "no API key was pasted: run `svc login` again, or `svc login --key <key>`",
            error="no_api_key",
        )
    return key


def device_login(client: Client) -> str:
    """Run the flow and return the API key to validate."""
    code = request_code(client)
    uri = str(code.get("verification_uri") or "")
    complete = str(code.get("verification_uri_complete") or "")
    say(f"To sign in, open {uri} and enter the code {code['user_code']}")
    if complete:
        say(f"  (or open {complete} with the code filled in)")
    if browser.open_url(complete or uri):
        say("Opened your browser; waiting for you to approve ...")
    else:
        say("Waiting for you to approve ...")
    done = poll(client, code)
    user = done.get("user") if isinstance(done.get("user"), dict) else {}
    if user:
        say(f"Approved by {user.get('email')}.")
    key = done.get("api_key")
    if isinstance(key, str) and key.strip():
        return key.strip()
    return read_pasted_key(done.get("api_keys_url"))
