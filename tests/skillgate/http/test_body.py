"""Deeply nested JSON: one bounded reader for every JSON body, 400 and never a 500."""

from __future__ import annotations

import orjson
import pytest

from skillgate.errors import BadRequest
from skillgate.http.body import MAX_DEPTH, loads, too_deep
from tests.conftest import Harness, bearer


def nested(levels: int, inner: bytes = b"1") -> bytes:
    return b'{"a":' * levels + inner + b"}" * levels


def test_the_limit_is_exact() -> None:
    assert loads(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    assert loads(nested(MAX_DEPTH)) is not None
    for body in (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), nested(MAX_DEPTH + 1)):
        with pytest.raises(BadRequest) as caught:
            loads(body)
        assert caught.value.message == "The request body nests deeper than 64 levels."


def test_wide_and_bracket_rich_bodies_pass() -> None:
    wide = orjson.dumps({"params": {"items": [[1, {"k": [2]}]] * 1000, "text": "[[[{{{" * 100}})
    assert loads(wide)["params"]["text"].startswith("[[[{{{")
    assert not too_deep([[1]] * 10_000)
    assert too_deep({"a": [[[[1]]]]}, max_depth=4)
    assert not too_deep("[[[[[", max_depth=1)


def test_not_json_is_a_value_error() -> None:
    with pytest.raises(orjson.JSONDecodeError):
        loads(b"{nope")
    assert issubclass(orjson.JSONDecodeError, ValueError)


DEEP = nested(1000)


async def test_every_json_route_refuses_deep_nesting(harness: Harness) -> None:
    await harness.user()
    token = await harness.token()
    key, _ = await harness.key()
    routes = [
        ("/auth/device/token", {}),
        ("/auth/device/code", {}),
        ("/auth/login", {}),
        ("/auth/device/authorize", bearer(token)),
        ("/api-keys", bearer(token)),
        ("/v1/connect", bearer(key)),
        ("/v1/sample/get_user", bearer(key)),
    ]
    got = {}
    for path, headers in routes:
        r = await harness.client.post(
            path, content=DEEP, headers={**headers, "Content-Type": "application/json"}
        )
        got[path] = (r.status_code, r.json()["message"])
    expected = (400, "The request body nests deeper than 64 levels.")
    assert got == dict.fromkeys(got, expected)
    r = await harness.client.put(
        "/v1/connections/sample",
        content=nested(200, b'"x"'),
        headers={**bearer(key), "Content-Type": "application/json"},
    )
    assert (r.status_code, r.json()["message"]) == expected
