"""Base62 digits (0-9, A-Z, a-z), two at a time: ids and key checksums are made on the
hot path (every execution and every key check)."""

from __future__ import annotations

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_PAIRS = tuple(a + b for a in ALPHABET for b in ALPHABET)  # 62**2 two-digit numbers


def encode(number: int, width: int) -> str:
    """`number` modulo 62**width as exactly `width` digits, most significant first."""
    digits = []
    if width % 2:
        number, rem = divmod(number, 62)
        digits.append(ALPHABET[rem])
    for _ in range(width // 2):
        number, rem = divmod(number, 3844)
        digits.append(_PAIRS[rem])
    return "".join(reversed(digits))
