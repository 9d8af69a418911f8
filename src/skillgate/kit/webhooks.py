"""Standard Webhooks (https://www.standardwebhooks.com): a signing secret, the signed
headers of one message, and the check of a receiver's URL.

    new_secret()            `whsec_` + base64 of 24 random bytes (shown once to its owner)
    new_message_id()        a message's webhook-id, kept for each of its retries
    signed_headers(...)     webhook-id, webhook-timestamp, webhook-signature:
                            `v1,<base64(HMAC-SHA256(key, f"{id}.{timestamp}.{body}"))>`,
                            the key being the base64-decoded part after `whsec_`
    check_url(url, ...)     https only (loopback http too when a test allows it); 400
                            naming the field otherwise

Hand-written rather than the `standardwebhooks` package: the scheme is one HMAC and
three headers, and the package would pull its own HTTP client into the gateway.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import time

from yarl import URL

from skillgate.errors import BadRequest
from skillgate.kit.outbound import is_global, is_ip_literal

PREFIX = "whsec_"
SECRET_BYTES = 24
MAX_URL = 2000
FIELD = "webhook_url"
_LOOPBACK_NAMES = {"localhost"}


def new_secret() -> str:
    return PREFIX + base64.b64encode(os.urandom(SECRET_BYTES)).decode()


def signature(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def new_message_id() -> str:
    """A message's `webhook-id`: the same on every retry of it (receivers drop repeats)."""
    return "msg_" + os.urandom(12).hex()


def signed_headers(secret: str, body: bytes, msg_id: str) -> dict[str, str]:
    timestamp = int(time.time())
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, msg_id, timestamp, body),
        "content-type": "application/json",
    }


def is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    return is_ip_literal(host) and host.strip("[]") in ("127.0.0.1", "::1")


def check_url(value: str, *, allow_loopback: bool = False) -> str:
    """The receiver's URL as given, or 400 naming the field."""
    url = value.strip()
    try:
        parsed = URL(url)
    except ValueError:
        parsed = URL()
    host = parsed.host or ""
    if len(url) > MAX_URL or not parsed.is_absolute() or not host:
        raise BadRequest(f"{FIELD}: give an absolute https:// URL of at most {MAX_URL} characters.")
    if parsed.user or parsed.password:
        raise BadRequest(f"{FIELD}: the URL may not carry a user name or password.")
    if allow_loopback and is_loopback(host) and parsed.scheme in ("http", "https"):
        return str(parsed)
    if parsed.scheme != "https":
        raise BadRequest(f"{FIELD}: the URL must start with https:// (got {parsed.scheme}://).")
    if (is_ip_literal(host) and not is_global(host)) or is_loopback(host):
        raise BadRequest(f"{FIELD}: the gateway only calls public addresses ({host} is not).")
    return str(parsed)  # encoded, as the outbound sends it
