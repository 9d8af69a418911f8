"""argon2id password hashing, with a dummy verify so unknown emails cost the same."""

from __future__ import annotations

import asyncio
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 8
MAX_LENGTH = 1024

_hasher = PasswordHasher()  # argon2id, RFC 9106 low-memory profile defaults


@cache
def _dummy_hash() -> str:
    """A hash to verify against when there is none, made on first use (not at import:
    one argon2id hash is ~0.2 s of every process's start-up)."""
    return _hasher.hash("not-a-real-password-used-for-timing")


def hash_password_sync(password: str) -> str:
    return _hasher.hash(password)


def _verify(hash_: str, password: str) -> bool:
    try:
        return _hasher.verify(hash_, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(hash_: str | None, password: str) -> bool:
    """Verify off the event loop; with no hash, spend the same time and fail."""
    if hash_ is None:
        await asyncio.to_thread(_verify, _dummy_hash(), password)
        return False
    return await asyncio.to_thread(_verify, hash_, password)
