"""The dashboard in real Chromium (Debian's, through Playwright) against a real server
process, with the loopback provider playing the `sample` integration.

Screenshots of every page land in test-artifacts/screenshots/ (git-ignored) for a
person to look at. Skipped only when /usr/bin/chromium is missing (install it with
tests/browser_setup.sh, which `make test` runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, Page, async_playwright, expect

from tests import process
from tests.conftest import FIXTURES, PASSWORD
from tests.process import BIN, Server, clean_env, serve
from tests.upstream import Provider

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Chromium is not installed at /usr/bin/chromium: run tests/browser_setup.sh "
        "as root (apt-get install -y chromium)",
    ),
]


@pytest.fixture(scope="module")
def upstream() -> Iterator[Provider]:
    provider = Provider()
    provider.start()
    yield provider
    provider.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, upstream: Provider) -> Iterator[Server]:
    cwd = tmp_path_factory.mktemp("dashboard-server")
    port = process.free_port()
    env = clean_env(
        SKILLGATE_BASE_URL=f"http://127.0.0.1:{port}",  # the verification URI's address
        SKILLGATE_SAMPLE_BASE_URL=upstream.url,
        SKILLGATE_CATALOG_PATH=str(FIXTURES / "catalog"),
        SKILLGATE_LOG_LEVEL="WARNING",
    )
    with contextlib.ExitStack() as stack:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(process, "free_port", lambda: port)  # serve() on the address above
            running = stack.enter_context(serve(cwd, env))
        yield running


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        await chromium.close()


async def shot(page: Page, name: str) -> None:
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


async def new_page(browser: Browser, *, phone: bool = False) -> Page:
    context = await browser.new_context(viewport=PHONE if phone else DESKTOP)
    context.set_default_timeout(15_000)
    return await context.new_page()


async def sign_up(page: Page, server: Server, email: str) -> None:
    await page.goto(server.url + "/signup")
    await page.fill("input[name=email]", email)
    await page.fill("input[name=password]", PASSWORD)
    await page.fill("input[name=password_confirm]", PASSWORD)
    await page.click("button:has-text('Create account')")
    await expect(page).to_have_url(re.compile(r"/keys\?notice=welcome$"))


async def test_sign_up_create_a_key_see_it_once_revoke_it(server: Server, browser: Browser) -> None:
    page = await new_page(browser)
    await page.goto(server.url + "/")
    await expect(page).to_have_url(re.compile(r"/login$"))
    await shot(page, "01-login")
    await page.click("a:has-text('Sign up')")
    await shot(page, "02-signup")
    await sign_up(page, server, "keys@example.com")
    await expect(page.locator(".badge.plan").first).to_have_text("Free plan")
    await expect(page.locator(".quota")).to_contain_text("0 of 1")
    await shot(page, "03-keys-empty")

    await page.fill("input[name=name]", "laptop")
    await page.click("button:has-text('Create key')")
    await expect(page.locator("h1")).to_have_text("Your new API key")
    full_key = await page.input_value("#full-key")
    assert re.fullmatch(r"sk_[A-Za-z0-9]{36}", full_key)
    await expect(page.locator("button[data-copy]")).to_be_visible()  # the optional script ran
    await shot(page, "04-key-created")
    async with httpx.AsyncClient(base_url=server.url) as api:
        me = await api.get("/v1/me", headers={"Authorization": f"Bearer {full_key}"})
        assert me.status_code == 200

    await page.click("a:has-text('Done, back to my keys')")
    await expect(page.locator(".key-row")).to_have_count(1)
    assert full_key not in await page.content()
    await page.reload()
    assert full_key not in await page.content()
    await expect(page.locator(".quota")).to_contain_text("1 of 1")
    await shot(page, "05-keys-one-key")
    await page.set_viewport_size(PHONE)
    await shot(page, "06-keys-phone")
    await page.set_viewport_size(DESKTOP)

    # Which calls of the key need confirmation: destructive by default, changed here.
    policy = page.locator(".key-row select[name=confirm]")
    await expect(policy).to_have_value("destructive")
    await policy.select_option("writes")
    await page.click(".key-row button:has-text('Save')")
    await expect(page.locator(".flash.notice")).to_contain_text("confirmation setting was saved")
    await expect(page.locator(".key-row select[name=confirm]")).to_have_value("writes")
    await shot(page, "06b-key-confirm-policy")
    async with httpx.AsyncClient(base_url=server.url) as api:
        keys = await api.get("/api-keys", headers={"Authorization": f"Bearer {full_key}"})
        assert [k["confirm"] for k in keys.json()] == ["writes"]

    await page.click(".key-row a:has-text('Revoke')")
    await expect(page.locator("h1")).to_have_text("Revoke this key?")
    await shot(page, "07-key-revoke-confirm")
    await page.click("button:has-text('Revoke key')")
    await expect(page.locator(".flash.notice")).to_contain_text("revoked")
    await expect(page.locator(".key-row .badge.bad")).to_contain_text("Revoked")
    await shot(page, "08-keys-revoked")
    async with httpx.AsyncClient(base_url=server.url) as api:
        me = await api.get("/v1/me", headers={"Authorization": f"Bearer {full_key}"})
        assert me.status_code == 401

    await page.goto(server.url + "/logout")
    await shot(page, "09-sign-out")
    await page.click("main button:has-text('Sign out')")
    await expect(page.locator(".flash.notice")).to_have_text("You are signed out.")
    await page.goto(server.url + "/keys")
    await expect(page).to_have_url(re.compile(r"/login\?next=%2Fkeys$"))
    await page.context.close()


async def test_connect_by_token_shows_connected_in_page_and_api(
    server: Server, browser: Browser
) -> None:
    page = await new_page(browser)
    await sign_up(page, server, "connect@example.com")
    await page.fill("input[name=name]", "agent")
    await page.click("button:has-text('Create key')")
    full_key = await page.input_value("#full-key")

    await page.click("nav a:has-text('Integrations')")
    await expect(page.locator("[data-slug=sample] .status")).to_have_text("Not connected")
    await shot(page, "10-integrations")
    await page.click("[data-slug=sample] a.button")
    await expect(page.locator("#status")).to_have_text("Not connected")
    await shot(page, "11-integration-token-form")
    await page.fill("input[name=token]", "wrong-token")
    await page.click("button:has-text('Connect')")
    await expect(page.locator(".flash.alert")).to_contain_text("did not accept this token")
    await shot(page, "12-integration-token-refused")
    await page.fill("input[name=token]", "good-token")
    await page.click("button:has-text('Connect')")
    await expect(page.locator("#status")).to_have_text("Connected")
    await expect(page.locator(".flash.notice")).to_contain_text("Sample is connected.")
    await shot(page, "13-integration-connected")

    async with httpx.AsyncClient(base_url=server.url) as api:
        auth = {"Authorization": f"Bearer {full_key}"}
        skills = (await api.get("/v1/skills", headers=auth)).json()
        assert {i["slug"]: i["status"] for i in skills["integrations"]}["sample"] == "connected"
        ran = await api.post(
            "/v1/sample/get_user", json={"params": {"username": "x"}}, headers=auth
        )
        assert ran.json()["status"] == 200
        await api.post("/v1/oauthy/get_thing", json={"params": {"thing_id": "t"}}, headers=auth)

    await page.goto(server.url + "/integrations")
    await expect(page.locator("[data-slug=sample] .status")).to_have_text("Connected")
    await page.set_viewport_size(PHONE)
    await shot(page, "14-integrations-phone")
    await page.set_viewport_size(DESKTOP)
    await page.goto(server.url + "/integrations/oauthy")
    await shot(page, "15-integration-oauth-not-configured")
    blocked: list[str] = []  # CSP violations are reported on the console
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    await page.goto(server.url + "/activity")
    await expect(page.locator("table.activity tbody tr")).to_have_count(2)
    chart = page.locator("svg.activity-chart")
    await expect(chart).to_be_visible()
    await expect(chart).to_have_attribute("data-total", "2")
    await expect(chart.locator("rect.segment")).to_have_count(2)  # sample ok, oauthy failed
    await expect(chart.locator("rect.failed-hatch")).to_have_count(1)
    box = await chart.bounding_box()
    assert box is not None
    assert box["width"] > 600, box
    assert box["height"] > 150, box
    bar = await chart.locator("rect.segment").first.bounding_box()
    assert bar is not None
    assert bar["height"] > 20, bar
    assert bar["width"] > 10, bar
    await expect(page.locator(".chart-legend li")).to_have_count(3)  # 2 integrations, hatched
    await shot(page, "16-activity")
    await page.select_option("select[name=outcome]", "error")
    await page.click("button:has-text('Filter')")
    await expect(page.locator("table.activity tbody tr")).to_have_count(1)
    await expect(chart).to_have_attribute("data-total", "1")
    await shot(page, "17-activity-filtered")
    await page.set_viewport_size(PHONE)
    assert (await chart.bounding_box() or {}).get("width", 0) > 0
    page_width = await page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= PHONE["width"]  # the chart scrolls inside its card, not the page
    await shot(page, "18-activity-phone")
    assert blocked == []
    await page.goto(server.url + "/integrations/nope")
    await shot(page, "19-error-not-found")
    await page.context.close()


async def _read_code(stderr: asyncio.StreamReader) -> tuple[str, str]:
    """The user code and the complete verification URI `svc login` prints."""
    seen = ""
    while True:
        line = (await stderr.readline()).decode()
        if not line:
            raise AssertionError(f"svc login printed no code: {seen}")
        seen += line
        found = re.search(r"open (\S+) with the code filled in", seen)
        code = re.search(r"enter the code ([A-Z]{4}-[A-Z]{4})", seen)
        if found and code:
            return code.group(1), found.group(1)


async def test_device_flow_end_to_end_with_svc_login(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    signup = await new_page(browser)
    await sign_up(signup, server, "device@example.com")
    await signup.context.close()

    env = clean_env(SVC_BASE_URL=server.url, SVC_NO_BROWSER="1", HOME=str(tmp_path))
    cli = await asyncio.create_subprocess_exec(
        str(BIN / "svc"),
        "login",
        cwd=tmp_path,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert cli.stderr is not None
        user_code, uri = await asyncio.wait_for(_read_code(cli.stderr), 30)
        assert uri == f"{server.url}/device?user_code={user_code}"

        page = await new_page(browser, phone=True)  # the code is often typed on a phone
        await page.goto(uri)
        await expect(page).to_have_url(re.compile(r"/login\?next="))
        await shot(page, "20-device-sign-in-phone")
        await page.fill("input[name=email]", "device@example.com")
        await page.fill("input[name=password]", PASSWORD)
        await page.click("main button:has-text('Sign in')")
        await expect(page).to_have_url(f"{server.url}/device?user_code={user_code}")
        await expect(page.locator("input[name=user_code]")).to_have_value(user_code)
        await shot(page, "21-device-enter-code-phone")
        await page.set_viewport_size(DESKTOP)
        await shot(page, "22-device-enter-code")
        await page.click("button:has-text('Continue')")
        await expect(page.locator("h1")).to_have_text("Approve this sign-in?")
        await expect(page.locator(".client-name")).to_contain_text("svc on ")
        await expect(page.locator(".flash.warn")).to_contain_text("Only approve a sign-in you")
        await expect(page.locator("input[name=create_key]")).to_be_checked()
        await shot(page, "23-device-confirm")
        await page.click("button:has-text('Approve')")
        await expect(page.locator("h1")).to_have_text("Device approved")
        await shot(page, "24-device-approved")

        out, err = await asyncio.wait_for(cli.communicate(), 60)
        assert cli.returncode == 0, err.decode()
        assert b'"email": "device@example.com"' in out or b"device@example.com" in out
        env_file = (tmp_path / ".env").read_text()
        key = re.search(r"^SVC_API_KEY=(sk_[A-Za-z0-9]+)$", env_file, re.M)
        assert key, env_file
        async with httpx.AsyncClient(base_url=server.url) as api:
            me = await api.get("/v1/me", headers={"Authorization": f"Bearer {key.group(1)}"})
            assert me.json()["email"] == "device@example.com"
        await page.goto(server.url + "/keys")
        await expect(page.locator(".key-row")).to_have_count(1)
        await expect(page.locator(".key-name")).to_contain_text("Device: svc on ")
        await page.context.close()
    finally:
        if cli.returncode is None:
            cli.kill()
            await cli.wait()


# What a layout check measures in the page (issue 23.10): whether each table stays inside
# its card and whether a token (a key prefix, an endpoint name, a date) is on one line.
_LAYOUT = """() => {
  const out = {overflow: [], wrapped: [], pageWidth: document.documentElement.scrollWidth,
               viewport: window.innerWidth};
  for (const table of document.querySelectorAll('table.table')) {
    const card = table.closest('.card').getBoundingClientRect();
    const box = table.getBoundingClientRect();
    if (box.left < card.left - 0.5 || box.right > card.right + 0.5) {
      out.overflow.push([table.className, box.right, card.right]);
    }
    for (const cell of table.querySelectorAll('td')) {
      const r = cell.getBoundingClientRect();
      if (r.right > card.right + 0.5) out.overflow.push([cell.dataset.label, r.right, card.right]);
    }
  }
  for (const token of document.querySelectorAll('table .token, table code')) {
    const range = document.createRange();
    range.selectNodeContents(token);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) out.wrapped.push(token.textContent);
  }
  return out;
}"""


async def _layout(page: Page) -> dict[str, object]:
    measured: dict[str, object] = await page.evaluate(_LAYOUT)
    return measured


async def test_keys_and_activity_fit_their_cards_at_1280_and_390_px(
    server: Server, browser: Browser, upstream: Provider
) -> None:
    """Screenshots at 1280 px and 390 px (test-artifacts/screenshots/23-*): the tables stay
    inside their cards, tokens never wrap, a dry run has a neutral badge, the
    per-integration selects hide while "Every integration" is chosen, token help is
    rendered Markdown."""
    page = await new_page(browser)
    await sign_up(page, server, "layout@example.com")
    picker = page.locator(".scope-picker")
    await page.check("input[name=access][value=all]")
    await expect(picker).to_be_hidden()
    await shot(page, "23-keys-create-every-integration")
    await page.check("input[name=access][value=some]")
    await expect(picker).to_be_visible()
    choices = await picker.locator("label.scope").count()
    assert choices > 1
    await expect(picker.locator("select")).to_have_count(choices)  # one per integration

    async with httpx.AsyncClient(base_url=server.url) as api:
        login = await api.post("/auth/login", json={"email": "layout@example.com",
                                                    "password": PASSWORD})  # fmt: skip
        token = {"Authorization": f"Bearer {login.json()['access_token']}"}
        first = await api.post("/api-keys", json={"name": "an old laptop"}, headers=token)
        await api.delete(f"/api-keys/{first.json()['api_key']['id']}", headers=token)
        made = await api.post(
            "/api-keys", headers=token,
            json={"name": "continuous integration runner for the monorepo",
                  "scopes": ["sample:read", "oauthy"], "expires_at": "2027-06-30T00:00:00Z"},
        )  # fmt: skip
        key = {"Authorization": f"Bearer {made.json()['full_key']}"}
        connected = await api.put("/v1/connections/sample", json={"token": "good-token"},
                                  headers=token)  # fmt: skip
        assert connected.status_code == 200, connected.text
        for dry in (True, False):
            body = {"params": {"username": "octocat"}, "dry_run": dry}
            ran = await api.post("/v1/sample/get_user", headers=key, json=body)
            assert ran.status_code == 200, ran.text
    await asyncio.sleep(0.6)  # the execution log writes in batches (every 0.25 s)
    for viewport, name in ((DESKTOP, "1280"), (PHONE, "390")):
        await page.set_viewport_size(viewport)
        for path in ("/keys", "/activity"):
            await page.goto(server.url + path)
            await shot(page, f"23-{path.strip('/')}-{name}")
            measured = await _layout(page)
            assert measured["overflow"] == [], (path, name, measured)
            assert measured["wrapped"] == [], (path, name, measured)
            assert measured["pageWidth"] == measured["viewport"], (path, name, measured)
    rows = page.locator("table.activity tbody tr")
    await expect(rows).to_have_count(2)
    await expect(page.locator("tr.dry-run .badge.neutral")).to_have_text("Dry run")
    await expect(page.locator("tr.dry-run .badge.bad")).to_have_count(0)

    await page.goto(server.url + "/integrations/sample")
    help_text = page.locator("form[action$='/token'] .hint")
    await expect(help_text.locator("code")).to_have_text("read")
    await expect(help_text.locator("a[href='https://sample.test/docs']")).to_have_text("the guide")
    assert "`" not in await help_text.inner_text()
    assert "<b>" in await help_text.inner_text()  # raw HTML in a help text is shown, not run
    await shot(page, "23-integration-token-help")
    await page.context.close()
