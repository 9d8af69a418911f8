"""The approval flow in real Chromium against a real server process: a person writes a
key's policy on its page, the agent's call is held, the person reviews the exact request
on the approval page and approves it; the loopback provider receives it once.

Screenshots: test-artifacts/screenshots/28-*.png; with SKILLGATE_UPDATE_DOC_IMAGES=1 the
approval page's is also copied to docs/images/approval.png, the one docs/dashboard.md
shows."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import httpx
from playwright.async_api import Browser, expect

from tests.process import Server
from tests.skillgate.dashboard import test_browser as shared
from tests.skillgate.dashboard.test_browser import SHOTS, new_page, shot, sign_up
from tests.upstream import Provider, Reply

# The browser tests' module fixtures: Chromium, the loopback provider, the server process.
browser, upstream, server = shared.browser, shared.upstream, shared.server

pytestmark = shared.pytestmark
DOCS_IMAGE = Path(__file__).resolve().parents[3] / "docs" / "images" / "approval.png"
POLICY = """rules:
  - name: issues wait for me
    match: {integration: sample, endpoint: create_issue}
    action: approve
"""


async def test_a_person_approves_a_held_call_on_its_page(
    server: Server, browser: Browser, upstream: Provider
) -> None:
    upstream.reply("POST", "/repos/octo/site/issues", Reply(201, {"number": 42}))
    page = await new_page(browser)
    await sign_up(page, server, "approver@example.com")
    await page.fill("input[name=name]", "agent")
    await page.click("button:has-text('Create key')")
    full_key = await page.input_value("#full-key")
    auth = {"Authorization": f"Bearer {full_key}"}
    async with httpx.AsyncClient(base_url=server.url) as api:
        r = await api.put("/v1/connections/sample", json={"token": "good-token"}, headers=auth)
        assert r.status_code == 200, r.text

    await page.goto(server.url + "/keys")
    await page.click(".key-row a:has-text('Add policy')")
    await page.fill("textarea[name=policy]", POLICY)
    await shot(page, "28-key-policy")
    await page.click("button:has-text('Save policy')")
    await expect(page.locator(".flash.notice")).to_contain_text("policy was saved")
    await expect(page.locator(".key-row a:has-text('Edit policy')")).to_be_visible()

    upstream.clear()
    params = {"owner": "octo", "repo": "site", "title": "Publish the release notes"}
    async with httpx.AsyncClient(base_url=server.url) as api:
        r = await api.post("/v1/sample/create_issue", json={"params": params}, headers=auth)
    assert r.status_code == 202, r.text
    approval = r.json()["approval"]
    assert upstream.api_requests() == []

    await page.click("nav a:has-text('Approvals')")
    await expect(page.locator("main table")).to_contain_text("sample create_issue")
    await shot(page, "28-approvals-list")
    await page.click("a:has-text('Review')")
    await expect(page).to_have_url(re.compile(re.escape(approval["approve_url"]) + "$"))
    await expect(page.locator("#approval-state")).to_have_text("pending")
    request = page.locator("#approval-request")
    await expect(request).to_contain_text(f"POST {approval['request']['url']}")
    await expect(request).to_contain_text("Bearer [redacted]")
    await expect(request).to_contain_text('"title": "Publish the release notes"')
    await shot(page, "28-approval-pending")
    if os.environ.get("SKILLGATE_UPDATE_DOC_IMAGES"):  # refresh docs/images on demand
        shutil.copyfile(SHOTS / "28-approval-pending.png", DOCS_IMAGE)

    await page.click("button:has-text('Approve and send')")
    await expect(page.locator("#approval-state")).to_have_text("sent")
    await expect(page.locator("#approval-result")).to_contain_text('"number": 42')
    await shot(page, "28-approval-sent")
    [sent] = upstream.api_requests()
    assert sent.json() == {"title": "Publish the release notes"}
    # Decided: the page offers no decision any more; nothing is sent again.
    await page.goto(approval["approve_url"])
    await expect(page.locator("#approval-state")).to_have_text("sent")
    await expect(page.locator("button:has-text('Approve and send')")).to_have_count(0)
    assert len(upstream.api_requests()) == 1
    async with httpx.AsyncClient(base_url=server.url) as api:
        r = await api.post("/v1/sample/create_issue", json={"params": params}, headers=auth)
    assert r.json() == {"status": 201, "data": {"number": 42}}
    await page.context.close()
