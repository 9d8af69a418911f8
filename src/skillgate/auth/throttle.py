"""Sign-in and sign-up throttling on the app's shared counters (Redis when configured).

Every sign-in attempt counts, per account (the email as typed, normalised) and
per client IP, in fixed windows. Past a limit the form answers 429 with the same
message whether or not the account exists, before any password is checked: a
correct password during the lock-out is refused too, and guessing stays slow.
Sign-ups are counted per IP (each one costs an argon2id hash).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from skillgate.errors import RateLimited
from skillgate.executor.ratelimit import Counter


@dataclass(frozen=True)
class Limit:
    name: str
    attempts: int
    window: int  # seconds


SIGN_IN_PER_ACCOUNT = Limit("signin:acct", 10, 900)
SIGN_IN_PER_IP = Limit("signin:ip", 50, 900)
SIGN_UP_PER_IP = Limit("signup:ip", 20, 3600)


def _digest(value: str) -> str:
    return hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]


async def _spend(counter: Counter, checks: list[tuple[Limit, str]], message: str) -> None:
    now = time.time()
    keys = [
        (f"sg:{limit.name}:{subject}:{int(now // limit.window)}", limit.window)
        for limit, subject in checks
    ]
    counts = await counter.hit(keys)
    retry_after = 0
    for (limit, _), count in zip(checks, counts, strict=True):
        if count > limit.attempts:
            retry_after = max(retry_after, int(limit.window - now % limit.window) + 1)
    if retry_after:
        minutes = max(1, round(retry_after / 60))
        raise RateLimited(
            f"{message} Wait about {minutes} minute{'s' if minutes != 1 else ''} and try again.",
            retry_after=retry_after,
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
