"""The gateway over `http.client`: one keep-alive connection per process.

`import httpx` alone costs ~130 ms here and an agent pays the start-up on every
call, so this is the standard library. Every way the network can fail becomes a
`CliError` with exit code 2 and one line that says what to try.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from skillgate_cli import __version__
from skillgate_cli.config import Config
from skillgate_cli.errors import LOGIN_HINT, CliError, ExitCode, one_line

IDLE_REUSE_SECONDS = 2.0  # below every common server keep-alive timeout


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The parsed body; None when it is empty or not JSON."""
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None

    def error_fields(self) -> tuple[str, str, str | None]:
        """(error code, message, action_url) of a gateway error body, tolerant of others."""
        data = self.json()
        if isinstance(data, dict):
            code = str(data.get("error") or f"http_{self.status}")
            message = str(data.get("message") or code.replace("_", " "))
            action = data.get("action_url")
            return code, message, str(action) if action else None
        return f"http_{self.status}", f"HTTP {self.status}", None


def segment(value: str) -> str:
    """One path segment, percent-encoded (so `a/b` cannot change the route)."""
    return quote(value, safe="")


class Client:
    def __init__(self, base_url: str, api_key: str | None, timeout: float) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CliError(f"SVC_BASE_URL {base_url!r} is not an http(s) URL")
        self.base_url = base_url
        self.host = parts.hostname
        self.port = parts.port
        self.https = parts.scheme == "https"
        self.prefix = parts.path.rstrip("/")
        if api_key is not None and not (
            api_key.isascii() and api_key.isprintable() and " " not in api_key
        ):
            raise CliError(
                "the API key contains spaces, control or non-ASCII characters: "
                "check SVC_API_KEY or run `svc login`",
                error="bad_api_key",
            )
        self.api_key = api_key
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None
        self._last_used = 0.0

    def _connection(self) -> http.client.HTTPConnection:
        # A connection idle longer than servers keep them (uvicorn: 5 s) may already be
        # closed on the other side; a POST on it could not be retried safely. Start afresh.
        if self._conn is not None and time.monotonic() - self._last_used > IDLE_REUSE_SECONDS:
            self.close()
        if self._conn is None:
            if self.https:
                self._conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout)
            else:
                self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __del__(self) -> None:
        # A kept-alive connection ends with its client (svc run in-process: main.run_in),
        # not only with the process. (__init__ may have refused the URL before _conn.)
        if getattr(self, "_conn", None) is not None:
            self.close()

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        auth: bool = True,
        raw: bytes | None = None,
        extra: dict[str, str] | None = None,
    ) -> Response:
        """Send one request (`body` as JSON, or `raw` JSON bytes as they are, with `extra`
        headers); network failures raise CliError(exit 2)."""
        headers = {"Accept": "application/json", "User-Agent": f"svc/{__version__}"}
        if auth and self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        payload = raw
        if body is not None:
            payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if payload is not None:
            headers["Content-Type"] = "application/json"
        headers.update(extra or {})
        reused = self._conn is not None
        try:
            return self._send(method, path, payload, headers)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.close()
            if not (reused and method == "GET"):
                raise self._network_error(ConnectionResetError()) from None
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise self._network_error(exc) from None
        # The server closed a kept-alive connection between two requests: once more.
        try:
            return self._send(method, path, payload, headers)
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise self._network_error(exc) from None

    def _send(
        self, method: str, path: str, payload: bytes | None, headers: dict[str, str]
    ) -> Response:
        conn = self._connection()
        conn.request(method, self.prefix + path, body=payload, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        self._last_used = time.monotonic()

        return Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)

    def _network_error(self, exc: BaseException) -> CliError:
        where = self.base_url
        if isinstance(exc, socket.gaierror):
            msg = f"cannot resolve {self.host!r}: check SVC_BASE_URL ({where}) and your network"
        elif isinstance(exc, ConnectionRefusedError):
            msg = f"cannot connect to {where}: is the gateway running? check SVC_BASE_URL"
        elif isinstance(exc, TimeoutError):
            msg = (
                f"{where} did not answer within {self.timeout:g} s: retry later "
                "or raise SVC_TIMEOUT"
            )
        elif isinstance(
            exc, ConnectionResetError | http.client.RemoteDisconnected | BrokenPipeError
        ):
            msg = f"the connection to {where} was closed before an answer: retry later"
        elif isinstance(exc, ssl.SSLError | ssl.CertificateError):
            msg = f"TLS error talking to {where} ({one_line(str(exc))}): check SVC_BASE_URL"
        elif isinstance(exc, http.client.HTTPException):
            msg = f"{where} sent an invalid HTTP answer ({type(exc).__name__}): retry later"
        else:
            detail = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            msg = f"cannot reach {where} ({detail}): check SVC_BASE_URL and your network"
        error = "timeout" if isinstance(exc, TimeoutError) else "network_error"
        return CliError(msg, ExitCode.UNAVAILABLE, error)


def gateway_error(resp: Response, context: str = "") -> CliError:
    """A refused request as one actionable line: 4xx exit 1 (401 with the login hint),
    5xx and anything else exit 2."""
    code, message, action = resp.error_fields()
    message = one_line(message).rstrip(".")
    prefix = f"{context}: " if context else ""
    if resp.status == 401 and code == "unauthorized":
        hint = "" if "svc login" in message else f": {LOGIN_HINT}"
        return CliError(f"{prefix}{message}{hint}", ExitCode.FAILURE, code)
    if action and action not in message:
        message += f" ({action})"
    if resp.status == 429:
        retry = resp.headers.get("retry-after")
        if retry:
            message += f": retry in {retry} s"
    if 400 <= resp.status < 500:
        return CliError(f"{prefix}{message}", ExitCode.FAILURE, code)
    request_id = resp.headers.get("x-request-id")
    suffix = f" (request id {request_id})" if request_id else ""
    return CliError(
        f"{prefix}the gateway failed: {message}{suffix}: retry later", ExitCode.UNAVAILABLE, code
    )


def expect_json(resp: Response, context: str = "") -> Any:
    """The JSON body of a 2xx answer, or the CliError that describes the refusal."""
    if not 200 <= resp.status < 300:
        raise gateway_error(resp, context)
    data = resp.json()
    if data is None:
        raise CliError(
            f"{context + ': ' if context else ''}the gateway answered "
            f"HTTP {resp.status} without JSON: check SVC_BASE_URL",
            ExitCode.UNAVAILABLE,
        )
    return data


def from_config(config: Config, *, require_key: bool = True) -> Client:
    """A client for the configured gateway; no key and `require_key` is exit 1."""
    key = config.require_key() if require_key else config.api_key
    return Client(config.base_url, key, config.timeout)
