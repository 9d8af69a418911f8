"""The `svc` entry point: version, help, usage errors, start-up imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skillgate_cli import __version__
from tests.process import clean_env
from tests.skillgate_cli.conftest import only_error
from tests.skillgate_cli.conftest import (
    svc_process as svc,  # the real executable: start-up, exit codes
)


def test_version(tmp_path: Path) -> None:
    for flag in ("--version", "-V"):
        r = svc(flag, cwd=tmp_path)
        assert r.returncode == 0
        assert r.stdout == f"svc {__version__}\n"


def test_help_lists_every_command(tmp_path: Path) -> None:
    for args in ((), ("--help",), ("help",)):
        r = svc(*args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        for name in ("login", "skills", "status", "run", "pull", "connect", "logout", "help"):
            assert f"  {name} " in r.stdout


@pytest.mark.parametrize("name", ["login", "skills", "status", "run", "pull", "connect", "logout"])
def test_help_for_each_command(tmp_path: Path, name: str) -> None:
    r = svc("help", name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"Usage: svc {name}")
    assert svc(name, "--help", cwd=tmp_path).stdout == r.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("bogus",), "No such command 'bogus'"),
        (("skills", "a", "b", "c"), "unexpected extra argument"),
        (("run",), "Missing argument 'INTEGRATION'"),
        (("run", "github"), "Missing argument 'ENDPOINT'"),
        (("login", "--platform", "vim"), "'vim' is not one of"),
        (("status", "--nope"), "No such option '--nope'"),
        (("help", "bogus"), "no command 'bogus'"),
    ],
)
def test_usage_errors_are_one_line_exit_1(
    tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    """Click's usage errors exit 2 by default, which the spec reserves for the network."""
    assert fragment in only_error(svc(*args, cwd=tmp_path), 1)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("run",), "Missing argument 'INTEGRATION'"),
        (("run", "github"), "Missing argument 'ENDPOINT'"),
        (("run", "--owner", "o", "github", "get_repo"), "'--owner' is not an integration name"),
        (("run", "github", "--owner", "o"), "'--owner' is not an endpoint name"),
    ],
)
def test_run_usage_errors_print_json_too(
    tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    """`svc run` prints one JSON document on stdout whatever happens (the spec)."""
    r = svc(*args, cwd=tmp_path, key="sk_x")
    line = only_error(r, 1)
    assert fragment in line
    assert json.loads(r.stdout) == {"error": "bad_request", "message": line.removeprefix("svc: ")}
    # Other commands keep stdout empty for a usage error.
    assert svc("skills", "a", "b", "c", cwd=tmp_path).stdout == ""


def test_invalid_svc_timeout(tmp_path: Path) -> None:
    r = svc("skills", cwd=tmp_path, key="sk_x", SVC_TIMEOUT="soon")
    assert "SVC_TIMEOUT" in only_error(r, 1)


def test_unknown_svc_platform_for_pull(tmp_path: Path) -> None:
    r = svc("pull", "github", cwd=tmp_path, key="sk_x", SVC_PLATFORM="emacs")
    assert "unknown platform 'emacs'" in only_error(r, 1)


def _imported_by(code: str, cwd: Path) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\nprint('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env=clean_env(),
    ).stdout
    return set(out.split())


def test_startup_stays_lean(tmp_path: Path) -> None:
    """No server code, no heavy HTTP or UI library at start-up; no command module for
    --version; the HTTP client only once a command needs it."""
    version = _imported_by("from skillgate_cli.main import run\nrun(['--version'])", tmp_path)
    assert not {m for m in version if m.startswith("skillgate_cli.commands.")}
    assert "http.client" not in version
    for heavy in ("skillgate", "httpx", "requests", "rich", "importlib.metadata", "pkg_resources"):
        assert heavy not in version, heavy
    run = _imported_by(
        "from skillgate_cli.main import run\n"
        "run(['run', 'x', 'y', '--a', '1'])",  # fails (no key); imports what run needs
        tmp_path,
    )
    assert "skillgate_cli.commands.run" in run
    assert not {m for m in run if m == "skillgate" or m.startswith("skillgate.")}
    for heavy in ("httpx", "requests", "rich", "urllib.request", "importlib.metadata"):
        assert heavy not in run, heavy


@pytest.mark.parametrize("key", ["sk_a b", "sk_a\tb", "sk_é"])
def test_a_malformed_key_is_refused_before_any_request(tmp_path: Path, key: str) -> None:
    r = svc("skills", cwd=tmp_path, base_url="http://nonexistent.invalid", key=key)
    assert "API key contains" in only_error(r, 1)
