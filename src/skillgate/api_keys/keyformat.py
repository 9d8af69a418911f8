"""Key format `sk_` + 30 base62 characters + a 6-character CRC32 checksum.

178 random bits; the checksum lets a malformed or mistyped key be rejected
without touching the database and lets secret scanners recognise our keys.
Keys are stored as HMAC-SHA256 under a server pepper, looked up by digest.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import zlib

from skillgate.kit import base62

PREFIX = "sk_"
RANDOM_LENGTH = 30
CHECKSUM_LENGTH = 6
KEY_LENGTH = len(PREFIX) + RANDOM_LENGTH + CHECKSUM_LENGTH
DISPLAY_PREFIX_LENGTH = 8
_KEY_RE = re.compile(rf"^{PREFIX}[0-9A-Za-z]{{{RANDOM_LENGTH + CHECKSUM_LENGTH}}}$")


def _checksum(body: str) -> str:
    return base62.encode(zlib.crc32(body.encode()), CHECKSUM_LENGTH)


def generate() -> str:
    body = PREFIX + "".join(secrets.choice(base62.ALPHABET) for _ in range(RANDOM_LENGTH))
    return body + _checksum(body)


def is_well_formed(key: str) -> bool:
    """Shape and checksum; no I/O. False for anything that cannot be one of our keys."""
    if len(key) != KEY_LENGTH or not _KEY_RE.match(key):
        return False
    body, check = key[:-CHECKSUM_LENGTH], key[-CHECKSUM_LENGTH:]
    return hmac.compare_digest(_checksum(body), check)


def display_prefix(key: str) -> str:
    return key[:DISPLAY_PREFIX_LENGTH]


def derive_pepper(secret_key: str) -> bytes:
    return hmac.new(secret_key.encode(), b"skillgate/api-key-pepper/v1", hashlib.sha256).digest()


class Digester:
    """A key's stored digest, HMAC-SHA256 under the pepper, made on every authenticated
    request: the HMAC keyed once and copied per key (OpenSSL 3 sets a key up in ~11,000
    instructions, as many as the rest of the digest)."""

    def __init__(self, pepper: bytes) -> None:
        self._keyed = hmac.new(pepper, digestmod=hashlib.sha256)

    def __call__(self, key: str) -> str:
        mac = self._keyed.copy()
        mac.update(key.encode())
        return mac.hexdigest()
