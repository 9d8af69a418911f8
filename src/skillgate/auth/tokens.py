"""Short-lived access tokens (the spec's "JWT"): compact HS256 JWTs.

Issued by POST /auth/login, accepted as `Authorization: Bearer` on /api-keys
and /auth/device/authorize. Signed with a key derived from SKILLGATE_SECRET_KEY.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass

_HEADER = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').rstrip(b"=")


def _b64(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def _unb64(data: str) -> bytes:
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


@dataclass(frozen=True)
class AccessClaims:
    user_id: str
    expires_at: int


class TokenSigner:
    def __init__(self, secret_key: str, ttl: int) -> None:
        self._key = hmac.new(
            secret_key.encode(), b"skillgate/access-token/v1", hashlib.sha256
        ).digest()
        self.ttl = ttl

    def issue(self, user_id: str, now: float | None = None) -> str:
        issued = int(now if now is not None else time.time())
        payload = {"sub": user_id, "iat": issued, "exp": issued + self.ttl, "typ": "access"}
        body = _HEADER + b"." + _b64(json.dumps(payload, separators=(",", ":")).encode())
        signature = _b64(hmac.new(self._key, body, hashlib.sha256).digest())
        return (body + b"." + signature).decode()

    def verify(self, token: str) -> AccessClaims | None:
        """The claims of a valid, unexpired token; None for anything else."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != _HEADER.decode():
            return None
        body = (parts[0] + "." + parts[1]).encode()
        expected = _b64(hmac.new(self._key, body, hashlib.sha256).digest()).decode()
        if not hmac.compare_digest(expected, parts[2]):
            return None
        try:
            claims = json.loads(_unb64(parts[1]))
        except ValueError:
            return None
        if not isinstance(claims, dict) or claims.get("typ") != "access":
            return None
        sub, exp = claims.get("sub"), claims.get("exp")
        if not isinstance(sub, str) or not isinstance(exp, int) or exp <= time.time():
            return None
        return AccessClaims(user_id=sub, expires_at=exp)
