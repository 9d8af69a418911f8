"""Key digests: the keyed-once HMAC (creation and verification) is HMAC-SHA256."""

from __future__ import annotations

import hashlib
import hmac

from skillgate.api_keys import keyformat


def test_the_digester_is_hmac_sha256_under_the_pepper() -> None:
    pepper = keyformat.derive_pepper("a secret key of the tests")
    digester = keyformat.Digester(pepper)
    keys = [keyformat.generate() for _ in range(3)]
    keys += ["sk_live_" + "a" * 40, "sk_ünïcode", "", "x" * 200]  # past one hash block too
    for key in keys:
        expected = hmac.new(pepper, key.encode(), hashlib.sha256).hexdigest()
        assert digester(key) == expected
    # Copies of the keyed HMAC: no state leaks from one key to the next.
    assert digester("sk_a") == digester("sk_a") != digester("sk_b")
