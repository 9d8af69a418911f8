"""`skillgate catalog reload` under `skillgate serve --workers 2` (real processes): the
command signals each worker, waits until every one reports the catalog on disk and
lists them (pid and digest, also served by `/healthz`); a bad file signals nobody and
both workers stay on the old catalog; a worker that does not switch in time fails the
command, naming it."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES
from tests.process import Server, clean_env, new_data_dir, run_cli, serve

OAUTHY = FIXTURES / "catalog" / "oauthy.yaml"


def _health(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/healthz", timeout=5) as r:  # a new connection each
        return dict(json.loads(r.read()))


def _served(server: Server, pids: set[int]) -> dict[int, str]:
    """Each worker's catalog digest as its `/healthz` says, asking until both answered."""
    seen: dict[int, str] = {}
    deadline = time.monotonic() + 30
    while set(seen) != pids:
        assert time.monotonic() < deadline, (seen, pids)
        answer = _health(server.url)
        seen[answer["pid"]] = answer["catalog"]
    return seen


def _workers(data_dir: Path, server: Server) -> dict[int, str]:
    """The workers' status files, once both started: pid -> digest."""
    deadline = time.monotonic() + 60
    while True:
        found = {}
        for path in (data_dir / "workers").glob("[0-9]*.json"):
            data = json.loads(path.read_text())
            found[data["pid"]] = data["digest"]
        if len(found) == 2:
            break
        assert time.monotonic() < deadline, server.logs()
        time.sleep(0.2)
    for pid in found:  # uvicorn's workers, children of the server process
        ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert ppid == server.process.pid
    return found


def test_reload_is_confirmed_by_every_worker(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    (tmp_path / "catalog").mkdir()
    with serve(tmp_path, workers=2) as server:
        before = _workers(tmp_path, server)
        assert len(set(before.values())) == 1
        assert _served(server, set(before)) == before

        text = OAUTHY.read_text().replace("slug: oauthy", "slug: thingy")
        (tmp_path / "catalog" / "thingy.yaml").write_text(text)
        reload = run_cli("skillgate", "catalog", "reload", cwd=tmp_path)
        assert reload.returncode == 0, reload.stderr
        report = json.loads(reload.stdout)
        new = report["catalog"]
        assert new not in before.values()
        assert report["server"] == server.process.pid
        assert {w["pid"] for w in report["workers"]} == set(before)
        assert all(w["catalog"] == new and w["switched"] for w in report["workers"])
        # Both workers serve it, and neither was restarted.
        assert _served(server, set(before)) == dict.fromkeys(before, new)
        assert _workers(tmp_path, server) == dict.fromkeys(before, new)
        assert server.logs().count("catalog reloaded") == 2
        assert "restarting processes" not in server.logs()


def test_a_reload_that_does_not_reach_every_worker_fails_loudly(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    served, other = tmp_path / "served", tmp_path / "other"  # two SKILLGATE_CATALOG_PATHs
    served.mkdir()
    other.mkdir()
    env = clean_env(SKILLGATE_CATALOG_PATH=str(served))
    with serve(tmp_path, env=env, workers=2) as server:
        before = _workers(tmp_path, server)
        old = next(iter(before.values()))

        # A bad file: exit 1, nobody signalled, both workers on the old catalog.
        bad = served / "thingy.yaml"
        bad.write_text(OAUTHY.read_text().replace("slug: oauthy", "slug: [thingy"))
        refused = run_cli("skillgate", "catalog", "reload", cwd=tmp_path, env=env)
        assert refused.returncode == 1
        assert "not reloaded" in refused.stderr
        assert str(bad) in refused.stderr
        time.sleep(1)
        assert _served(server, set(before)) == dict.fromkeys(before, old)
        assert _workers(tmp_path, server) == dict.fromkeys(before, old)
        assert "catalog reload" not in server.logs()

        # The workers refuse what the command found good (it read other files): exit 1
        # naming each with its reason, both still on the old catalog.
        good = OAUTHY.read_text().replace("slug: oauthy", "slug: thingy")
        (other / "thingy.yaml").write_text(good)
        elsewhere = clean_env(SKILLGATE_CATALOG_PATH=str(other))
        split = run_cli("skillgate", "catalog", "reload", cwd=tmp_path, env=elsewhere)
        assert split.returncode == 1
        for pid in before:
            assert f"{pid} refused it ({bad}" in split.stderr
        rows = json.loads(split.stdout)["workers"]
        assert [(w["catalog"], w["switched"]) for w in rows] == [(old, False)] * 2
        assert _served(server, set(before)) == dict.fromkeys(before, old)

        # A worker that hangs (stopped) is replaced by uvicorn's supervisor; the new
        # worker loads the files at its start and the command waits for it.
        bad.write_text(good)
        stuck, kept = sorted(before)
        os.kill(stuck, signal.SIGSTOP)
        done = run_cli("skillgate", "catalog", "reload", cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        new = report["catalog"]
        assert new == json.loads(split.stdout)["catalog"]  # the same files, by name and bytes
        pids = {w["pid"] for w in report["workers"]}
        assert kept in pids
        assert stuck not in pids
        assert len(pids) == 2
        assert all(w["catalog"] == new for w in report["workers"])
        assert _served(server, pids) == dict.fromkeys(pids, new)
