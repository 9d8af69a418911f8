"""Run `svc` with its stdout on a pseudo-terminal, as a person at a shell would."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

from tests.process import BIN
from tests.skillgate_cli.conftest import svc_env


def run_in_pty(
    args: list[str], *, cwd: Path, base_url: str, key: str, **extra: str
) -> tuple[str, int]:
    """(everything written to the terminal, exit code); stderr is captured apart."""
    env = svc_env(base_url, key, TERM="xterm-256color", COLUMNS="120", LINES="40", **extra)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "svc"), *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    proc.wait(timeout=60)
    assert proc.stderr is not None
    proc.stderr.close()
    return b"".join(chunks).decode("utf-8", "replace"), proc.returncode
