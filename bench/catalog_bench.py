"""The catalog at scale (issue 13): start-up and memory with the whole shipped
catalog, search in-process, and `svc pull github` (wall time and bytes written).

Part of `make bench` (section `catalog`); `BENCH_ONLY=catalog` runs it alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STARTS = 3  # start-up: the median of this many cold starts


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def _get(url: str, key: str) -> bytes:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        data: bytes = response.read()
        return data


def _start(workdir: Path, port: int, timeout: float = 60) -> tuple[subprocess.Popen[bytes], float]:
    """`skillgate serve` (one worker) on a migrated data directory; seconds to /healthz."""
    from bench import run as br

    env = {**br._env(workdir), "SKILLGATE_AUTO_MIGRATE": "false"}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(br.BIN / "skillgate"), "serve", "--port", str(port)],
        cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc, time.perf_counter() - started
        except OSError:
            if time.perf_counter() - started > timeout or proc.poll() is not None:
                proc.kill()
                raise
            time.sleep(0.01)


def _pull(workdir: Path, url: str, key: str) -> tuple[float, int, int]:
    """`svc pull github` into a fresh project: (seconds, bytes written, files written)."""
    from bench import run as br

    project = workdir / "project"
    (project / ".claude").mkdir(parents=True)
    env = {**os.environ, "SVC_API_KEY": key, "SVC_BASE_URL": url}
    started = time.perf_counter()
    subprocess.run([str(br.BIN / "svc"), "pull", "github"], cwd=project, env=env,
                   check=True, capture_output=True)  # fmt: skip
    seconds = time.perf_counter() - started
    files = [p for p in (project / ".claude").rglob("*") if p.is_file()]
    return seconds, sum(p.stat().st_size for p in files), len(files)


def section_catalog(workdir: Path, lines: list[str], summary: dict[str, object]) -> None:
    from bench import run as br
    from skillgate.catalog.loader import load_catalog

    catalog = load_catalog()
    endpoints = catalog.endpoint_count
    key = br._connected_user(workdir, "catalog@example.com", "github")
    port = 18_096
    times: list[float] = []
    for _ in range(STARTS):
        proc, seconds = _start(workdir, port)
        times.append(seconds)
        if len(times) < STARTS:
            proc.terminate()
            proc.wait()
    try:
        base = f"http://127.0.0.1:{port}"
        idle = _rss_mb(proc.pid)
        for slug in catalog.integrations:
            _get(f"{base}/v1/skills/{slug}", key)
            _get(f"{base}/v1/{slug}/download", key)
        busy = _rss_mb(proc.pid)
        pull_s, pull_bytes, pull_files = _pull(workdir, base, key)
    finally:
        proc.terminate()
        proc.wait()
    search = subprocess.run([sys.executable, str(ROOT / "bench" / "search_bench.py")],
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    start_s = sorted(times)[len(times) // 2]
    lines += [
        "## The catalog at scale (issue 13)",
        "",
        f"{len(catalog.integrations)} integrations, {endpoints} endpoints. `skillgate serve`, "
        f"one worker, a migrated data directory; start-up = process start to the first "
        f"/healthz answer, median of {STARTS}.",
        "",
        "| measure | value | goal |",
        "|---|---|---|",
        f"| start-up with the whole catalog | {start_s:.2f} s | <= 3 s |",
        f"| resident memory after start-up | {idle:.0f} MB | <= 250 MB |",
        f"| ... after every integration's endpoint list and bundle | {busy:.0f} MB | |",
        f"| `svc pull github` | {pull_s:.2f} s, {pull_bytes / 1e6:.1f} MB in {pull_files} "
        "files | reported |",
        "",
        "Search in-process (`bench/search_bench.py`):",
        "",
        "```",
        search.strip(),
        "```",
        "",
    ]
    summary["catalog"] = {
        "integrations": len(catalog.integrations),
        "endpoints": endpoints,
        "startup_s": round(start_s, 2),
        "rss_mb": round(idle),
        "rss_busy_mb": round(busy),
        "pull_github_s": round(pull_s, 2),
        "pull_github_bytes": pull_bytes,
        "pull_github_files": pull_files,
    }
