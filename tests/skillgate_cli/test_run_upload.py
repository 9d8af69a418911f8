"""`svc run ... --NAME @./path`: a local file for a file parameter (issue 25 item 2),
run as a real `svc` subprocess against a recording gateway: the file is read only
where the endpoint's documentation marks the parameter a file; `@` text elsewhere,
and `@@`, stay text; an unreadable path is exit 1 naming the flag, nothing sent."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from tests.skillgate_cli.conftest import only_error, svc
from tests.skillgate_cli.fakes import FakeGateway, Reply

RUN = "/v1/box/post_users_id_avatar"
DOC = "/v1/skills/box/post_users_id_avatar"
PARAMS = [
    {"name": "user_id", "type": "string", "required": True, "in": "path", "description": "x"},
    {"name": "pic", "type": "string", "required": True, "in": "body", "file": True,
     "description": "The image."},
    {"name": "note", "type": "string", "required": False, "in": "body", "description": "y"},
]  # fmt: skip


def _gateway(fake: FakeGateway) -> None:
    fake.on("GET", DOC, Reply(200, {"name": "post_users_id_avatar", "parameters": PARAMS}))
    fake.on("POST", RUN, Reply(200, {"status": 200, "data": {}}, {"X-Upstream-Status": "200"}))


def _run(fake: FakeGateway, cwd: Path, *args: str) -> Any:
    return svc("run", "box", "post_users_id_avatar", *args, cwd=cwd, base_url=fake.url, key="k")


def test_a_file_parameter_reads_the_local_file(fake: FakeGateway, tmp_path: Path) -> None:
    _gateway(fake)
    image = bytes(range(256)) * 4
    (tmp_path / "me.png").write_bytes(image)
    r = _run(fake, tmp_path, "--user-id", "12", "--pic", "@./me.png", "--note", "@here")
    assert r.returncode == 0, r.stderr
    [call] = fake.calls("POST", RUN)
    params = call.body["params"]
    assert params["pic"] == {
        "base64": base64.b64encode(image).decode(),
        "filename": "me.png",
        "content_type": "image/png",
    }
    assert params["note"] == "@here"  # not a file parameter: the text as typed
    assert "pic" not in call.body.get("as_typed", {})


def test_a_double_at_is_a_leading_at_in_text(fake: FakeGateway, tmp_path: Path) -> None:
    _gateway(fake)
    r = _run(fake, tmp_path, "--user-id", "12", "--pic", "@@me")
    assert r.returncode == 0, r.stderr
    [call] = fake.calls("POST", RUN)
    assert call.body["params"]["pic"] == "@me"


def test_an_unreadable_path_fails_naming_the_flag(fake: FakeGateway, tmp_path: Path) -> None:
    _gateway(fake)
    r = _run(fake, tmp_path, "--user-id", "12", "--pic", "@./missing.png")
    line = only_error(r, 1)
    assert "--pic: cannot read ./missing.png" in line
    assert json.loads(r.stdout)["error"] == "bad_params"
    assert fake.calls("POST", RUN) == []


def test_without_at_no_documentation_is_asked(fake: FakeGateway, tmp_path: Path) -> None:
    _gateway(fake)
    r = _run(fake, tmp_path, "--user-id", "12", "--pic", "plain text content")
    assert r.returncode == 0, r.stderr
    assert fake.calls("GET", DOC) == []
    [call] = fake.calls("POST", RUN)
    assert call.body["params"]["pic"] == "plain text content"
