"""`skillgate catalog reload`: every worker of the running server serves the catalog
files as they are now, confirmed per worker, or the command fails naming the workers
that did not switch.

    check the catalog files (a bad one: exit 1, nothing signalled)
    the server's pid (skillgate.pid) and worker count (workers/serve.json)
    until every worker reports the catalog's digest (workers/<pid>.json):
        SIGHUP each worker that serves another one (once), never the supervisor
        (uvicorn's supervisor restarts its workers on SIGHUP, and gives up when a
        new worker is not ready in 5 s: that left workers on different catalogs)
    exit 0 with each worker's pid and digest; exit 1 once every worker answered and
    one refused or loaded other files (they changed meanwhile), or at the timeout

A worker started meanwhile (the supervisor replacing one that died) loads the files
at its start and reports like the others.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from skillgate.catalog import workers
from skillgate.catalog.workers import PID_FILE, WorkerStatus


@dataclass
class _Wait:
    """The workers' answers so far."""

    digest: str
    expected: int
    signalled: dict[int, float] = field(default_factory=dict)  # pid -> when (time.time)
    seen: list[WorkerStatus] = field(default_factory=list)

    def answered(self, status: WorkerStatus) -> bool:
        """Whether `status` was written after this command signalled its worker."""
        sent = self.signalled.get(status.pid)
        return sent is not None and status.at >= sent

    def failed(self) -> list[WorkerStatus]:
        """Workers that answered the signal but do not serve `digest`."""
        return [s for s in self.seen if s.digest != self.digest and self.answered(s)]

    def waiting(self) -> bool:
        """Whether a worker that does not serve `digest` has not answered yet."""
        return any(s.digest != self.digest and not self.answered(s) for s in self.seen)

    def done(self) -> bool:
        on_it = [s for s in self.seen if s.digest == self.digest]
        return len(on_it) == len(self.seen) and len(on_it) >= self.expected


def _signal_behind(wait: _Wait) -> None:
    for status in wait.seen:
        if status.digest != wait.digest and status.pid not in wait.signalled:
            wait.signalled[status.pid] = time.time()
            try:
                os.kill(status.pid, signal.SIGHUP)
            except ProcessLookupError:
                continue  # gone since it reported: its file goes at the next look


def _confirm(data_dir: Path, server: int, wait: _Wait, timeout: float) -> bool:
    """Signal and wait (see the module docstring); whether every worker switched."""
    deadline = time.monotonic() + timeout
    while True:
        wait.seen = workers.workers_of(data_dir, server)
        _signal_behind(wait)
        if wait.done():
            return True
        if (wait.failed() and not wait.waiting()) or time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def _row(status: WorkerStatus, wait: _Wait) -> dict[str, Any]:
    row: dict[str, Any] = {
        "pid": status.pid,
        "catalog": status.digest,
        "integrations": status.integrations,
        "endpoints": status.endpoints,
        "switched": status.digest == wait.digest,
    }
    if status.error and status.digest != wait.digest:
        row["error"] = status.error
    return row


def _why(wait: _Wait, timeout: float) -> str:
    behind = [s for s in wait.seen if s.digest != wait.digest]
    parts = []
    for s in behind:
        if s.error and wait.answered(s):
            parts.append(f"{s.pid} refused it ({s.error})")
        elif wait.answered(s):
            parts.append(f"{s.pid} loaded {s.digest} (the files changed meanwhile; run it again)")
        else:
            parts.append(f"{s.pid} still serves {s.digest} after {timeout:g} s")
    missing = wait.expected - len(wait.seen)
    if missing > 0:
        parts.append(f"{missing} of {wait.expected} workers did not report within {timeout:g} s")
    return "; ".join(parts)


def _server_pid(data_dir: Path) -> int:
    from skillgate.cli.output import fail

    pid_file = data_dir / PID_FILE
    try:
        pid = int(pid_file.read_text().split()[0])
        if not _is_server(pid):  # a stale file must not signal another program
            raise ProcessLookupError(pid)
        os.kill(pid, 0)
    except (OSError, ValueError, IndexError):
        fail(f"no running server found ({pid_file}); start one with `skillgate serve`")
        raise  # unreachable
    return pid


def _is_server(pid: int) -> bool:
    """Whether `pid` runs `skillgate serve` (where /proc says; elsewhere, assume so)."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not Path("/proc/self/cmdline").exists():
        return True
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    return b"serve" in args and any(a.endswith(b"skillgate") for a in args)


@click.command("reload")
@click.option(
    "--timeout",
    default=60.0,
    show_default=True,
    type=click.FloatRange(1, 3600),
    help="Seconds to wait for every worker to serve the new catalog.",
)
def reload_cmd(timeout: float) -> None:
    """Check the catalog files, have every worker of the running server load them, and
    wait until each one reports it serves them; exit 1 naming the workers that did not
    (nothing is signalled when a file is bad)."""
    from skillgate.catalog.loader import CatalogError, load_catalog
    from skillgate.cli.context import load_settings
    from skillgate.cli.output import emit, fail

    settings = load_settings()
    try:
        loaded = load_catalog(settings.catalog_paths())
    except CatalogError as exc:
        fail(f"not reloaded: {exc}")
        raise  # unreachable
    data_dir = settings.data_dir
    server = _server_pid(data_dir)
    wait = _Wait(loaded.digest, workers.expected_workers(data_dir, server))
    switched = _confirm(data_dir, server, wait, timeout)
    emit(
        {
            "server": server,
            "catalog": loaded.digest,
            "integrations": len(loaded.integrations),
            "endpoints": loaded.endpoint_count,
            "workers": [_row(s, wait) for s in wait.seen],
        }
    )
    if not switched:
        fail(f"not reloaded on every worker: {_why(wait, timeout)}")
