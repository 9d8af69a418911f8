"""Sign-up, sign-in and sign-out forms: CSRF before sign-in, session cookies, rotation,
server-side sign-out, throttling, one message for every failed sign-in, safe `next`."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from sqlalchemy import update

from skillgate.auth import throttle
from skillgate.auth.models import WebSession
from skillgate.auth.sessions import COOKIE_NAME
from skillgate.db.base import utcnow
from skillgate.db.session import commit
from skillgate.kit.ratecount import Window
from skillgate.users import passwords
from tests.conftest import PASSWORD, Harness
from tests.skillgate.dashboard.conftest import Web, csrf_of


def _cookie_header(r: httpx.Response, name: str) -> str:
    for value in r.headers.get_list("set-cookie"):
        if value.startswith(name + "="):
            return value
    raise AssertionError(f"no {name} cookie set")


async def _signed_in_as(harness: Harness, token: str) -> bool:
    """Does the server still accept this session id? (Asked from a separate client.)"""
    transport = httpx.ASGITransport(app=harness.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as probe:
        r = await probe.get("/keys", headers={"cookie": f"{COOKIE_NAME}={token}"})
    return r.status_code == 200


async def test_sign_up_signs_in_with_a_hardened_cookie(harness: Harness, web: Web) -> None:
    r = await web.signup("new@example.com")
    assert r.status_code == 303
    assert r.headers["location"] == "/keys?notice=welcome"
    cookie = _cookie_header(r, COOKIE_NAME).lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert "path=/" in cookie
    assert "secure" not in cookie  # plain http here; see the https test below
    page = await web.get("/keys?notice=welcome")
    assert page.status_code == 200
    assert "new@example.com" in page.text
    assert "Free plan" in page.text  # the plan badge
    assert "Your account is ready" in page.text


async def test_cookies_are_secure_over_https(harness: Harness) -> None:
    transport = httpx.ASGITransport(app=harness.app)
    async with httpx.AsyncClient(transport=transport, base_url="https://testserver") as client:
        first = await client.get("/signup")
        assert "secure" in _cookie_header(first, "sg_csrf").lower()
        r = await Web(client).signup("tls@example.com")
        assert r.status_code == 303
        assert "secure" in _cookie_header(r, COOKIE_NAME).lower()


@pytest.mark.parametrize("path", ["/signup", "/login"])
async def test_pre_session_forms_need_their_csrf_token(
    harness: Harness, web: Web, other_web: Web, path: str
) -> None:
    await harness.user("ada@example.com")
    fields = {"email": "ada@example.com", "password": PASSWORD, "password_confirm": PASSWORD}
    missing = await web.post(path, fields, csrf_from=None)
    assert missing.status_code == 403
    assert missing.headers["content-type"].startswith("text/html")
    assert "reload the page" in missing.text
    # A token minted for another browser's cookie is refused too.
    foreign = csrf_of((await other_web.get(path)).text)
    await web.get(path)  # this browser has its own cookie now
    stolen = await web.post(path, {**fields, "csrf_token": foreign}, csrf_from=None)
    assert stolen.status_code == 403
    assert web.session is None


async def test_duplicate_email_and_bad_input_are_explained(harness: Harness, web: Web) -> None:
    await harness.user("ada@example.com")
    dup = await web.signup("ADA@example.com")
    assert dup.status_code == 409
    assert "An account with this email already exists" in dup.text
    short = await web.signup("short@example.com", password="abc")
    assert short.status_code == 400
    assert "Password: use at least 8 characters." in short.text
    differ = await web.post(
        "/signup",
        {"email": "x@example.com", "password": PASSWORD, "password_confirm": PASSWORD + "x"},
        csrf_from="/signup",
    )
    assert differ.status_code == 400
    assert "The two passwords differ." in differ.text
    assert web.session is None


async def test_wrong_password_and_unknown_email_look_the_same(
    harness: Harness, web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    await harness.user("ada@example.com")
    hashes: list[str] = []
    real_verify = passwords._verify

    def spy(hash_: str, password: str) -> bool:
        hashes.append(hash_)
        return real_verify(hash_, password)

    monkeypatch.setattr(passwords, "_verify", spy)
    wrong = await web.login("ada@example.com", "not-the-password")
    unknown = await web.login("nobody@example.com", "not-the-password")
    assert wrong.status_code == unknown.status_code == 400
    message = "Email or password is incorrect."
    assert message in wrong.text
    assert message in unknown.text
    # Same page apart from the echoed email and the form token.
    strip = [
        (r.text.replace(email, "EMAIL").replace(csrf_of(r.text), "TOKEN"))
        for r, email in ((wrong, "ada@example.com"), (unknown, "nobody@example.com"))
    ]
    assert strip[0] == strip[1]
    # Same timing class: each ran exactly one argon2id verification.
    assert len(hashes) == 2
    assert all(h.startswith("$argon2id$") for h in hashes)


async def test_sign_in_rotates_the_session_and_sign_out_ends_it(harness: Harness, web: Web) -> None:
    await harness.user("ada@example.com")
    await harness.user("bob@example.com")
    # The sign-in form's token belongs to this browser's pre-session cookie; a signed-in
    # browser is sent past the form, so keep the token to sign in a second time.
    token = await web.csrf("/login")
    for email in ("ada@example.com", "bob@example.com"):
        form = {"email": email, "password": PASSWORD, "csrf_token": token}
        assert (await web.post("/login", form, csrf_from=None)).status_code == 303
        if email.startswith("ada"):
            first = web.session
    second = web.session
    assert second
    assert second != first
    assert not await _signed_in_as(harness, first)  # the old id is gone server-side
    page = await web.get("/keys")
    assert "bob@example.com" in page.text

    # Sign-out needs the CSRF token too; then the session is gone on the server.
    refused = await web.post("/logout", {}, csrf_from=None)
    assert refused.status_code == 403
    assert await _signed_in_as(harness, second)
    out = await web.post("/logout", {})
    assert out.status_code == 303
    assert out.headers["location"] == "/login?notice=signed_out"
    assert f'{COOKIE_NAME}=""' in _cookie_header(out, COOKIE_NAME)
    assert not await _signed_in_as(harness, second)


async def test_expired_sessions_are_refused(harness: Harness, signed_in: Web) -> None:
    token = signed_in.session
    assert token
    assert await _signed_in_as(harness, token)
    idle = harness.settings.session_idle_ttl
    async with harness.sessionmaker() as s:
        await s.execute(
            update(WebSession).values(last_seen_at=utcnow() - timedelta(seconds=idle + 5))
        )
        await commit(s)
    r = await signed_in.get("/keys")
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=%2Fkeys"


@pytest.mark.parametrize(
    ("next_path", "lands_on"),
    [
        ("/device?user_code=BCDF-GHJK", "/device?user_code=BCDF-GHJK"),
        ("/integrations/sample", "/integrations/sample"),
        ("https://evil.example/phish", "/keys"),
        ("//evil.example/phish", "/keys"),
        ("/\\evil.example", "/keys"),
        ("javascript:alert(1)", "/keys"),
        ("", "/keys"),
    ],
)
async def test_next_only_goes_to_this_site(
    harness: Harness, web: Web, next_path: str, lands_on: str
) -> None:
    await harness.user("ada@example.com")
    r = await web.login("ada@example.com", next_path=next_path)
    assert r.status_code == 303
    assert r.headers["location"] == lands_on
    form = await web.client.get("/login", params={"next": next_path})
    # Signed in now: the sign-in page forwards, with the same rule.
    assert form.headers["location"] == lands_on


async def test_a_next_with_a_line_break_is_refused(harness: Harness, web: Web) -> None:
    """Control characters in any form field are a 400 naming it (issue 11): the sign-in
    page never puts one in its `next` field, so only a forged form carries one."""
    await harness.user("ada@example.com")
    r = await web.login("ada@example.com", next_path="/keys\r\nSet-Cookie: x=1")
    assert r.status_code == 400
    assert "next: must not contain control characters" in r.text
    assert "x" not in web.client.cookies
    page = await web.get("/login", params={"next": "/keys\r\nSet-Cookie: x=1"})
    assert 'name="next" value=""' in page.text


async def test_sign_in_page_keeps_only_a_safe_next(harness: Harness, web: Web) -> None:
    page = await web.get("/login", params={"next": "//evil.example"})
    assert 'name="next" value=""' in page.text
    page = await web.get("/login", params={"next": "/device?user_code=BCDF-GHJK"})
    assert 'name="next" value="/device?user_code=BCDF-GHJK"' in page.text


async def test_sign_in_is_throttled_per_account_then_per_ip(
    harness: Harness, web: Web, monkeypatch: pytest.MonkeyPatch, steady_clock: float
) -> None:
    await harness.user("ada@example.com")
    limit = throttle.SIGN_IN_PER_ACCOUNT.limit
    for _ in range(limit):
        r = await web.login("ada@example.com", "wrong-password")
        assert r.status_code == 400
    locked = await web.login("ada@example.com")  # even the right password
    assert locked.status_code == 429
    assert int(locked.headers["retry-after"]) > 0
    assert "Too many sign-in attempts" in locked.text
    assert web.session is None
    # An unknown account is throttled the same way (no hint that it does not exist).
    for _ in range(limit):
        await web.login("ghost@example.com", "wrong-password")
    assert (await web.login("ghost@example.com", "x" * 9)).status_code == 429

    # Per IP: many accounts from one address.
    monkeypatch.setattr(throttle, "SIGN_IN_PER_IP", Window("signin:ip2", 3, 900))
    await harness.user("bob@example.com")
    for n in range(3):
        await web.login(f"user{n}@example.com", "wrong-password")
    assert (await web.login("bob@example.com")).status_code == 429


async def test_sign_up_is_throttled_per_ip(
    harness: Harness, web: Web, monkeypatch: pytest.MonkeyPatch, steady_clock: float
) -> None:
    monkeypatch.setattr(throttle, "SIGN_UP_PER_IP", Window("signup:ip2", 2, 3600))
    for n in range(2):
        assert (await web.signup(f"u{n}@example.com")).status_code == 303
        web.client.cookies.clear()  # signed out again: the sign-up form shows
    r = await web.signup("u9@example.com")
    assert r.status_code == 429
    assert "Too many sign-ups" in r.text


async def test_home_redirects_by_sign_in_state(harness: Harness, web: Web) -> None:
    r = await web.get("/")
    assert (r.status_code, r.headers["location"]) == (303, "/login")
    await web.signup("ada@example.com")
    r = await web.get("/")
    assert (r.status_code, r.headers["location"]) == (303, "/keys")
    assert (await web.get("/login")).headers["location"] == "/keys"
    assert (await web.get("/signup")).headers["location"] == "/keys"


async def test_sign_up_keeps_a_safe_next(harness: Harness, web: Web) -> None:
    login = await web.get("/login", params={"next": "/device?user_code=BCDF-GHJK"})
    assert 'href="/signup?next=/device%3Fuser_code%3DBCDF-GHJK"' in login.text
    form = await web.get("/signup", params={"next": "/device?user_code=BCDF-GHJK"})
    assert 'name="next" value="/device?user_code=BCDF-GHJK"' in form.text
    fields = {"email": "new@example.com", "password": PASSWORD, "password_confirm": PASSWORD}
    r = await web.post(
        "/signup", {**fields, "next": "/device?user_code=BCDF-GHJK"}, csrf_from="/signup"
    )
    assert r.headers["location"] == "/device?user_code=BCDF-GHJK"
    web.client.cookies.clear()
    r = await web.post(
        "/signup",
        {**fields, "email": "two@example.com", "next": "//evil.example"},
        csrf_from="/signup",
    )
    assert r.headers["location"] == "/keys?notice=welcome"
