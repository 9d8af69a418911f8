"""Where a browser request came from: the `Origin` allow-list of `/mcp` and the
`Sec-Fetch-Site` check of session-authenticated writes.

`/mcp` is called with an API key in a header, which a browser never adds on its own;
the MCP specification (2025-11-25, Streamable HTTP, "Security Warning") still asks a
server to validate `Origin` so that a page reached through DNS rebinding cannot talk
to it. `OriginPolicy` is that check: no `Origin` (every non-browser client) passes;
a present one must be on the list, compared as RFC 6454 origins (scheme and host
lower-cased, the default port left out). The request's own `Host` is not trusted for
this: under DNS rebinding it names the attacker's host too.

`check_fetch_site` refuses a state-changing request that a browser marked as coming
from another site (`cross-site`) or a sibling subdomain (`same-site`: `SameSite=Lax`
cookies are sent on those). The dashboard's forms post to the page's own origin
(`same-origin`); `none` (typed, bookmarked) cannot be forged by a page; browsers too
old to send the header still meet the CSRF token.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from skillgate.errors import ConfigError, CsrfFailed

ANY = "*"
SETTING = "SKILLGATE_MCP_ALLOWED_ORIGINS"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_REFUSED_SITES = frozenset({"cross-site", "same-site"})


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) URL (scheme and host lower-cased, the
    scheme's default port left out); None when `url` names no such origin."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # a port out of range or not a number, a bad IPv6 literal
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in _DEFAULT_PORTS or not host or parts.username or parts.password:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}")


def _configured(entry: str) -> str:
    """One entry of the setting as an origin; ConfigError when it is not exactly one."""
    origin = origin_of(entry)
    rest = urlsplit(entry).path.strip("/") if origin else ""
    if origin is None or rest or "?" in entry or "#" in entry:
        raise ConfigError(
            f"{SETTING}: {entry!r} is not an origin; write scheme://host[:port] "
            "(e.g. https://app.example.com), comma-separated, or * for any"
        )
    return origin


class OriginPolicy:
    """Which `Origin` values may call: the server's own public origins plus the
    configured ones, or any (`*`)."""

    def __init__(self, allowed: Iterable[str], *, any_origin: bool = False) -> None:
        self.allowed = frozenset(allowed)
        self.any_origin = any_origin

    @classmethod
    def parse(cls, setting: str | None, own: Iterable[str | None]) -> OriginPolicy:
        """The policy of `SKILLGATE_MCP_ALLOWED_ORIGINS` (comma-separated origins, or
        `*`) besides the origins of the server's own public URLs `own` (unset ones are
        left out). ConfigError names a bad entry."""
        entries = [e.strip() for e in (setting or "").split(",") if e.strip()]
        allowed = {o for o in (origin_of(url) for url in own if url) if o is not None}
        allowed.update(_configured(e) for e in entries if e != ANY)
        return cls(allowed, any_origin=ANY in entries)

    def allows(self, origin: bytes | None) -> bool:
        """Whether a request with this `Origin` header (None: none sent) may call."""
        if origin is None or self.any_origin:
            return True
        return origin_of(origin.decode("latin-1")) in self.allowed


def check_fetch_site(value: str | None) -> None:
    """CsrfFailed (403) when the browser says the request came from another site."""
    if value is not None and value.strip().lower() in _REFUSED_SITES:
        raise CsrfFailed(
            "This request came from another site (Sec-Fetch-Site: "
            f"{value.strip().lower()}); open this site's own page and submit it there."
        )
