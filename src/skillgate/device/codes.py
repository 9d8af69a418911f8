"""Device and user codes: generation, normalisation, hashing (constants named)."""

from __future__ import annotations

import hashlib
import re
import secrets

DEVICE_CODE_BYTES = 20  # 40 hex characters
USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: no words, no 0/O or 1/I confusion
USER_CODE_LENGTH = 8
LIFETIME_SECONDS = 900
INTERVAL_SECONDS = 5
SLOW_DOWN_STEP = 5
PURGE_AFTER_EXPIRY_SECONDS = 3600  # expired codes answer `expired_token` this long, then go
STARTS_PER_ADDRESS = 30  # POST /auth/device/code per client address per window
START_WINDOW_SECONDS = 600
MAX_PENDING_CODES = 10_000  # unexpired pending codes; beyond this, starts answer 503
FULL_RETRY_AFTER_SECONDS = 60

_DEVICE_CODE_RE = re.compile(r"^[0-9a-fA-F]{40}$")


def new_device_code() -> str:
    return secrets.token_hex(DEVICE_CODE_BYTES)


def new_user_code() -> str:
    return "".join(secrets.choice(USER_CODE_ALPHABET) for _ in range(USER_CODE_LENGTH))


def display(user_code: str) -> str:
    return f"{user_code[:4]}-{user_code[4:]}"


def normalize_user_code(text: str) -> str | None:
    """`bcdf-ghjk`, `BCDFGHJK`, ` bcdf ghjk ` -> `BCDFGHJK`; None when it cannot be a code."""
    value = re.sub(r"[\s-]", "", text).upper()
    if len(value) != USER_CODE_LENGTH or any(c not in USER_CODE_ALPHABET for c in value):
        return None
    return value


def is_device_code(text: object) -> bool:
    return isinstance(text, str) and bool(_DEVICE_CODE_RE.match(text))


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()
