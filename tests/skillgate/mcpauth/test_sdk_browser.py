"""End to end: the official MCP Python SDK's OAuth client (`OAuthClientProvider`)
against a real server process, with real Chromium (Playwright) as the user's browser
signing in and consenting. The client discovers everything from the 401 (RFC 9728,
RFC 8414), registers itself (RFC 7591), runs authorization code + PKCE with the
resource indicator, checks `iss` (RFC 9207), then calls the tools with its token.

Screenshots of the consent page and of the connected app land in
test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from playwright.async_api import Browser, Page, Route, async_playwright, expect

from tests import process
from tests.process import Server, fixture_env, serve
from tests.skillgate.dashboard.test_browser import (
    ARGS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    SHOTS,
    _layout,
    new_page,
    shot,
)  # fmt: skip
from tests.skillgate.doors.mcp.conftest import operator
from tests.upstream import Provider

PASSWORD = "password123"
EMAIL = "oauth@example.com"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not at /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, provider_server: Provider) -> Iterator[Server]:
    provider_server.reset()
    cwd = tmp_path_factory.mktemp("oauth-e2e")
    env = fixture_env(provider_server.url)
    operator(
        cwd,
        env,
        ["db", "upgrade"],
        ["users", "create", "--email", EMAIL, "--password", PASSWORD, "--plan", "pro"],
        ["connections", "set", "--email", EMAIL, "--integration", "sample",
         "--access-token", "good-token"],
    )  # fmt: skip
    with serve(cwd, env=env) as running:
        yield running


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        await chromium.close()


class Memory:
    """The SDK's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class User:
    """The person at the browser: signs in when asked, allows `sample` read-only (or,
    with `preset`, every integration under that policy)."""

    def __init__(
        self, page: Page, callback: str, name: str = "SDK e2e client", preset: str = ""
    ) -> None:
        self.page = page
        self.callback = callback
        self.name = name
        self.preset = preset
        self.back: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def start(self) -> None:
        async def arrived(route: Route) -> None:
            if not self.back.done():
                self.back.set_result(route.request.url)
            await route.fulfill(status=200, body="You can close this window.")

        await self.page.context.route(re.compile(re.escape(self.callback) + ".*"), arrived)

    async def authorize(self, url: str) -> None:
        page = self.page
        await page.goto(url)
        await expect(page).to_have_url(re.compile(r"/login\?next=%2Foauth%2Fconsent"))
        await page.fill("input[name=email]", EMAIL)
        await page.fill("input[name=password]", PASSWORD)
        await page.click("button:has-text('Sign in')")
        await expect(page.locator("h1")).to_contain_text("Allow")
        await expect(page.locator("dd.client-name")).to_have_text(self.name)
        await expect(page.locator(".redirect-host")).to_have_text(urlsplit(self.callback).netloc)
        if self.preset:
            await page.check("input[name=access][value=all]")
            await page.select_option("select[name=policy_preset]", self.preset)
            await shot(page, "oauth-04-consent-approval")
        else:
            await page.check("input[name=access][value=some]")
            await page.select_option("select[name=scope_sample]", "read")
            await shot(page, "oauth-01-consent")
        await page.click("button:has-text('Allow')")

    async def returned(self) -> AuthorizationCodeResult:
        url = await asyncio.wait_for(self.back, 30)
        # The page's own navigation to the callback ends before the test moves the page
        # on (a `goto` during it is "interrupted by another navigation").
        await expect(self.page).to_have_url(re.compile(re.escape(self.callback) + ".*"))
        await self.page.wait_for_load_state()
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        return AuthorizationCodeResult(code=query["code"], state=query.get("state"),
                                       iss=query.get("iss"))  # fmt: skip


@contextlib.asynccontextmanager
async def signed_in_client(
    server: Server, user: User, storage: Memory, metadata_url: str | None = None
) -> AsyncIterator[Client]:
    auth = OAuthClientProvider(
        server.url + "/mcp",
        OAuthClientMetadata(
            client_name=user.name,
            redirect_uris=[user.callback],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage,
        redirect_handler=user.authorize,
        callback_handler=user.returned,
        client_metadata_url=metadata_url,
    )
    async with (
        httpx2.AsyncClient(auth=auth, timeout=60) as http,
        Client(streamable_http_client(server.url + "/mcp", http_client=http)) as client,  # type: ignore[arg-type]
    ):
        yield client


async def test_the_sdk_client_signs_in_by_registration_and_calls_tools(
    server: Server, browser: Browser, provider_server: Provider
) -> None:
    page = await new_page(browser)
    user = User(page, f"http://127.0.0.1:{process.free_port()}/callback")
    await user.start()
    storage = Memory()
    async with signed_in_client(server, user, storage) as client:
        tools = await client.list_tools()
        assert "run_skill" in {t.name for t in tools.tools}
        provider_server.clear()
        read = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "get_user", "params": {"username": "octo"}},
        )
        assert read.is_error is False
        assert provider_server.api_requests()[-1].headers["authorization"] == "Bearer good-token"
        write = await client.call_tool(
            "run_skill",
            {"integration": "sample", "endpoint": "create_issue",
             "params": {"owner": "o", "repo": "r", "title": "t"}},
        )  # fmt: skip
        assert write.is_error is True  # the user allowed reading only
        assert "scope_not_allowed" in write.content[0].text  # type: ignore[union-attr]
    assert storage.tokens is not None
    assert storage.tokens.access_token.startswith("sgo_at_")
    assert storage.client is not None
    assert storage.client.client_id  # registered (RFC 7591)

    # The app is listed beside the API keys, with its last use, and revoking it ends it.
    await page.goto(server.url + "/keys")
    row = page.locator(".app-row")
    await expect(row).to_have_count(1)
    await expect(row.locator(".app-name")).to_have_text("SDK e2e client")
    await expect(row).to_contain_text("sample:read")
    await shot(page, "oauth-02-connected-app")
    await page.set_viewport_size(PHONE)  # the apps table fits a phone's card too
    await page.reload()
    measured = await _layout(page)
    assert measured["overflow"] == [], measured
    assert measured["pageWidth"] == measured["viewport"], measured
    await shot(page, "oauth-03-connected-app-390")
    await page.set_viewport_size(DESKTOP)
    await row.locator("button:has-text('Revoke')").click()
    await expect(page.locator(".app-row .badge.bad")).to_have_text("Revoked")
    async with httpx.AsyncClient() as plain:
        r = await plain.post(
            server.url + "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            headers={
                "Authorization": f"Bearer {storage.tokens.access_token}",
                "Accept": "application/json, text/event-stream",
            },
        )
    assert r.status_code == 401


ISSUE = {"integration": "sample", "endpoint": "create_issue",
         "params": {"owner": "o", "repo": "r", "title": "Held"}}  # fmt: skip


async def test_an_apps_policy_holds_its_writes_for_the_person_and_denies_by_rule(
    server: Server, browser: Browser, provider_server: Provider
) -> None:
    """Consent with "Changes wait for my approval": the SDK client's write is held, the
    person approves it on the Approvals page, the same call answers the sent result;
    then a deny rule written in the app's policy editor refuses the call."""
    page = await new_page(browser)
    user = User(page, f"http://127.0.0.1:{process.free_port()}/callback", "Held client",
                preset="approve_writes")  # fmt: skip
    await user.start()
    async with signed_in_client(server, user, Memory()) as client:
        provider_server.clear()
        held = await client.call_tool("run_skill_write", ISSUE)
        assert held.is_error is True
        body = held.structured_content
        assert body is not None, held
        assert body["error"] == "approval_pending"
        assert provider_server.api_requests() == []  # nothing sent while it waits
        approval = body["approval"]

        await page.goto(approval["approve_url"])
        await expect(page.locator("#approval-state")).to_have_text("pending")
        await expect(page.locator("#approval-request")).to_contain_text("/repos/o/r/issues")
        await shot(page, "oauth-05-app-approval")
        await page.click("button:has-text('Approve and send')")
        await expect(page.locator("#approval-state")).to_have_text("sent")
        sent = [(r.method, r.path) for r in provider_server.api_requests()]
        assert sent == [("POST", "/repos/o/r/issues")]
        outcome = await client.call_tool("run_skill_write", ISSUE)
        assert outcome.is_error is False, outcome
        assert len(provider_server.api_requests()) == 1  # the stored answer, once

        await page.goto(server.url + "/keys")
        row = page.locator(".app-row", has_text="Held client")
        await row.locator("a:has-text('Edit policy')").click()
        await expect(page.locator("#policy")).to_contain_text("changes wait for my approval")
        await page.fill(
            "#policy",
            "rules:\n  - name: no issues\n    match: {endpoint: create_issue}\n    action: deny\n",
        )
        await shot(page, "oauth-06-app-policy")
        await page.click("button:has-text('Save policy')")
        await expect(page.locator(".flash")).to_contain_text("The app's policy was saved")
        provider_server.clear()
        refused = await client.call_tool("run_skill_write", ISSUE)
        assert refused.is_error is True
        denied = refused.structured_content
        assert denied is not None, refused
        assert denied["error"] == "policy_denied"
        assert denied["rule"] == {"index": 1, "name": "no issues"}
        assert provider_server.api_requests() == []


# mcp-remote 0.15.1 and every package it needs, pinned by a lockfile (`npm ci`).
MCP_REMOTE = Path(__file__).with_name("mcp_remote")


@pytest.fixture(scope="module")
def mcp_remote(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed")
    prefix = tmp_path_factory.mktemp("mcp-remote")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(MCP_REMOTE / name, prefix / name)
    done = subprocess.run(
        [npm, "ci", "--prefix", str(prefix), "--no-audit", "--no-fund"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    entry = prefix / "node_modules/mcp-remote/dist/proxy.js"
    if done.returncode != 0 or not entry.exists():
        pytest.skip(f"npm ci could not install mcp-remote: {done.stderr.strip()[-300:]}")
    return [node, str(entry)]


async def _line(stream: asyncio.StreamReader, seconds: float = 30) -> bytes:
    return await asyncio.wait_for(stream.readline(), seconds)


async def _authorize_url(stderr: asyncio.StreamReader, seen: list[str]) -> str:
    while True:
        line = (await _line(stderr, 60)).decode()
        seen.append(line)
        if not line:
            raise AssertionError("mcp-remote stopped:\n" + "".join(seen))
        if "/oauth/authorize?" in line:
            return line.strip()


async def test_mcp_remote_signs_in_and_lists_tools(
    server: Server, browser: Browser, mcp_remote: list[str], tmp_path: Path
) -> None:
    """`npx mcp-remote {base_url}/mcp`: the stdio proxy that clients without remote
    support run. It discovers, registers, prints the authorization URL (no desktop
    here to open it), and Chromium signs in and allows; then a tools/list over its
    stdin is answered with the gateway's tools."""
    callback_port = process.free_port()
    env = {
        "PATH": str(Path(mcp_remote[0]).parent),  # node only: no desktop opener to find
        "HOME": str(tmp_path),
        "MCP_REMOTE_CONFIG_DIR": str(tmp_path / "auth"),
    }
    proc = await asyncio.create_subprocess_exec(
        *mcp_remote, server.url + "/mcp", str(callback_port), "--host", "127.0.0.1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        url = await _authorize_url(proc.stderr, seen)
        assert url.startswith(server.url + "/oauth/authorize?")
        page = await new_page(browser)
        await page.goto(url)
        await page.fill("input[name=email]", EMAIL)
        await page.fill("input[name=password]", PASSWORD)
        await page.click("button:has-text('Sign in')")
        await expect(page.locator("dd.client-name")).to_contain_text("MCP")
        await page.check("input[name=access][value=all]")
        await page.click("button:has-text('Allow')")
        await expect(page).to_have_url(re.compile(rf"127\.0\.0\.1:{callback_port}/"))
        messages = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "stdio-test", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        ]  # fmt: skip
        for message in messages:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        await proc.stdin.drain()
        answers: dict[int, dict[str, object]] = {}
        while 2 not in answers:
            line = await _line(proc.stdout, 60)
            assert line, "mcp-remote closed its stdout:\n" + "".join(seen)
            answer = json.loads(line)
            if "id" in answer:
                answers[answer["id"]] = answer
        result = answers[2]["result"]
        assert isinstance(result, dict)
        assert "run_skill" in {tool["name"] for tool in result["tools"]}
    finally:
        proc.terminate()
        await proc.wait()
