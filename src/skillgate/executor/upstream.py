"""Send one request upstream with aiohttp: bounded in time and size, no redirects.

One ClientSession per worker, created in the app's lifespan. Cookies are
never stored (DummyCookieJar) and no upstream header is passed to the client.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import aiohttp
import orjson

from skillgate.errors import UpstreamResponseTooLarge, UpstreamTimeout, UpstreamUnavailable
from skillgate.executor.request import UpstreamRequest

MAX_RESPONSE_BYTES = 10 * 1024 * 1024
_CHUNK = 64 * 1024


@dataclass
class UpstreamResponse:
    status: int
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or text
    elapsed_ms: float = 0.0


def new_session() -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(limit=256, limit_per_host=64, ttl_dns_cache=300)
    return aiohttp.ClientSession(
        connector=connector,
        cookie_jar=aiohttp.DummyCookieJar(),
        auto_decompress=True,
        skip_auto_headers=("User-Agent",),
        headers={"User-Agent": "skillgate/0.1"},
    )


def _decode(raw: bytes, content_type: str) -> Any:
    if not raw:
        return None
    if "json" in content_type or raw[:1] in (b"{", b"["):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return raw.decode("utf-8", errors="replace")


async def send(
    session: aiohttp.ClientSession,
    request: UpstreamRequest,
    *,
    connect_timeout: float,
    total_timeout: float,
    max_bytes: int = MAX_RESPONSE_BYTES,
    service: str = "the upstream service",
) -> UpstreamResponse:
    timeout = aiohttp.ClientTimeout(total=total_timeout, sock_connect=connect_timeout)
    try:
        async with session.request(
            request.method,
            request.url,
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
            headers = {k.lower(): v for k, v in resp.headers.items()}
            return UpstreamResponse(
                resp.status, headers, _decode(b"".join(chunks), headers.get("content-type", ""))
            )
    except UpstreamResponseTooLarge:
        raise
    except TimeoutError:
        raise UpstreamTimeout(
            f"{service} did not answer within {total_timeout:g} s; retry later."
        ) from None
    except (aiohttp.ClientError, OSError, asyncio.IncompleteReadError) as exc:
        raise UpstreamUnavailable(
            f"{service} could not be reached ({type(exc).__name__}); retry later."
        ) from None
