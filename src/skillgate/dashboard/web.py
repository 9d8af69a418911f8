"""Rendering and the HTTP details every dashboard page shares.

Every page is sent with `Cache-Control: no-store` (pages are personal, and the
key-creation page holds a secret), a strict Content-Security-Policy (scripts
and styles from this origin only, no framing) and `Referrer-Policy: same-origin`
(a `?user_code=` or `?request=` never leaves the site in a Referer). Cookies are
set by the shell (`dashboard.shell`), which knows whether they must be Secure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from skillgate.kit import text
from skillgate.users.plans import PlanLimits

TEMPLATES_DIR = Path(__file__).parent / "templates"

SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'"
    ),
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

# Short notices shown after a redirect, chosen by a code in the query string so
# no text from a URL is ever echoed as a notice.
NOTICES = {
    "welcome": "Your account is ready. Create an API key to get started.",
    "signed_out": "You are signed out.",
    "key_revoked": "The API key was revoked. Anything using it now gets 401.",
    "key_confirm": "The key's confirmation setting was saved.",
    "app_revoked": "The app's access was revoked. Its tokens now get 401.",
    "key_policy": "The key's policy was saved; it applies to its next call.",
    "key_policy_removed": "The key's policy was removed: it may make every call in its scopes.",
    "app_policy": "The app's policy was saved; it applies to its next call.",
    "app_policy_removed": "The app's policy was removed: it may make every call in its scopes.",
    "disconnected": "Disconnected. Agents can no longer call it for you.",
    "connected": "Connected. Agents with a key in scope can call it now.",
}


def _when(value: datetime | None) -> str:
    if value is None:
        return "—"
    return value.strftime("%Y-%m-%d %H:%M UTC")


# Catalog help texts are Markdown (`code`, [links](...), *emphasis*); raw HTML in them is
# shown as text, never rendered.
_MARKDOWN = MarkdownIt("commonmark", {"html": False})


def _markdown(text: str | None) -> Markup:
    """One paragraph of Markdown as inline HTML; a bare https:// address becomes a link."""
    html = _MARKDOWN.renderInline(text or "")
    # Safe: markdown-it escapes all text (html off), and an address never holds <>"'.
    return Markup(_BARE_URL.sub(r'\1<a href="\2" rel="noopener noreferrer">\2</a>', html))  # noqa: S704


# An address not already inside a tag or a link's text (after a space, a parenthesis or
# the start), up to the first space, quote or angle bracket; a closing period is left out.
_BARE_URL = re.compile(r'(^|[\s(])(https://[^\s<>"\']+?)(?=[.,;:)]?(?:\s|$|<))')


def _when_tokens(value: datetime | None) -> Markup:
    """`_when` for a table cell: the date and the time are each kept on one line (a
    narrow column breaks between them, never inside one)."""
    if value is None:
        return Markup('<span class="token">—</span>')
    return Markup(
        '<span class="when"><span class="token">{}</span> <span class="token">{}</span></span>'
    ).format(value.strftime("%Y-%m-%d"), value.strftime("%H:%M UTC"))


def _build_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = _when
    env.filters["markdown"] = _markdown
    env.filters["when_tokens"] = _when_tokens
    return env


ENV = _build_env()


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any] | None = None,
    *,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The page, with the layout's defaults (no viewer, no notice, no error) filled in."""
    values: dict[str, Any] = {
        "viewer": None,
        "limits": None,
        "nav": "",
        "notice": NOTICES.get(request.query_params.get("notice", "")),
        "error": None,
    }
    values.update(context or {})
    if values["limits"] is not None:
        values["plan_summary"] = plan_summary(values["limits"])
    html = ENV.get_template(template).render(values)
    response = HTMLResponse(html, status_code=status)
    response.headers.update(SECURITY_HEADERS)
    if headers:
        response.headers.update(headers)
    return response


def redirect(path: str, **query: str) -> RedirectResponse:
    """A 303 to a path of this site (the browser follows it with a GET)."""
    target = path + ("?" + urlencode(query) if query else "")
    response = RedirectResponse(target, status_code=303)
    response.headers["Cache-Control"] = "no-store"
    return response


def safe_next(value: str | None) -> str | None:
    """`value` when it is a path on this site (`/device?user_code=...`); None otherwise.

    Refuses absolute URLs, scheme-relative `//host`, backslashes (`/\\host`, which
    browsers treat as `//host`) and control characters: no open redirect.
    """
    if not value or len(value) > 2000 or not value.startswith("/"):
        return None
    if value.startswith("//") or "\\" in value or any(ord(c) < 0x21 for c in value):
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:
        return None
    return value


def field(form: FormData, name: str, *, secret: bool = False) -> str:
    """A text field of a submitted form ("" when absent or a file); services check lengths.
    400 naming the field when it holds a control character (a `secret`: NUL)."""
    value = form.get(name)
    return text.check(name, value, secret=secret) if isinstance(value, str) else ""


def sentence(message: str) -> str:
    """A service message as a sentence: `password: use ...` -> `Password: use ...`."""
    return message[:1].upper() + message[1:]


def plan_summary(limits: PlanLimits) -> str:
    """`1 active API key · 30 calls a minute · 10,000 calls a day` (None: no limit)."""

    def count(value: int | None, one: str, many: str) -> str:
        if value is None:
            return f"unlimited {many}"
        return f"{value:,} {one if value == 1 else many}"

    return " · ".join(
        (
            count(limits.max_active_keys, "active API key", "active API keys"),
            count(limits.requests_per_minute, "call a minute", "calls a minute"),
            count(limits.requests_per_day, "call a day", "calls a day"),
        )
    )
