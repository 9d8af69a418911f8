"""The server-rendered dashboard: sign-up and sign-in, API keys, integrations, device
approval and the activity log. Jinja2 templates, one CSS file, no JavaScript needed.

    shell.py      what every page shares (cookies, CSRF secret, sessions), built once by
                  the composition root and received as `shell: Shell`
    web.py        rendering, security headers, redirects, safe `next` URLs, form fields
    csrf.py       pre-session (signed double-submit) and session CSRF tokens
    viewer.py     who is signed in; the signed-in and CSRF-checked-form dependencies
    route.py      the route class that turns every error into an HTML page
    (signing in and up, throttled: skillgate.auth.signin, shared with POST /auth/login)

    account.py    /, /signup, /login, /logout
    keys.py       /keys
    integrations.py  /integrations, /integrations/{slug}
    device.py     /device
    activity.py   /activity
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).parent / "static"


def install(app: FastAPI) -> None:
    """Mount the dashboard's pages and its static files on `app`."""
    from skillgate.dashboard.router import router

    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
