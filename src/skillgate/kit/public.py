"""The public URLs of this server for the request being served: one definition.

Every link the server hands out (the device flow's `verification_uri` and
`api_keys_url`, `action_url` (`integration_page`), `connect_url`, the OAuth
callback, the dashboard's redirects) starts with `PublicUrls.base` (the API) or
`PublicUrls.app` (the dashboard), decided in this order:

1. `SKILLGATE_BASE_URL` / `SKILLGATE_APP_URL` when set: always, whatever a request says.
2. A request whose peer is a trusted proxy (`SKILLGATE_TRUSTED_PROXIES`) and which
   carries `X-Forwarded-Host`: that host, with `X-Forwarded-Proto`'s scheme (else
   the request's own).
3. The address `skillgate serve` listens on (`--host`/`--port`, handed to the app as
   `SKILLGATE_SERVED_ON`); for a wildcard host (0.0.0.0, ::) the request's `Host`
   header instead, the address the client used. The scheme is `X-Forwarded-Proto`'s
   from a trusted proxy, else the request's.
4. Otherwise (no request, or an app not started by `skillgate serve`):
   http://127.0.0.1:8000.

The per-request part runs only when a link is built: `RequestOrigin` holds the
request's headers and peer, and `PublicUrls` reads it from a context variable
that http/public.py sets around each request (a few microseconds a request;
nothing at all with `SKILLGATE_BASE_URL` set).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import NamedTuple, Protocol
from urllib.parse import urlsplit

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", "[::]", ""})  # noqa: S104 - compared, not bound
# host[:port]: a DNS name or IPv4 address, or a bracketed IPv6 address.
_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
_SCHEMES = frozenset({"http", "https"})


class Addresses(Protocol):
    """The trusted proxies (uvicorn's parsed list: addresses, networks or `*`)."""

    def __contains__(self, host: str | None, /) -> bool: ...


class RequestOrigin(NamedTuple):
    """What one request says about where it was sent, as received (before any proxy
    rewrite); its headers are read only when a link is built. The middleware makes
    one per request, as a plain tuple: `(scheme, headers, peer, trusted)`."""

    scheme: str  # the connection's own: http (`skillgate serve` speaks no TLS)
    headers: list[tuple[bytes, bytes]]  # the ASGI scope's
    peer: str | None  # the connecting address
    trusted: Addresses  # the trusted proxies (`in` asks)

    def header(self, name: bytes) -> str | None:
        for key, value in self.headers:
            if key == name:
                return value.decode("latin-1")
        return None

    def from_trusted_proxy(self) -> bool:
        return self.peer is not None and self.peer in self.trusted


_current: ContextVar[RequestOrigin | None] = ContextVar("skillgate_request_origin", default=None)


def enter(origin: RequestOrigin) -> Token[RequestOrigin | None]:
    """Links built from now on in this context are for the request `origin` describes."""
    return _current.set(origin)


def leave(token: Token[RequestOrigin | None]) -> None:
    _current.reset(token)


def valid_host(value: str | None) -> str | None:
    """`value` when it is a plain host[:port] (no path, user info or spaces), else None."""
    if value is None:
        return None
    value = value.strip()
    return value if _HOST.fullmatch(value) else None


def first(value: str | None) -> str | None:
    """The first entry of a comma-separated forwarded header (the client-facing one)."""
    return value.split(",", 1)[0].strip() if value else None


class PublicUrls:
    """Built once by the composition root from the settings; read per link."""

    def __init__(self, *, base_url: str | None, app_url: str | None, served_on: str | None) -> None:
        self.base_url = base_url.rstrip("/") if base_url else None
        self.app_url = app_url.rstrip("/") if app_url else None
        self.authority, self.wildcard = _listening(served_on)  # host:port, or None

    @property
    def base(self) -> str:
        """The API's public base URL for the request being served (no trailing slash)."""
        return self.base_url or self._derived()

    @property
    def app(self) -> str:
        """The dashboard's public base URL for the request being served."""
        return self.app_url or self.base

    def integration_page(self, slug: str) -> str:
        """The dashboard page where a person connects or reconnects integration `slug`:
        the `action_url` of every "not connected" and "token expired" answer."""
        return f"{self.app}/integrations/{slug}"

    def add_scopes_url(self, slug: str, scope_set: str) -> str:
        """Where a person adds scope set `scope_set` to their `slug` connection (the
        provider's consent page, through the browser connect route): the `action_url`
        of an `insufficient_scope` answer."""
        return f"{self.app}/connect/{slug}?add={scope_set}"

    def _derived(self) -> str:
        origin = _current.get()
        if origin is None:
            return f"http://{self.authority}" if self.authority else DEFAULT_BASE_URL
        scheme = origin.scheme
        proto = (first(origin.header(b"x-forwarded-proto")) or "").lower()
        forwarded = valid_host(first(origin.header(b"x-forwarded-host")))
        if (proto in _SCHEMES or forwarded) and origin.from_trusted_proxy():
            scheme = proto if proto in _SCHEMES else scheme
            if forwarded:
                return f"{scheme}://{forwarded}"
        if self.authority is None:
            return DEFAULT_BASE_URL
        host = valid_host(origin.header(b"host")) if self.wildcard else None
        return f"{scheme}://{host or self.authority}"

    @staticmethod
    @contextmanager
    def serving(origin: RequestOrigin) -> Iterator[None]:
        """Links built inside this block are for the request `origin` describes."""
        token = enter(origin)
        try:
            yield
        finally:
            leave(token)


def served_on(host: str, port: int) -> str:
    """The `SKILLGATE_SERVED_ON` value for `skillgate serve --host host --port port`."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def _listening(value: str | None) -> tuple[str | None, bool]:
    """(the listening address as host:port, whether its host is a wildcard); a wildcard
    falls back to 127.0.0.1 on the same port when a request names no usable Host."""
    if not value:
        return None, False
    parts = urlsplit(value)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    if host in WILDCARD_HOSTS:
        return f"127.0.0.1{port}", True
    return (f"[{host}]" if ":" in host else host) + port, False
