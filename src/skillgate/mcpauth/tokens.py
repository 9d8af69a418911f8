"""Codes and tokens of the authorization server: formats, digests, lifetimes.

Each is 32 random bytes (256 bits) behind a prefix that says what it is
(`sgo_at_`, `sgo_rt_`, `sgo_ac_`); only its HMAC-SHA256 digest under a pepper
derived from `SKILLGATE_SECRET_KEY` is stored. An API key starts `sk_`, so no
route that takes API keys mistakes one for the other: an access token is refused
by every route but `/mcp`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ACCESS_PREFIX = "sgo_at_"
REFRESH_PREFIX = "sgo_rt_"
CODE_PREFIX = "sgo_ac_"
CODE_TTL_SECONDS = 120  # an authorization code: single use, two minutes
REFRESH_GRACE_SECONDS = 30  # a rotated refresh token re-sent this soon is answered again
SCOPE = "mcp"  # the one OAuth scope; what a grant may do is chosen on the consent page
_MAX_LENGTH = 100


def new(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def is_access_token(value: str) -> bool:
    return value.startswith(ACCESS_PREFIX) and len(value) <= _MAX_LENGTH


class Digester:
    """A code's or token's stored digest."""

    def __init__(self, secret_key: str) -> None:
        pepper = hmac.new(secret_key.encode(), b"skillgate/oauth-pepper/v1", hashlib.sha256)
        self._keyed = hmac.new(pepper.digest(), digestmod=hashlib.sha256)

    def __call__(self, value: str) -> str:
        mac = self._keyed.copy()
        mac.update(value[:_MAX_LENGTH].encode())
        return mac.hexdigest()
