"""The execution envelope (executor.envelope): plain unit tests."""

from __future__ import annotations

import time
from typing import Any

import pytest

from skillgate.executor.envelope import parts, retry_after
from skillgate.kit.outbound import UpstreamResponse
from skillgate.kit.upstream import body_failed


def response(status: int, body: Any = None, **headers: str) -> UpstreamResponse:
    return UpstreamResponse(status, {k.replace("_", "-"): v for k, v in headers.items()}, body)


def test_success_carries_the_data() -> None:
    data, failed = parts(response(201, {"id": 1}), None)
    assert data == {"status": 201, "data": {"id": 1}}
    assert failed is False


def test_an_error_status_carries_the_error_body() -> None:
    data, failed = parts(response(404, {"message": "Not Found"}), None)
    assert data == {"status": 404, "error": {"message": "Not Found"}}
    assert failed is True


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (None, {"message": "The upstream service answered 500 with no body."}),
        ("<html>oops</html>", {"message": "<html>oops</html>"}),
    ],
)
def test_an_error_without_a_json_body_still_has_a_message(body: Any, error: Any) -> None:
    data, _ = parts(response(500, body), None)
    assert data == {"status": 500, "error": error}


@pytest.mark.parametrize(
    ("style", "body", "failed"),
    [
        ("slack", {"ok": False, "error": "channel_not_found"}, True),
        ("slack", {"ok": True}, False),
        ("slack", {"no_ok": 1}, False),
        ("graphql", {"errors": [{"message": "x"}]}, True),
        ("graphql", {"errors": [{"message": "x"}], "data": {"a": 1}}, False),
        ("graphql", {"errors": []}, False),
        (None, {"ok": False}, False),
        ("slack", ["not", "an", "object"], False),
    ],
)
def test_failures_inside_a_2xx_body(style: str | None, body: Any, failed: bool) -> None:
    assert body_failed(style, body) is failed
    data, reported = parts(response(200, body), style)
    assert reported is failed
    assert data == ({"status": 200, "error": body} if failed else {"status": 200, "data": body})


def test_rate_limited_waits_come_from_retry_after_then_reset() -> None:
    assert retry_after(response(200)) is None
    assert retry_after(response(500, retry_after="5")) is None
    assert retry_after(response(429, retry_after=" 7 ")) == 7
    assert retry_after(response(429, retry_after="0")) == 1
    assert retry_after(response(429, retry_after="Wed, 21 Oct 2026 07:28:00 GMT")) == 60
    reset = str(int(time.time()) + 120)
    wait = retry_after(response(403, x_ratelimit_remaining="0", x_ratelimit_reset=reset))
    assert wait is not None
    assert 118 <= wait <= 120
    assert retry_after(response(403, x_ratelimit_remaining="5")) is None
    assert retry_after(response(429)) == 60


def test_a_rate_limited_error_says_how_long_to_wait() -> None:
    data, failed = parts(response(429, {"message": "slow down"}, retry_after="30"), None)
    assert data == {
        "status": 429,
        "error": {"message": "slow down"},
        "retry_after": 30,
    }
    assert failed is True
