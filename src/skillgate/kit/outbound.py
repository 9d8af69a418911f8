"""Outbound HTTP: one request out, bounded in time and size, no redirects.

`Outbound` owns the worker's one aiohttp ClientSession (opened in the app's
lifespan by the composition root, closed at shutdown); every service that calls
out receives it in its constructor: the executor (agent calls), token
verification and the OAuth token exchange and refresh (skillgate.connections).
Cookies are never stored (DummyCookieJar) and no upstream header is passed to
the client. Failures are the gateway's own errors: `UpstreamTimeout` (504),
`UpstreamUnavailable` and `UpstreamResponseTooLarge` (502).

Private addresses: a request goes to a loopback, private, link-local (cloud
metadata's 169.254.169.254 included) or other non-global address only when the
caller says the integration may (`private_network=True`: its catalog file says
`allow_private_network: true`, or the operator set its URL in the environment).
Otherwise an IP literal is refused before connecting and a name is refused when
any address it resolves to is not global, at resolution time (a session of its
own, whose resolver checks every answer, so a cached or rebound name is checked
too).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
from aiohttp.abc import ResolveResult
from aiohttp.resolver import DefaultResolver
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


class PrivateAddressError(OSError):
    """A host that is, or resolves to, an address that is not global."""

    def __init__(self, host: str, address: str) -> None:
        super().__init__(f"{host} is a private, loopback or link-local address ({address})")
        self.host = host
        self.address = address


def is_global(address: str) -> bool:
    """Whether `address` (an IP literal) is a public Internet address: not loopback,
    private, link-local, shared, reserved or unspecified (IPv4-mapped IPv6 unwrapped)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0].strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class _PublicResolver(DefaultResolver):  # type: ignore[misc,valid-type]
    """The default resolver, refusing a name when any of its addresses is not global."""

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found: list[ResolveResult] = await super().resolve(host, port, family)
        for answer in found:
            if not is_global(answer["host"]):
                raise PrivateAddressError(host, answer["host"])
        return found


def _new_session(private_network: bool) -> aiohttp.ClientSession:
    resolver = DefaultResolver() if private_network else _PublicResolver()
    connector = aiohttp.TCPConnector(
        limit=256, limit_per_host=64, ttl_dns_cache=300, resolver=resolver
    )
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
        self._session: aiohttp.ClientSession | None = None  # public addresses only
        self._private: aiohttp.ClientSession | None = None  # any address

    async def start(self) -> None:
        if self._session is None:
            self._session = _new_session(private_network=False)
            self._private = _new_session(private_network=True)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._private is not None:
            await self._private.close()
            self._private = None

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
        private_network: bool = False,
    ) -> UpstreamResponse:
        """One request; a redirect is answered as it is (never followed). Only with
        `private_network` may it go to an address that is not global."""
        assert self._session is not None, "the app's lifespan has not started"
        session = self._session
        if private_network:
            assert self._private is not None
            session = self._private
        else:
            host = URL(request.url, encoded=True).host or ""
            if is_ip_literal(host) and not is_global(host):
                raise _refused(service, PrivateAddressError(host, host))
        return await _send(session, request, connect_timeout, total_timeout, max_bytes, service)


def _refused(service: str, exc: PrivateAddressError) -> UpstreamUnavailable:
    return UpstreamUnavailable(
        f"{service} could not be reached: {exc}, which the gateway does not call unless "
        "the integration's catalog file says allow_private_network: true (set by "
        "`skillgate catalog import ... --allow-private-network`)."
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
            # No body, no Content-Type (aiohttp would add application/octet-stream).
            skip_auto_headers=("Content-Type",) if request.body is None else None,
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
    except aiohttp.ClientConnectorError as exc:
        if isinstance(exc.os_error, PrivateAddressError):
            raise _refused(service, exc.os_error) from None
        raise UpstreamUnavailable(f"{service} could not be reached: {_why(exc)}.") from None
    except (aiohttp.ClientError, OSError, asyncio.IncompleteReadError) as exc:
        raise UpstreamUnavailable(f"{service} could not be reached: {_why(exc)}.") from None


def _why(exc: BaseException) -> str:
    """What went wrong, in words a user can act on (never a library's class name)."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return "its address could not be looked up (no network, or DNS is down); check the network"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return "the connection was refused or failed; retry later"
    return "the connection broke before it answered; retry later"
