"""Sign-in and sign-up throttling on the app's shared counters (Redis when configured).

Every sign-in attempt counts, per account (the email as typed, normalised) and
per client IP, in fixed windows. Past a limit the form answers 429 with the same
message whether or not the account exists, before any password is checked: a
correct password during the lock-out is refused too, and guessing stays slow.
Sign-ups are counted per IP (each one costs an argon2id hash).
"""

from __future__ import annotations

import hashlib

from skillgate.errors import RateLimited
from skillgate.kit.ratecount import Counter, Window, spend

SIGN_IN_PER_ACCOUNT = Window("signin:acct", 10, 900)
SIGN_IN_PER_IP = Window("signin:ip", 50, 900)
SIGN_UP_PER_IP = Window("signup:ip", 20, 3600)


def _digest(value: str) -> str:
    return hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]


async def _spend(counter: Counter, checks: list[tuple[Window, str]], message: str) -> None:
    spent = await spend(counter, checks)
    if not spent.allowed:
        minutes = max(1, round(spent.retry_after / 60))
        raise RateLimited(
            f"{message} Wait about {minutes} minute{'s' if minutes != 1 else ''} and try again.",
            retry_after=spent.retry_after,
        )


async def sign_in_attempt(counter: Counter, email: str, ip: str) -> None:
    """Count one sign-in attempt; RateLimited past either limit."""
    await _spend(
        counter,
        [(SIGN_IN_PER_ACCOUNT, _digest(email)), (SIGN_IN_PER_IP, _digest(ip))],
        "Too many sign-in attempts.",
    )


async def sign_up_attempt(counter: Counter, ip: str) -> None:
    await _spend(counter, [(SIGN_UP_PER_IP, _digest(ip))], "Too many sign-ups from this network.")
