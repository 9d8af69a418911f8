"""Run `svc` with its stdout on a pseudo-terminal, as a person at a shell would."""

from __future__ import annotations

import os
import pty
import select
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


def converse(
    args: list[str], *, cwd: Path, base_url: str, key: str, answer: str, prompt: str
) -> tuple[str, str, int]:
    """Run `svc` with stdin and stderr on a pseudo-terminal (a person at a shell) and
    stdout a pipe; type `answer` and Enter once the terminal shows `prompt`.

    Returns (what the terminal showed, with `\\n` line ends; stdout; exit code)."""
    env = svc_env(base_url, key, TERM="xterm-256color", COLUMNS="120", LINES="40")
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "svc"), *args],
        cwd=cwd,
        env=env,
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    shown = b""
    answered = False
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                raise AssertionError(f"svc showed nothing for 60 s: {shown!r}")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
            if not answered and prompt.encode() in shown:
                os.write(master, answer.encode() + b"\r")
                answered = True
    finally:
        os.close(master)
        assert proc.stdout is not None
        out = proc.stdout.read().decode()
        proc.stdout.close()
        proc.wait(timeout=60)
    return shown.decode("utf-8", "replace").replace("\r\n", "\n"), out, proc.returncode
