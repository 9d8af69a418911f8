"""Run the real `skillgate` and `svc` executables as subprocesses."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any SKILLGATE_/SVC_ settings of the developer's shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLGATE_", "SVC_"))}
    env.update(extra)
    return env


def fixture_env(upstream_url: str, **extra: str) -> dict[str, str]:
    """A clean environment for a server process on the test catalog (tests/fixtures/catalog),
    its integrations pointed at the loopback upstream at `upstream_url`."""
    return clean_env(
        SKILLGATE_CATALOG_PATH=str(Path(__file__).parent / "fixtures" / "catalog"),
        SKILLGATE_SAMPLE_BASE_URL=upstream_url,
        SKILLGATE_OAUTHY_BASE_URL=upstream_url + "/v2",
        SKILLGATE_OAUTHY_TOKEN_URL=upstream_url + "/oauth/token",
        SKILLGATE_OAUTHY_AUTHORIZE_URL=upstream_url + "/oauth/authorize",
        SKILLGATE_OAUTHY_CLIENT_ID="client-123",
        SKILLGATE_OAUTHY_CLIENT_SECRET="client-secret-456",
        SKILLGATE_LOG_LEVEL="WARNING",
        **extra,
    )


def run_cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        cwd=cwd,
        env=env or clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        input=input,
        check=False,
    )


def operate(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """The operator command `skillgate *args` on the data directory `cwd`, run in this
    process (the same click command as the executable's, without its ~1 s of interpreter
    start and imports): for a fixture's set-up, where the command's start is not what a test
    checks. `env` as for `run_cli` (else a clean one); the developer's SKILLGATE_/SVC_
    settings are hidden as `clean_env` hides them. Its standard output; AssertionError
    naming the output unless it exits 0."""
    from click.testing import CliRunner

    from skillgate.cli.main import command
    from skillgate.settings import get_settings

    given = dict(env or clean_env())
    hidden: dict[str, str | None] = {
        k: None for k in os.environ if k.startswith(("SKILLGATE_", "SVC_")) and k not in given
    }
    settings = {k: v for k, v in given.items() if k.startswith(("SKILLGATE_", "SVC_"))}
    settings.setdefault("SKILLGATE_DATA_DIR", str(cwd))
    get_settings.cache_clear()
    try:
        done = CliRunner().invoke(command(), list(args), env={**hidden, **settings})
    finally:
        get_settings.cache_clear()
    assert done.exit_code == 0, f"skillgate {' '.join(args)}: {done.output}"
    return done.stdout


def new_data_dir(cwd: Path, env: dict[str, str] | None = None) -> None:
    """`skillgate db upgrade` on `cwd` (in process, `operate`): the embedded database
    operator commands and servers started in `cwd` then find (they refuse to start a
    second, empty one)."""
    operate(cwd, "db", "upgrade", env=env)


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def logs(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def serve(
    cwd: Path, env: dict[str, str] | None = None, workers: int = 1, host: str = "127.0.0.1"
) -> Iterator[Server]:
    port = free_port()
    log_path = cwd / f"server-{port}.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                BIN / "skillgate",
                "serve",
                "--host",
                host,
                "--port",
                f"{port}",
                "--workers",
                f"{workers}",
            ],
            cwd=cwd,
            env=env or clean_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    server = Server(url, proc, log_path)
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited {proc.returncode}: {server.logs()}")
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {server.logs()}") from None
                time.sleep(0.1)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
