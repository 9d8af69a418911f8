"""What an operator trips on: `make run` with a port, `serve --help` naming the
environment, operator commands finding the server's data directory (or refusing),
an owner-only database file, and a client-only install's `skillgate`."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from click.testing import CliRunner

from skillgate.catalog.loader import Catalog
from skillgate.cli.main import cli
from skillgate.db.engine import create_private_file
from skillgate.settings import get_settings
from tests.process import BIN, clean_env, run_cli

ROOT = Path(__file__).parents[3]
PASSWORD = "password-for-datadir"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _create_user(cwd: Path, email: str, env: dict[str, str] | None = None) -> object:
    return run_cli(
        "skillgate", "users", "create", "--email", email, "--password", PASSWORD, cwd=cwd, env=env
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_takes_host_and_port() -> None:
    def dry(*args: str) -> str:
        done = subprocess.run(
            ["make", "-n", "run", *args], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return done.stdout

    assert ".venv/bin/skillgate serve --host 0.0.0.0 --port 9000" in dry(
        "PORT=9000", "HOST=0.0.0.0"
    )
    assert ".venv/bin/skillgate serve --host 127.0.0.1 --port 8000" in dry()


def test_serve_help_names_the_environment(tmp_path: Path) -> None:
    shown = run_cli("skillgate", "serve", "--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    for name in (
        "SKILLGATE_DATA_DIR",
        "SKILLGATE_DATABASE_URL",
        "SKILLGATE_REDIS_URL",
        "SKILLGATE_BASE_URL",
        "SKILLGATE_APP_URL",
        "SKILLGATE_SECRET_KEY",
        "SKILLGATE_ENCRYPTION_KEYS",
        "SKILLGATE_CATALOG_PATH",
        "docs/configuration.md",
    ):
        assert name in shown.stdout, name
    assert not (tmp_path / "skillgate.db").exists()  # --help touches nothing


def test_operator_command_finds_the_database_upward(tmp_path: Path) -> None:
    server_dir = tmp_path / "srv"
    deeper = server_dir / "logs" / "today"
    deeper.mkdir(parents=True)
    made = run_cli("skillgate", "db", "upgrade", cwd=server_dir)
    assert made.returncode == 0, made.stderr
    created = _create_user(deeper, "up@example.com")
    assert created.returncode == 0, created.stderr  # type: ignore[attr-defined]
    assert not (deeper / "skillgate.db").exists()
    assert not (deeper / ".skillgate-secrets.json").exists()
    listed = run_cli("skillgate", "users", "list", cwd=server_dir)
    assert [u["email"] for u in json.loads(listed.stdout)] == ["up@example.com"]


def test_operator_command_without_a_database_refuses(tmp_path: Path) -> None:
    for args in (("users", "list"), ("keys", "create", "--email", "x@example.com", "--name", "k")):
        refused = run_cli("skillgate", *args, cwd=tmp_path)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.strip().count("\n") == 0
        assert "Traceback" not in refused.stderr
        assert f"no database found in {tmp_path.resolve()} or its parents" in refused.stderr
        assert "SKILLGATE_DATA_DIR" in refused.stderr
        assert "skillgate db upgrade" in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing created

    # An explicit data directory is trusted, from anywhere.
    elsewhere = tmp_path / "data"
    env = clean_env(SKILLGATE_DATA_DIR=str(elsewhere))
    created = _create_user(tmp_path, "dir@example.com", env=env)
    assert created.returncode == 0, created.stderr  # type: ignore[attr-defined]
    assert (elsewhere / "skillgate.db").is_file()
    assert not (tmp_path / "skillgate.db").exists()


def test_database_file_is_created_owner_only(tmp_path: Path) -> None:
    made = run_cli("skillgate", "db", "upgrade", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert _mode(tmp_path / "skillgate.db") == 0o600
    assert _mode(tmp_path / ".skillgate-secrets.json") == 0o600


def test_sqlite_gives_wal_and_shm_the_database_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    create_private_file(str(path))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (v)")
        conn.execute("INSERT INTO t VALUES (1)")
        conn.commit()
        for name in ("x.db", "x.db-wal", "x.db-shm"):
            assert _mode(tmp_path / name) == 0o600, name
    conn.close()


def test_serve_warns_about_a_database_open_to_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLGATE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: None)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        first = runner.invoke(cli, ["serve"])
        assert first.exit_code == 0, first.output
        assert "warning" not in first.output
        os.chmod(tmp_path / "skillgate.db", 0o644)
        again = runner.invoke(cli, ["serve"])
        assert again.exit_code == 0, again.output
        assert f"warning: {tmp_path / 'skillgate.db'} is open to other users (mode 0644)" in (
            again.output
        )
    finally:
        get_settings.cache_clear()


def test_keys_create_checks_the_integrations_its_scopes_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`keys create` loads the catalog only when a scope names an integration; it still
    refuses an unknown one, naming the option, and keeps `*` and `approve` as given."""
    from skillgate.catalog import loader

    loads: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> Catalog:
        loads.append(args)
        return real(*args, **kwargs)

    real = loader.load_catalog
    monkeypatch.setattr(loader, "load_catalog", counted)
    monkeypatch.setenv("SKILLGATE_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        email = "scopes@example.com"
        for args in (
            ["db", "upgrade"],
            ["users", "create", "--email", email, "--password", PASSWORD, "--plan", "pro"],
        ):
            done = runner.invoke(cli, args)
            assert done.exit_code == 0, done.output
        made = {}
        for scopes in ("*", "approve,*", "github:read,approve"):
            out = runner.invoke(
                cli, ["keys", "create", "--email", email, "--name", "k", "--scopes", scopes]
            )
            assert out.exit_code == 0, out.output
            made[scopes] = (json.loads(out.stdout)["scopes"], len(loads))
        assert made == {  # each key's scopes, and the catalog loads so far
            "*": (["*"], 0),
            "approve,*": (["*", "approve"], 0),
            "github:read,approve": (["github:read", "approve"], 1),
        }
        bad = runner.invoke(
            cli, ["keys", "create", "--email", email, "--name", "k", "--scopes", "nosuch"]
        )
        assert bad.exit_code != 0
        assert "scopes: unknown scope 'nosuch'" in bad.output
        assert "github" in bad.output  # the hint lists the catalog's integrations
    finally:
        get_settings.cache_clear()


def test_client_only_install_says_what_to_install(tmp_path: Path) -> None:
    blocker = tmp_path / "block"
    blocker.mkdir()
    server_only = ["sqlalchemy", "fastapi", "pydantic", "pydantic_settings", "uvicorn"]
    (blocker / "sitecustomize.py").write_text(
        "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in server_only)
    )
    env = clean_env(PYTHONPATH=str(blocker))
    for args in (("users", "list"), ("serve",), ("--help",)):
        done = subprocess.run(
            [str(BIN / "skillgate"), *args],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1
        assert "Traceback" not in done.stderr
        assert "pip install 'skillgate[server]'" in done.stderr
    # `svc` (the client) still works in the same environment.
    svc = subprocess.run(
        [str(BIN / "svc"), "--help"], env=env, capture_output=True, text=True, check=False
    )
    assert svc.returncode == 0, svc.stderr
