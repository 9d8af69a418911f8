"""kit/public.py: the order of the rules that name the links' address."""

from __future__ import annotations

from skillgate.kit.public import PublicUrls, RequestOrigin


def _origin(trusted: bool, **headers: str) -> RequestOrigin:
    raw = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    return RequestOrigin("http", raw, "10.0.0.1", {"10.0.0.1"} if trusted else set())


def _base(urls: PublicUrls, origin: RequestOrigin | None) -> tuple[str, str]:
    if origin is None:
        return urls.base, urls.app
    with PublicUrls.serving(origin):
        return urls.base, urls.app


PROXIED = {"X-Forwarded-Host": "gw.example.com, inner:8000", "X-Forwarded-Proto": "https"}


def test_a_set_base_url_wins_over_everything() -> None:
    urls = PublicUrls(base_url="https://api.example/", app_url=None, served_on="http://0.0.0.0:9")
    assert _base(urls, _origin(True, **PROXIED)) == ("https://api.example",) * 2
    urls = PublicUrls(base_url=None, app_url="https://app.example", served_on="http://h:9")
    assert _base(urls, None) == ("http://h:9", "https://app.example")


def test_trusted_forwarded_headers_then_the_served_address() -> None:
    urls = PublicUrls(base_url=None, app_url=None, served_on="http://127.0.0.1:18100")
    assert _base(urls, None)[0] == "http://127.0.0.1:18100"
    assert _base(urls, _origin(True, **PROXIED))[0] == "https://gw.example.com"
    assert _base(urls, _origin(False, **PROXIED))[0] == "http://127.0.0.1:18100"
    # Only the scheme forwarded: the served host with it.
    assert _base(urls, _origin(True, **{"X-Forwarded-Proto": "https"}))[0] == (
        "https://127.0.0.1:18100"
    )
    # A forwarded host that is not a plain host[:port] is ignored.
    bad = _origin(True, **{"X-Forwarded-Host": "evil.example/path"})
    assert _base(urls, bad)[0] == "http://127.0.0.1:18100"
    # A specific listening host: the request's Host header changes nothing.
    assert _base(urls, _origin(False, Host="other:1"))[0] == "http://127.0.0.1:18100"


def test_a_wildcard_host_takes_the_requests_host_header() -> None:
    urls = PublicUrls(base_url=None, app_url=None, served_on="http://[::]:8080")
    assert _base(urls, _origin(False, Host="box.lan:9000"))[0] == "http://box.lan:9000"
    assert _base(urls, _origin(False, Host="a b"))[0] == "http://127.0.0.1:8080"
    assert _base(urls, _origin(False))[0] == "http://127.0.0.1:8080"
    ipv6 = PublicUrls(base_url=None, app_url=None, served_on="http://[::1]:8080")
    assert _base(ipv6, None)[0] == "http://[::1]:8080"


def test_without_skillgate_serve_the_old_default() -> None:
    urls = PublicUrls(base_url=None, app_url=None, served_on=None)
    assert _base(urls, _origin(False, Host="x:1"))[0] == "http://127.0.0.1:8000"
