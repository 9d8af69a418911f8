"""Outbound HTTP: one request out, bounded in time and size, no redirects.

`Outbound` owns the worker's one aiohttp ClientSession (opened in the app's
lifespan by the composition root, closed at shutdown); every service that calls
out receives it in its constructor: the executor (agent calls), token
verification and the OAuth token exchange and refresh (skillgate.connections).
Cookies are never stored (DummyCookieJar) and no upstream header is passed to
the client. Failures are the gateway's own errors: `UpstreamTimeout` (504),
`UpstreamUnavailable` and `UpstreamResponseTooLarge` (502).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
from yarl import URL

from skillgate.errors import UpstreamResponseTooLarge, UpstreamTimeout, UpstreamUnavailable

USER_AGENT = "skillgate/0.1"
MAX_RESPONSE_BYTES = 10 * 1024 * 1024
_CHUNK = 64 * 1024


@dataclass
class UpstreamRequest:
    method: str
    url: str  # already encoded (sent as it is)
    headers: dict[str, str]
    body: bytes | None = None
    query: list[tuple[str, str]] = field(default_factory=list)  # what the URL carries

    def __repr__(self) -> str:  # headers carry credentials
        # Without the query: it may hold a credential (`?api_key=`).
        return f"UpstreamRequest({self.method} {self.url.split('?', 1)[0]})"


@dataclass
class UpstreamResponse:
    status: int
    headers: Mapping[str, str]  # case-insensitive lookups
    body: Any  # parsed JSON, or text


def _new_session() -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(limit=256, limit_per_host=64, ttl_dns_cache=300)
    return aiohttp.ClientSession(
        connector=connector,
        cookie_jar=aiohttp.DummyCookieJar(),
        auto_decompress=True,
    )


_TIMEOUTS: dict[tuple[float, float], aiohttp.ClientTimeout] = {}


def _timeout(connect: float, total: float) -> aiohttp.ClientTimeout:
    found = _TIMEOUTS.get((connect, total))
    if found is None:
        found = _TIMEOUTS[(connect, total)] = aiohttp.ClientTimeout(
            total=total, sock_connect=connect
        )
    return found


def _decode(raw: bytes, content_type: str) -> Any:
    if not raw:
        return None
    if "json" in content_type or raw[:1] in (b"{", b"["):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return raw.decode("utf-8", errors="replace")


async def _read_capped(resp: aiohttp.ClientResponse, max_bytes: int, service: str) -> bytes:
    """A body of unknown length, abandoned as soon as it passes `max_bytes`."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.content.iter_chunked(_CHUNK):
        size += len(chunk)
        if size > max_bytes:
            resp.close()
            raise UpstreamResponseTooLarge(
                f"{service} sent more than {max_bytes} bytes; narrow the request "
                "(filters, fields, smaller pages)."
            )
        chunks.append(chunk)
    return b"".join(chunks)


class Outbound:
    """The worker's outbound HTTP: `start()` in the lifespan, `send()`, `close()`."""

    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        if self._session is None:
            self._session = _new_session()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def session(self) -> aiohttp.ClientSession:
        assert self._session is not None, "the app's lifespan has not started"
        return self._session

    async def send(
        self,
        request: UpstreamRequest,
        *,
        connect_timeout: float,
        total_timeout: float,
        max_bytes: int = MAX_RESPONSE_BYTES,
        service: str = "the upstream service",
    ) -> UpstreamResponse:
        """One request; a redirect is answered as it is (never followed)."""
        assert self._session is not None, "the app's lifespan has not started"
        return await _send(
            self._session, request, connect_timeout, total_timeout, max_bytes, service
        )


async def _send(
    session: aiohttp.ClientSession,
    request: UpstreamRequest,
    connect_timeout: float,
    total_timeout: float,
    max_bytes: int,
    service: str,
) -> UpstreamResponse:
    timeout = _timeout(connect_timeout, total_timeout)
    try:
        async with session.request(
            request.method,
            URL(request.url, encoded=True),  # built and encoded by the caller
            headers=request.headers,
            data=request.body,
            allow_redirects=False,
            timeout=timeout,
        ) as resp:
            declared = resp.content_length
            if declared is not None and declared > max_bytes:
                resp.close()
                raise UpstreamResponseTooLarge(
                    f"{service} answered {declared} bytes; the gateway accepts at most {max_bytes}."
                )
            if declared is not None:
                raw = await resp.read()  # bounded by the check above
            else:
                raw = await _read_capped(resp, max_bytes, service)
            return UpstreamResponse(
                resp.status, resp.headers, _decode(raw, resp.headers.get("content-type", ""))
            )
    except UpstreamResponseTooLarge:
        raise
    except TimeoutError:
        raise UpstreamTimeout(
            f"{service} did not answer within {total_timeout:g} s; retry later."
        ) from None
    except (aiohttp.ClientError, OSError, asyncio.IncompleteReadError) as exc:
        raise UpstreamUnavailable(f"{service} could not be reached: {_why(exc)}.") from None


def _why(exc: BaseException) -> str:
    """What went wrong, in words a user can act on (never a library's class name)."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return "its address could not be looked up (no network, or DNS is down); check the network"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return "the connection was refused or failed; retry later"
    return "the connection broke before it answered; retry later"
