"""The outbound HTTP object's lifecycle and its body decoding (the requests themselves,
timeouts, size cap and redirects: tests/executor/test_execute.py against a loopback
provider)."""

from __future__ import annotations

import pytest

from skillgate.errors import UpstreamUnavailable
from skillgate.kit.outbound import Outbound, UpstreamRequest, _decode


async def test_one_session_from_start_to_close() -> None:
    outbound = Outbound()
    request = UpstreamRequest("GET", "http://127.0.0.1:1/", {})
    with pytest.raises(AssertionError, match="lifespan"):
        await outbound.send(request, connect_timeout=1, total_timeout=1)
    await outbound.start()
    session = outbound.session
    await outbound.start()  # started twice: still the one session
    assert outbound.session is session
    with pytest.raises(UpstreamUnavailable, match="could not be reached"):
        await outbound.send(request, connect_timeout=1, total_timeout=1, service="Nothing")
    # Allowed a private address, the same request really connects, and is refused there.
    with pytest.raises(UpstreamUnavailable, match="could not be reached") as refused:
        await outbound.send(
            request, connect_timeout=1, total_timeout=1, service="Nothing", private_network=True
        )
    assert "allow_private_network" not in str(refused.value)
    await outbound.close()
    assert session.closed
    await outbound.close()  # closing twice is harmless
    with pytest.raises(AssertionError):
        outbound.session


async def test_an_unreachable_service_is_said_plainly() -> None:
    """Offline (a name that does not resolve) or refused: the message says so in words,
    never a library's exception class (issue 23.9: `ClientConnectorDNSError`)."""
    outbound = Outbound()
    await outbound.start()
    try:
        for url, why, private in [
            (
                "http://nonexistent.invalid/",
                "its address could not be looked up (no network",
                False,
            ),
            # a loopback port where nothing listens: allowed the private network to get there
            ("http://127.0.0.1:1/", "the connection was refused or failed; retry later", True),
        ]:
            request = UpstreamRequest("GET", url, {})
            with pytest.raises(UpstreamUnavailable) as caught:
                await outbound.send(
                    request,
                    connect_timeout=5,
                    total_timeout=5,
                    service="GitHub",
                    private_network=private,
                )
            assert caught.value.message.startswith(f"GitHub could not be reached: {why}")
            assert "Error" not in caught.value.message
    finally:
        await outbound.close()


def test_bodies_decode_as_json_when_they_are_else_as_text() -> None:
    assert _decode(b"", "application/json") is None
    assert _decode(b'{"a": 1}', "text/plain") == {"a": 1}  # looks like JSON: parsed
    assert _decode(b"[1]", "") == [1]
    assert _decode(b"not json", "application/json") == "not json"
    assert _decode(b"a=1&b=2", "application/x-www-form-urlencoded") == "a=1&b=2"
    assert _decode(b"\xff", "text/plain") == "\ufffd"


def test_a_request_never_shows_its_headers() -> None:
    request = UpstreamRequest("GET", "https://api.example.com/x", {"Authorization": "Bearer s"})
    assert repr(request) == "UpstreamRequest(GET https://api.example.com/x)"
