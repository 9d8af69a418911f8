"""In front of every door: which proxies are trusted, and where the request was sent.

uvicorn's `ProxyHeadersMiddleware` (the one `uvicorn --proxy-headers` installs)
applies `X-Forwarded-Proto` and `X-Forwarded-For` from trusted peers to the
request's scheme and client address; the same list of trusted peers decides
whether `X-Forwarded-Host` may name the public host of the links this request
gets (kit/public.py). The list is `SKILLGATE_TRUSTED_PROXIES`: addresses or
networks, comma-separated, or `*`.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from skillgate.kit.public import RequestOrigin, enter, leave


class PublicOriginMiddleware:
    def __init__(self, app: ASGIApp, *, trusted_proxies: str, derive: bool) -> None:
        self.proxied = ProxyHeadersMiddleware(app, trusted_hosts=trusted_proxies)  # type: ignore[arg-type]
        self.trusted_hosts = self.proxied.trusted_hosts
        self.derive = derive  # False with SKILLGATE_BASE_URL set: no request changes a link

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.derive or scope["type"] not in ("http", "websocket"):
            await self.proxied(scope, receive, send)  # type: ignore[arg-type]
            return
        client = scope.get("client")
        origin = RequestOrigin(
            "https" if scope.get("scheme") in ("https", "wss") else "http",
            scope["headers"],
            client[0] if client else None,  # read now: the proxy middleware rewrites it
            self.trusted_hosts,
        )
        token = enter(origin)
        try:
            await self.proxied(scope, receive, send)  # type: ignore[arg-type]
        finally:
            leave(token)
