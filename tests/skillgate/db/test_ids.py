"""Ids: random ones are unique; execution ids also sort by creation time."""

from __future__ import annotations

import re
import time

from skillgate.db.base import new_id, new_sortable_id


def test_random_ids_are_prefixed_base62_and_unique() -> None:
    ids = {new_id("key") for _ in range(10_000)}
    assert len(ids) == 10_000
    assert all(re.fullmatch(r"key_[0-9A-Za-z]{20}", i) for i in ids)


def test_sortable_ids_follow_the_clock() -> None:
    earlier = [new_sortable_id("exe") for _ in range(100)]
    time.sleep(0.002)
    later = [new_sortable_id("exe") for _ in range(100)]
    assert max(earlier) < min(later)
    assert all(re.fullmatch(r"exe_[0-9A-Za-z]{20}", i) for i in earlier + later)
    assert len(set(earlier + later)) == 200


def _one_digit_at_a_time(number: int, width: int) -> str:
    """The definition the stored key checksums were made with."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    digits = []
    for _ in range(width):
        number, rem = divmod(number, 62)
        digits.append(alphabet[rem])
    return "".join(reversed(digits))


def test_base62_two_digits_at_a_time_is_the_same_encoding() -> None:
    import random

    from skillgate.kit import base62

    rng = random.Random(7)
    for width in (1, 2, 5, 6, 8, 12, 20):
        for number in [
            0,
            61,
            62,
            3843,
            3844,
            2**32 - 1,
            *(rng.getrandbits(130) for _ in range(300)),
        ]:
            assert base62.encode(number, width) == _one_digit_at_a_time(number, width)


def test_keys_made_before_still_validate() -> None:
    import zlib

    from skillgate.api_keys import keyformat

    body = "sk_" + "A" * 30  # checksum made the way earlier versions made it
    assert keyformat.is_well_formed(body + _one_digit_at_a_time(zlib.crc32(body.encode()), 6))
    assert not keyformat.is_well_formed(body + "000000")
    assert all(keyformat.is_well_formed(keyformat.generate()) for _ in range(200))
