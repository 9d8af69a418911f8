"""`svc run --all/--max-items/--fields/--max-bytes` (issue 15) through the real gateway:
GitHub's Link-header pages from the loopback provider, projected and cut server-side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.skillgate_cli.conftest import Gateway, only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Recorded, Reply

LIST = ("run", "github", "list_issues", "--owner", "o", "--repo", "r", "--per-page", "3")


def issue(n: int) -> dict[str, Any]:
    return {"number": n, "title": f"Issue {n}", "user": {"login": f"u{n}", "id": n}, "body": "x"}


def pages(upstream: FakeGateway, total: int) -> None:
    """GitHub's list_issues: `total` issues, 3 a page, `Link: <...?page=N>; rel="next"`."""

    def answer(rec: Recorded) -> Reply:
        url = urlsplit(rec.path)
        if url.path != "/repos/o/r/issues":
            return Reply(404, {"message": "Not Found"})
        page = int(dict(parse_qsl(url.query)).get("page", "1"))
        items = [issue(n) for n in range(3 * page - 2, min(3 * page, total) + 1)]
        more = 3 * page < total
        link = f'<{upstream.url}/repositories/9/issues?per_page=3&page={page + 1}>; rel="next"'
        return Reply(200, items, {"Link": link} if more else {})

    upstream.fallback = answer


def run(gateway: Gateway, cwd: Path, *args: str) -> Any:
    return svc(*args, cwd=cwd, base_url=gateway.url, key=gateway.runner_key)


def test_all_follows_every_page_and_fields_project_them(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    pages(upstream, 7)
    r = run(gateway, tmp_path, *LIST, "--all", "--fields", "number,user.login")
    assert r.returncode == 0, (r.stdout, r.stderr)
    answer = json.loads(r.stdout)
    assert answer["data"] == [{"number": n, "user": {"login": f"u{n}"}} for n in range(1, 8)]
    assert answer["pagination"]["pages"] == 3
    assert answer["pagination"]["items"] == 7
    assert answer["pagination"]["complete"] is True
    assert answer["pagination"]["next"] is None
    assert len(upstream.requests) == 3


def test_max_items_stops_and_says_where_to_continue(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    pages(upstream, 7)
    r = run(gateway, tmp_path, *LIST, "--max-items", "4", "--fields", "number")
    assert r.returncode == 0, (r.stdout, r.stderr)
    answer = json.loads(r.stdout)
    assert answer["data"] == [{"number": n} for n in range(1, 5)]
    assert answer["pagination"]["complete"] is False
    assert answer["pagination"]["next"] is not None
    # Continuing from `next` (and `skip`) gives the rest, nothing twice.
    more = [f"--{k}={v}" for k, v in answer["pagination"]["next"].items()]
    skip = answer["pagination"].get("skip", 0)
    r = run(gateway, tmp_path, *LIST, *more, "--all", "--fields", "number")
    rest = json.loads(r.stdout)["data"][skip:]
    assert [i["number"] for i in answer["data"] + rest] == list(range(1, 8))


def test_all_on_an_endpoint_without_pages_is_refused(
    gateway: Gateway, upstream: FakeGateway, tmp_path: Path
) -> None:
    r = run(gateway, tmp_path, "run", "github", "get_repo", "--owner", "o", "--repo", "r", "--all")
    assert "paginate" in only_error(r, 1)
    assert json.loads(r.stdout)["error"] == "bad_request"
    assert upstream.requests == []


def test_max_bytes_cuts_the_data(gateway: Gateway, upstream: FakeGateway, tmp_path: Path) -> None:
    pages(upstream, 300)
    r = run(gateway, tmp_path, *LIST, "--max-items", "300", "--max-bytes", "2048")
    assert r.returncode == 0, (r.stdout, r.stderr)
    answer = json.loads(r.stdout)
    assert answer["truncated"] is True
    assert answer["bytes"] > 2048
    assert len(json.dumps(answer["data"], separators=(",", ":"))) <= 2048
