"""Instructions per request under callgrind: a before/after measure that load cannot move.

On this machine's two shared cores, requests/s and CPU time drift by 10-20 %
between runs of the same code. `valgrind --tool=callgrind` counts the
instructions the server process executes, which is the same from run to run
within ~1 % whatever else the machine is doing. This script starts the real
server (uvicorn, uvloop, httptools, as `make bench` does) under callgrind, warms
it up, zeroes the counters, sends N sequential keep-alive requests per route,
and divides the instructions counted by N. Execute is measured against nginx
as the upstream, with the raw-ASGI + aiohttp floor of `make bench` beside it.

    .venv/bin/python bench/instructions.py            # this tree
    /other/tree/.venv/bin/python bench/instructions.py --tree /other/tree

Compare two trees by running it in each (the counts are absolute, not ratios).
The server's key, connection-status and credential caches are pinned for the run
(their TTL raised to a day, `PINNED_APP`): with the default 1 s TTL the number of
reloads per request depends on how fast the run goes (the same code measured 848k,
871k and 989k instructions per execute), so the count would not be load-independent.
Search is measured over the full shipped catalog twice: one query asked again and
again (the kept answer reused) and every request a query not asked before (the
evaluation set's tasks, each with a round number the analyzer drops as a bare
number: the ranking computed every time, as for an agent's new request).
Requires valgrind (on every machine of this workplace) and nginx (bench/setup.sh).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
DISCOVERY = (
    "/v1/me",
    "/v1/skills",
    "/v1/skills/github",
    "/v1/skills/github/create_issue",
    "/bench/constant",
    "/bench/constant-raw",
)
EXECUTE_BODY = b'{"params":{"username":"x"}}'
SEARCH = "/v1/skills/search?q="
EVAL = HERE / "tests/skillgate/discovery/search_eval.yaml"
# bench.app's app with every TTL cache pinned for the run (written into the working
# directory, which `python -m uvicorn` imports from, so any tree's app can be measured).
# The settings are the cached `get_settings()` that `create_app()` uses; the TTL is
# set after validation because the setting itself allows at most 60 s.
PINNED_APP = """from bench.app import app_factory as _app_factory
from skillgate.settings import get_settings


def app_factory():
    get_settings().key_cache_ttl = 86_400.0
    return _app_factory()
"""


def new_queries(tree: Path, n: int, first: int = 0) -> list[str]:
    """`n` search paths no server has seen, from the tree's evaluation set."""
    import yaml

    sets = yaml.safe_load((tree / EVAL.relative_to(HERE)).read_text(encoding="utf-8"))
    tasks = [t["task"] for t in sets["tasks"] + sets["held_out"]]
    paths = []
    for i in range(first, first + n):
        text = f"{tasks[i % len(tasks)]} {i // len(tasks)}"
        paths.append(SEARCH + urllib.parse.quote_plus(text))
    return paths


class Server:
    """A uvicorn app under callgrind, driven over one keep-alive connection."""

    def __init__(self, tree: Path, workdir: Path, app: str, port: int, env: dict[str, str]):
        self.port = port
        self.out = workdir / f"callgrind-{port}.out"
        args = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}",
                "--dump-instr=no", str(tree / ".venv/bin/python"), "-m", "uvicorn", app,
                *(["--factory"] if app.endswith("_factory") else []), "--port", str(port),
                "--loop", "uvloop", "--http", "httptools", "--no-access-log",
                "--no-server-header", "--log-level", "warning"]  # fmt: skip
        self.proc = subprocess.Popen(args, cwd=workdir, env=env, stderr=subprocess.DEVNULL)
        self.dumps = 0

    def connect(self, probe: Path | str, send: dict[str, object]) -> http.client.HTTPConnection:
        # Start-up under valgrind is slow: minutes, more on a loaded machine (the counts
        # after it do not depend on how long it took).
        deadline = time.monotonic() + 1_200
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                self.request(conn, str(probe), send)
                return conn
            except (OSError, http.client.HTTPException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)

    @staticmethod
    def request(conn: http.client.HTTPConnection, path: str, send: dict[str, object]) -> None:
        conn.request(str(send.get("method", "GET")), path, body=send.get("body"),  # type: ignore[arg-type]
                     headers=send.get("headers", {}))  # type: ignore[arg-type]  # fmt: skip
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {body[:200]!r}")

    def per_request(
        self, path: str | list[str], send: dict[str, object], n: int, warm: list[str] | None = None
    ) -> float:
        """Instructions per request for `path` (a list: each request the next of them,
        `warm` the 50 warm-up requests' paths)."""
        paths = [path] * n if isinstance(path, str) else path
        warm = warm or [paths[0]] * 50
        conn = self.connect(warm[0], send)
        for p in warm:
            self.request(conn, p, send)
        subprocess.run(["callgrind_control", "-z", str(self.proc.pid)], check=True,
                       capture_output=True)  # fmt: skip
        for p in paths[:n]:
            self.request(conn, p, send)
        subprocess.run(["callgrind_control", "-d", str(self.proc.pid)], check=True,
                       capture_output=True)  # fmt: skip
        conn.close()
        self.dumps += 1
        dump = Path(f"{self.out}.{self.dumps}")
        deadline = time.monotonic() + 30
        while not dump.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.3)  # the dump is written in one go; let it finish
        found = re.search(r"^(?:summary|totals):\s+(\d+)", dump.read_text(errors="replace"), re.M)
        if found is None:
            raise RuntimeError(f"{dump}: no instruction total")
        return int(found.group(1)) / n

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait()


def _server_env(tree: Path, upstream: int) -> dict[str, str]:
    """What the measured servers run with besides bench.run's settings."""
    return {
        # The tree's own code first: the virtualenv's editable install may be another
        # checkout's (a worktree measured with a shared virtualenv).
        "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)]),
        "SKILLGATE_CATALOG_PATH": str(tree / "tests/fixtures/catalog"),
        "SKILLGATE_SAMPLE_BASE_URL": f"http://127.0.0.1:{upstream}",
        "FLOOR_UPSTREAM": f"http://127.0.0.1:{upstream}",
        # One BLAS thread (the semantic look's products): idle threads spinning under
        # callgrind are counted (in process, three runs of the same code counted 568M,
        # 585M and 601M instructions over 300 new queries with BLAS's own threads, two
        # 541.9M with one).
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE, help="the checkout to measure")
    parser.add_argument("-n", type=int, default=500, help="requests per route")
    args = parser.parse_args()
    tree: Path = args.tree.resolve()
    sys.path.insert(0, str(tree))
    import bench.run as br  # the tree's own set-up helpers (users, keys, nginx)

    br.BIN = tree / ".venv/bin"
    workdir = Path(tempfile.mkdtemp(prefix="instructions-"))
    upstream = 18_390
    br.EXTRA_ENV.update(_server_env(tree, upstream))
    key = br._connected_user(workdir, "bench@example.com", "sample")
    env = br._env(workdir)
    auth = {"Authorization": f"Bearer {key}"}
    rows: list[tuple[str, float]] = []
    (workdir / "pinned_app.py").write_text(PINNED_APP)
    gateway = Server(tree, workdir, "pinned_app:app_factory", 18_391, env)
    try:
        for path in DISCOVERY:
            rows.append((f"GET {path}", gateway.per_request(path, {"headers": auth}, args.n)))
            print(f"{rows[-1][0]}: {rows[-1][1]:,.0f}", file=sys.stderr)
        asked = SEARCH + "open+a+bug+about+the+login+page"
        rows.append(
            (f"GET {asked} (answer kept)", gateway.per_request(asked, {"headers": auth}, args.n))
        )
        warm, fresh = new_queries(tree, 50, 10_000), new_queries(tree, args.n)
        rows.append(("GET /v1/skills/search, a new query each time",
                     gateway.per_request(fresh, {"headers": auth}, args.n, warm)))  # fmt: skip
        for row in rows[-2:]:
            print(f"{row[0]}: {row[1]:,.0f}", file=sys.stderr)
        nginx = br._nginx(workdir, upstream)
        try:
            execute = {"method": "POST", "body": EXECUTE_BODY,
                       "headers": {**auth, "Content-Type": "application/json"}}  # fmt: skip
            rows.append(("POST /v1/sample/get_user (b)",
                         gateway.per_request("/v1/sample/get_user", execute, args.n)))  # fmt: skip
            gateway.stop()
            floor = Server(tree, workdir, "bench.floor_proxy:app", 18_392, env)
            bare = {**execute, "headers": {}}
            try:
                rows.append(("floor: raw ASGI + aiohttp (a)", floor.per_request("/", bare, args.n)))
            finally:
                floor.stop()
        finally:
            nginx.terminate()
            nginx.wait()
    finally:
        gateway.stop()
    print(f"Instructions per request under callgrind ({tree.name}, {args.n} requests each)\n")
    print("| route | instructions/request |\n|---|---|")
    for name, count in rows:
        print(f"| {name} | {count:,.0f} |")
    print(f"\nexecute a/b in instructions: {rows[-1][1] / rows[-2][1]:.3f}")
    counts = dict(rows)
    raw = counts["GET /bench/constant-raw"]
    for name, count in rows:
        if "search" in name:
            print(f"{name}: {count / raw:.2f}x the raw constant route's instructions")


if __name__ == "__main__":
    main()
