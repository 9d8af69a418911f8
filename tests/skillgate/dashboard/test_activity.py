"""The activity page: the viewer's own executions, filtered by integration and outcome,
paginated, never another user's."""

from __future__ import annotations

import re

import orjson
import pytest

from skillgate.dashboard import activity
from tests.conftest import Harness
from tests.skillgate.dashboard.conftest import Web, full_key_of
from tests.upstream import Provider, Reply

pytestmark = pytest.mark.usefixtures("provider")


async def _calls(harness: Harness, web: Web, provider: Provider) -> str:
    key = full_key_of((await web.create_key("agent")).text)
    await web.post("/integrations/sample/token", {"token": "good-token"})
    provider.reply("GET", "/users/missing", Reply(404, {"message": "Not Found"}))
    assert (await harness.run(key, "sample", "get_user", username="octocat")).status_code == 200
    assert (await harness.run(key, "sample", "get_user", username="missing")).status_code == 200
    assert (await harness.run(key, "oauthy", "get_thing", thing_id="t1")).status_code == 403
    return key


def _rows(page: str) -> list[str]:
    return re.findall(r'<td data-label="Result"><span class="badge \w+">([^<]+)<', page)


async def test_activity_lists_and_filters(
    harness: Harness, signed_in: Web, other_web: Web, provider: Provider
) -> None:
    empty = await signed_in.get("/activity")
    assert "No calls yet" in empty.text
    await _calls(harness, signed_in, provider)
    page = await signed_in.get("/activity")
    assert page.status_code == 200
    rows = _rows(page.text)
    assert rows[1:] == ["HTTP 404", "HTTP 200"], rows
    assert rows[0].startswith("integration_not_connected"), rows
    assert "agent (" in page.text  # the key's name
    only_sample = await signed_in.get("/activity", params={"integration": "sample"})
    assert _rows(only_sample.text) == ["HTTP 404", "HTTP 200"]
    failed = await signed_in.get("/activity", params={"outcome": "error"})
    assert len(_rows(failed.text)) == 2
    assert "HTTP 200" not in _rows(failed.text)
    ok = await signed_in.get("/activity", params={"outcome": "success", "integration": "sample"})
    assert _rows(ok.text) == ["HTTP 200"]
    nothing = await signed_in.get(
        "/activity", params={"integration": "oauthy", "outcome": "success"}
    )
    assert "Nothing matches these filters" in nothing.text
    # Another user sees none of it.
    await other_web.signup("eve@example.com")
    assert _rows((await other_web.get("/activity")).text) == []


async def test_activity_pages(
    harness: Harness, signed_in: Web, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _calls(harness, signed_in, provider)
    monkeypatch.setattr(activity, "PAGE_SIZE", 2)
    first = await signed_in.get("/activity")
    assert len(_rows(first.text)) == 2
    older = re.search(r'href="(/activity\?cursor=[^"]+)">Older', first.text)
    assert older
    second = await signed_in.get(older.group(1).replace("&amp;", "&"))
    assert len(_rows(second.text)) == 1
    assert "Newest" in second.text
    assert "Older" not in second.text
    bad = await signed_in.get("/activity", params={"cursor": "@@@"})
    assert bad.status_code == 400
    assert "not valid" in bad.text


async def test_activity_export_downloads_the_viewers_own_rows(
    harness: Harness, signed_in: Web, other_web: Web, provider: Provider
) -> None:
    page = await signed_in.get("/activity")
    assert 'action="/activity/export"' in page.text  # the download form
    await _calls(harness, signed_in, provider)
    r = await signed_in.get("/activity/export")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/x-ndjson"
    assert r.headers["content-disposition"].startswith('attachment; filename="skillgate-activity-')
    rows = [orjson.loads(line) for line in r.content.splitlines()]
    assert [(e["endpoint"], e["status"], e["decision"]) for e in rows] == [
        ("get_user", 200, "allowed"),
        ("get_user", 404, "allowed"),
        ("get_thing", None, "allowed"),
    ]
    assert rows[2]["error"] == "integration_not_connected"
    assert "Decision" in (await signed_in.get("/activity")).text
    bad = await signed_in.get("/activity/export", params={"since": "soon"})
    assert bad.status_code == 400
    assert "since" in bad.text
    await other_web.signup("eve@example.com")
    theirs = await other_web.get("/activity/export")
    assert theirs.status_code == 200
    assert theirs.content == b""
