"""`svc login` without --key: the device flow against a gateway answering exactly
DESIGN "Device authorization" (the server's endpoints are being built; these
tests are named `test_*_contract_*` so they can later point at the real one)."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.process import BIN
from tests.skillgate_cli.conftest import error_line, svc, svc_env
from tests.skillgate_cli.fakes import FakeGateway, Recorded, Reply

GOOD_KEY = "sk_devicekey000000000000000000000000000"
PENDING = Reply(200, {"status": "pending", "error": "authorization_pending"})
USER = {"email": "dev@example.com", "display_name": "dev"}


def complete(**extra: Any) -> Reply:
    body = {"status": "complete", "user": USER, "api_keys_url": "http://app/api-keys", **extra}
    return Reply(200, body)


def setup(
    fake: FakeGateway, token: list[Reply], interval: float = 0.1, expires_in: float = 30
) -> None:
    fake.on(
        "POST",
        "/auth/device/code",
        Reply(
            200,
            {
                "device_code": "ab" * 20,
                "user_code": "BCDF-GHJK",
                "verification_uri": "http://app/device",
                "verification_uri_complete": "http://app/device?user_code=BCDF-GHJK",
                "expires_in": expires_in,
                "interval": interval,
            },
        ),
    )
    fake.on("POST", "/auth/device/token", token)

    def me(req: Recorded) -> Reply:
        if req.headers.get("Authorization") == f"Bearer {GOOD_KEY}":
            return Reply(200, {"id": "usr_1", **USER, "plan": "free", "limits": {}, "api_key": {}})
        return Reply(401, {"error": "unauthorized", "message": "Invalid API key."})

    fake.on("GET", "/v1/me", me)


def login(fake: FakeGateway, cwd: Path, input: str = "") -> subprocess.CompletedProcess[str]:
    return svc("login", cwd=cwd, base_url=fake.url, input=input)


def test_login_contract_device_flow_uses_the_handed_over_key(
    fake: FakeGateway, tmp_path: Path
) -> None:
    setup(fake, [PENDING, PENDING, complete(api_key=GOOD_KEY)])
    r = login(fake, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "BCDF-GHJK" in r.stderr
    assert "http://app/device" in r.stderr
    assert json.loads(r.stdout)["user"]["email"] == "dev@example.com"
    assert f"SVC_API_KEY={GOOD_KEY}\n" in (tmp_path / ".env").read_text()
    [code] = fake.calls("POST", "/auth/device/code")
    assert code.body["client_name"].startswith("svc on ")
    polls = fake.calls("POST", "/auth/device/token")
    assert [p.body for p in polls] == [{"device_code": "ab" * 20}] * 3
    assert all("Authorization" not in p.headers for p in [code, *polls])
    [me] = fake.calls("GET", "/v1/me")
    assert me.headers["Authorization"] == f"Bearer {GOOD_KEY}"


def test_login_contract_polls_at_the_interval_and_honours_slow_down(
    fake: FakeGateway, tmp_path: Path
) -> None:
    slow = Reply(200, {"status": "pending", "error": "slow_down", "interval": 1.0})
    setup(fake, [PENDING, slow, PENDING, complete(api_key=GOOD_KEY)], interval=0.3)
    start = time.monotonic()
    r = login(fake, tmp_path)
    assert r.returncode == 0, r.stderr
    at = [start] + [p.at for p in fake.calls("POST", "/auth/device/token")]
    gaps = [b - a for a, b in itertools.pairwise(at)]
    assert len(gaps) == 4
    assert gaps[0] >= 0.25
    assert gaps[1] >= 0.25
    assert gaps[1] < 0.9
    assert gaps[2] >= 0.95
    assert gaps[3] >= 0.95


def test_login_contract_stops_at_expires_in(fake: FakeGateway, tmp_path: Path) -> None:
    setup(fake, [PENDING], interval=0.2, expires_in=1)
    start = time.monotonic()
    r = login(fake, tmp_path)
    elapsed = time.monotonic() - start
    assert "expired" in error_line(r, 1)
    assert 1 <= elapsed < 4
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (Reply(400, {"status": "expired", "error": "expired_token"}), "expired"),
        (Reply(400, {"error": "already_used", "message": "Code already used."}), "already used"),
        (Reply(400, {"error": "access_denied", "message": "Denied."}), "denied"),
        (Reply(404, {"error": "not_found", "message": "Unknown code."}), "does not know"),
    ],
)
def test_login_contract_refusals_exit_1(
    fake: FakeGateway, tmp_path: Path, reply: Reply, expected: str
) -> None:
    setup(fake, [PENDING, reply])
    r = login(fake, tmp_path)
    line = error_line(r, 1)
    assert expected in line
    assert "svc login" in line
    assert list(tmp_path.iterdir()) == []


def test_login_contract_server_error_while_polling_exit_2(
    fake: FakeGateway, tmp_path: Path
) -> None:
    setup(fake, [PENDING, Reply(500, {"error": "internal_error", "message": "Oops."})])
    r = login(fake, tmp_path)
    assert "retry later" in error_line(r, 2)


def test_login_contract_pasted_key_from_stdin(fake: FakeGateway, tmp_path: Path) -> None:
    setup(fake, [complete()])
    r = login(fake, tmp_path, input=GOOD_KEY + "\n")
    assert r.returncode == 0, r.stderr
    assert "http://app/api-keys" in r.stderr
    assert f"SVC_API_KEY={GOOD_KEY}\n" in (tmp_path / ".env").read_text()


def test_login_contract_no_key_handed_over_says_how_to_go_on(
    fake: FakeGateway, tmp_path: Path
) -> None:
    """The approval made no key (the plan's keys may all be in use): before asking to
    paste, svc says to paste one, or revoke one at api_keys_url and create one, or replace
    it; without naming a plan it does not know (issue 23.9: every plan was told "free")."""
    setup(fake, [complete()])
    r = login(fake, tmp_path, input=GOOD_KEY + "\n")
    assert r.returncode == 0, r.stderr
    said = " ".join(r.stderr.split())
    assert "If your plan allows no more active keys: paste one you have" in said
    assert "or revoke one at http://app/api-keys and create a new one" in said
    assert "free plan" not in said
    assert "replace my existing key" in said
    assert said.index("replace my existing key") < said.index("Signed in")


def test_login_contract_nothing_pasted_exit_1(fake: FakeGateway, tmp_path: Path) -> None:
    setup(fake, [complete()])
    r = login(fake, tmp_path, input="")
    assert "no API key was pasted" in error_line(r, 1)
    assert list(tmp_path.iterdir()) == []


def test_login_contract_pasted_key_is_validated_first(fake: FakeGateway, tmp_path: Path) -> None:
    setup(fake, [complete()])
    r = login(fake, tmp_path, input="sk_wrong\n")
    assert "refused this API key" in error_line(r, 1)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(shutil.which("setsid") is None, reason="needs util-linux setsid")
def test_login_contract_pasted_key_is_hidden_on_a_terminal(
    fake: FakeGateway, tmp_path: Path
) -> None:
    import pty

    setup(fake, [complete()])
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        # setsid -c: a new session whose controlling terminal is the pty, as in a shell.
        ["setsid", "-c", str(BIN / "svc"), "login"],
        cwd=tmp_path,
        env=svc_env(fake.url, TERM="xterm"),
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 20
    while b"API key: " not in seen and time.monotonic() < deadline:
        seen += os.read(master, 4096)
    os.write(master, GOOD_KEY.encode() + b"\n")
    out, _ = proc.communicate(timeout=20)
    try:
        while chunk := os.read(master, 4096):
            seen += chunk
    except OSError:
        pass
    os.close(master)
    assert proc.returncode == 0, seen
    assert b"API key: " in seen
    assert GOOD_KEY.encode() not in seen  # not echoed
    assert json.loads(out)["user"]["email"] == "dev@example.com"


def test_login_contract_ctrl_c_exits_130(fake: FakeGateway, tmp_path: Path) -> None:
    setup(fake, [PENDING], interval=0.2)
    # svc starts with SIGINT as a terminal gives it, whatever this run's own: a suite
    # started in the background by a non-interactive shell (`make test &`) ignores SIGINT
    # and SIGQUIT, a child inherits an ignored signal, and Python then installs no
    # KeyboardInterrupt (seen twice, the process's SigIgn 0x81001006). A caught signal is
    # reset to its default in the child: catch it here while svc starts.
    caught = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            [str(BIN / "svc"), "login"],
            cwd=tmp_path,
            env=svc_env(fake.url),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, caught)
    deadline = time.monotonic() + 20
    while not fake.calls("POST", "/auth/device/token") and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        # Say how the process held SIGINT (blocked, ignored, caught), and leave no process
        # behind for the next test.
        status = Path(f"/proc/{proc.pid}/status").read_text()
        signals = [line for line in status.splitlines() if line.startswith("Sig")]
        proc.kill()
        proc.communicate()
        raise AssertionError(f"svc login did not stop on SIGINT: {signals}") from None
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "svc: interrupted"
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
