"""Which catalog each process of `skillgate serve` serves: one status file per worker.

`skillgate serve` writes its pid to `<data dir>/skillgate.pid` and its worker count
to `<data dir>/workers/serve.json`. Each worker (the server process itself with one
worker; with `--workers N`, each of uvicorn's worker processes) writes
`workers/<pid>.json` once it has started and again after every catalog reload it
tried: its pid, its parent's, the digest of the catalog it serves and, when the
last reload was refused, why (it still serves the digest it names). It removes the
file when it stops. `skillgate catalog reload` reads these files to signal each
worker and to wait until every one reports the catalog on disk.

Files are written whole (a temporary file renamed over), 0600, in a 0700 directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

PID_FILE = "skillgate.pid"  # written by `skillgate serve`, read by `catalog reload`
DIR = "workers"
SERVE_FILE = "serve.json"


@dataclass(frozen=True)
class WorkerStatus:
    pid: int
    parent: int
    digest: str  # the catalog it serves
    integrations: int
    endpoints: int
    at: float  # when written (time.time())
    error: str | None = None  # the last reload's refusal, if it was refused

    def serves_for(self, server: int) -> bool:
        """Whether this is a worker of the `skillgate serve` process `server`."""
        return server in (self.pid, self.parent)


def _dir(data_dir: Path) -> Path:
    return data_dir / DIR


def _write(path: Path, data: dict[str, object]) -> None:
    path.parent.mkdir(mode=0o700, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh)
    os.replace(tmp, path)


def _read(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def begin_serving(data_dir: Path, pid: int, workers: int) -> None:
    """`skillgate serve` starts: no status of an earlier server is left; `workers`
    processes will report."""
    folder = _dir(data_dir)
    if folder.is_dir():
        for old in folder.glob("*.json"):
            old.unlink(missing_ok=True)
    _write(folder / SERVE_FILE, {"pid": pid, "workers": workers})


def expected_workers(data_dir: Path, server: int) -> int:
    """How many workers the server `server` runs (1 when it did not say)."""
    data = _read(_dir(data_dir) / SERVE_FILE)
    if data is None or data.get("pid") != server:
        return 1
    count = data.get("workers")
    return count if isinstance(count, int) and count > 0 else 1


def under_serve(data_dir: Path) -> bool:
    """Whether this process is a worker of `skillgate serve` (its pid file names this
    process or its parent): only those report; an app in a test does not."""
    try:
        server = int((data_dir / PID_FILE).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    return server in (os.getpid(), os.getppid())


def report(
    data_dir: Path, digest: str, integrations: int, endpoints: int, error: str | None = None
) -> None:
    """This worker serves the catalog `digest` (after a refused reload: `error`)."""
    status = WorkerStatus(
        os.getpid(), os.getppid(), digest, integrations, endpoints, time.time(), error
    )
    _write(_dir(data_dir) / f"{status.pid}.json", asdict(status))


def withdraw(data_dir: Path) -> None:
    """This worker stops: its status goes."""
    (_dir(data_dir) / f"{os.getpid()}.json").unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def workers_of(data_dir: Path, server: int) -> list[WorkerStatus]:
    """The live workers of the server `server`, as they last reported (the files of
    processes that are gone are removed)."""
    found: list[WorkerStatus] = []
    folder = _dir(data_dir)
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.json")):
        if path.name == SERVE_FILE:
            continue
        data = _read(path)
        try:
            status = WorkerStatus(**data) if data is not None else None  # type: ignore[arg-type]
        except TypeError:
            status = None
        if status is None:
            continue
        if not _alive(status.pid):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        if status.serves_for(server):
            found.append(status)
    return found
