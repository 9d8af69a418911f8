"""Bring your own API: `skillgate catalog import openapi FILE-or-URL` writes a
validated catalog file into the catalog directory the server reads, and a running
server serves it after `skillgate catalog reload` (SIGHUP) without a restart; a bad
file is refused by the command and, sent by SIGHUP alone, leaves the running
catalog in place."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import httpx
import yaml

from tests.conftest import FIXTURES
from tests.loopback import Answer, Loopback
from tests.process import new_data_dir, run_cli, serve

PETSTORE = FIXTURES / "importers" / "petstore-3.0.yaml"
PASSWORD = "s3cret-passphrase-byo"


def _key(cwd: Path) -> str:
    made = run_cli("skillgate", "users", "create", "--email", "op@example.com",
                   "--password", PASSWORD, "--plan", "pro", cwd=cwd)  # fmt: skip
    assert made.returncode == 0, made.stderr
    key = run_cli("skillgate", "keys", "create", "--email", "op@example.com", "--name", "k",
                  cwd=cwd)  # fmt: skip
    assert key.returncode == 0, key.stderr
    return str(json.loads(key.stdout)["full_key"])


def _slugs(url: str, key: str) -> list[str]:
    r = httpx.get(url + "/v1/skills", headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text
    return [i["slug"] for i in r.json()["integrations"]]


def _wait_for(predicate, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + 20
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_import_then_reload_serves_it_without_a_restart(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    key = _key(tmp_path)
    with serve(tmp_path) as server:
        assert "pets" not in _slugs(server.url, key)
        pid = int((tmp_path / "skillgate.pid").read_text())
        assert pid == server.process.pid

        made = run_cli("skillgate", "catalog", "import", "openapi", str(PETSTORE), "--slug",
                       "pets", "--auth", "header:X-Api-Key", cwd=tmp_path)  # fmt: skip
        assert made.returncode == 0, made.stderr
        written = tmp_path / "catalog" / "pets.yaml"
        assert f"written to {written}" in made.stderr
        assert yaml.safe_load(written.read_text())["slug"] == "pets"
        assert "pets" not in _slugs(server.url, key)  # not before the reload

        reload = run_cli("skillgate", "catalog", "reload", cwd=tmp_path)
        assert reload.returncode == 0, reload.stderr
        assert json.loads(reload.stdout)["server"] == pid
        _wait_for(lambda: "pets" in _slugs(server.url, key), "the reload to take effect")
        doc = httpx.get(server.url + "/v1/skills/pets", headers={"Authorization": f"Bearer {key}"})
        assert doc.status_code == 200
        assert doc.json()["integration"] == "pets"

        # A broken file: the command refuses it and signals nothing ...
        written.write_text(written.read_text().replace("base_url:", "base_url: [", 1))
        refused = run_cli("skillgate", "catalog", "reload", cwd=tmp_path)
        assert refused.returncode == 1
        assert "not reloaded" in refused.stderr
        assert str(written) in refused.stderr
        # ... and a bare SIGHUP keeps the running catalog, with the reason in the log.
        os.kill(pid, signal.SIGHUP)
        _wait_for(lambda: "catalog reload refused" in server.logs(), "the refusal logged")
        assert str(written) in server.logs()
        assert "pets" in _slugs(server.url, key)
        assert server.process.poll() is None
    assert not (tmp_path / "skillgate.pid").exists()


def test_import_from_a_url_refuses_a_slug_the_catalog_has(tmp_path: Path) -> None:
    new_data_dir(tmp_path)
    text = PETSTORE.read_bytes()
    with Loopback(lambda _r: Answer(200, text, [("Content-Type", "application/yaml")])) as web:
        taken = run_cli("skillgate", "catalog", "import", "openapi", web.url + "/openapi.yaml",
                        "--slug", "github", "--auth", "bearer", cwd=tmp_path)  # fmt: skip
        assert taken.returncode == 1
        assert "slug already defined" in taken.stderr
        assert not (tmp_path / "catalog" / "github.yaml").exists()
        out = run_cli("skillgate", "catalog", "import", "openapi", web.url + "/openapi.yaml",
                      "--slug", "pets", "--auth", "bearer", "--out", "-", cwd=tmp_path)  # fmt: skip
        assert out.returncode == 0, out.stderr
        assert yaml.safe_load(out.stdout)["slug"] == "pets"
    missing = run_cli("skillgate", "catalog", "import", "openapi", "http://127.0.0.1:9/x.json",
                      "--slug", "pets", cwd=tmp_path)  # fmt: skip
    assert missing.returncode == 1
    assert "http://127.0.0.1:9/x.json: cannot fetch" in missing.stderr
