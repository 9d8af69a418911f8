"""CSRF tokens for every state-changing form.

Signed in: the form carries the session's `csrf_token` (stored with the session,
new at every sign-in), compared in constant time. A token of another session is
refused like a missing one.

Before sign-in (the sign-up and sign-in forms): a signed double submit. A random
nonce lives in the `sg_csrf` cookie (HttpOnly, SameSite=Lax); the form carries
HMAC(secret, nonce). Another site can neither read the cookie nor compute the
HMAC, so it cannot make a browser sign in or sign up as someone else.

Beside the token, both checks refuse a request the browser marks as sent from
another site or a sibling subdomain (`Sec-Fetch-Site: cross-site` or `same-site`,
`kit.origins.check_fetch_site`); a browser that sends no such header still needs
the token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from skillgate.dashboard import web
from skillgate.dashboard.shell import DashboardShell
from skillgate.errors import CsrfFailed
from skillgate.kit.origins import check_fetch_site

PRE_SESSION_COOKIE = "sg_csrf"
FIELD = "csrf_token"
_NONCE_BYTES = 24
_MAX_NONCE_LENGTH = 64


def _sign(secret: str, nonce: str) -> str:
    mac = hmac.new(secret.encode(), b"sg-pre-session-csrf|" + nonce.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def _nonce(request: Request) -> str | None:
    value = request.cookies.get(PRE_SESSION_COOKIE, "")
    return value if 16 <= len(value) <= _MAX_NONCE_LENGTH else None


def pre_session_token(shell: DashboardShell, request: Request) -> tuple[str, str | None]:
    """The token for a pre-sign-in form, and a new cookie nonce to set (or None)."""
    nonce = _nonce(request)
    if nonce is not None:
        return _sign(shell.csrf_secret, nonce), None
    nonce = secrets.token_urlsafe(_NONCE_BYTES)
    return _sign(shell.csrf_secret, nonce), nonce


def remember_nonce(
    shell: DashboardShell, request: Request, response: Response, nonce: str | None
) -> None:
    if nonce is not None:
        shell.set_cookie(request, response, PRE_SESSION_COOKIE, nonce, max_age=None)


def _same(sent: str, expected: str) -> bool:
    return bool(sent) and hmac.compare_digest(sent.encode(), expected.encode())


def check_pre_session(shell: DashboardShell, request: Request, form: FormData) -> None:
    check_fetch_site(request.headers.get("sec-fetch-site"))
    nonce = _nonce(request)
    if nonce is None or not _same(web.field(form, FIELD), _sign(shell.csrf_secret, nonce)):
        raise CsrfFailed()


def check_session(request: Request, form: FormData, session_csrf: str) -> None:
    check_fetch_site(request.headers.get("sec-fetch-site"))
    if not _same(web.field(form, FIELD), session_csrf):
        raise CsrfFailed()
