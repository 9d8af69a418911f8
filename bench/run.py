"""`make bench`: measured figures for the hot paths, written to bench/results/report.md.

Everything runs on this machine's cores at once (server, load generator,
upstream), so only ratios measured in the same run are meaningful; server CPU
per request travels better to other hardware than requests/s.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import wrk  # noqa: E402

BIN = Path(sys.executable).parent
RESULTS = ROOT / "bench" / "results"
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))


def _env(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLGATE_")}
    env.update(SKILLGATE_DATA_DIR=str(workdir), SKILLGATE_LOG_LEVEL="WARNING", PYTHONPATH=str(ROOT))
    return env


def _wait(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):  # noqa: S310
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def _cli(*args: str, workdir: Path) -> dict[str, object]:
    out = subprocess.run(
        [str(BIN / "skillgate"), *args],
        cwd=workdir,
        env=_env(workdir),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def _serve(workdir: Path, port: int, workers: int = 1) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            str(BIN / "uvicorn"),
            "bench.app:app_factory",
            "--factory",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        cwd=workdir,
        env=_env(workdir),
    )
    _wait(f"http://127.0.0.1:{port}/healthz")
    return proc


def _pids(proc: subprocess.Popen[bytes]) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
    return [proc.pid, *(int(p) for p in children.stdout.split())]


def section_discovery(workdir: Path, lines: list[str], summary: dict[str, object]) -> None:
    _cli(
        "users",
        "create",
        "--email",
        "bench@example.com",
        "--password",
        "bench-password",
        "--plan",
        "unlimited",
        workdir=workdir,
    )
    key = str(
        _cli("keys", "create", "--email", "bench@example.com", "--name", "bench", workdir=workdir)[
            "full_key"
        ]
    )
    port = 18_080
    proc = _serve(workdir, port)
    try:
        base = f"http://127.0.0.1:{port}"
        auth = {"Authorization": f"Bearer {key}"}
        pids = _pids(proc)
        # Warm up (first requests fill caches and JIT nothing, but open the DB pool).
        wrk.run("warm", base + "/v1/skills", pids=pids, headers=auth, seconds=2)
        runs = [
            wrk.run(
                "constant route (baseline)", base + "/bench/constant", pids=pids, seconds=SECONDS
            ),
            wrk.run("GET /v1/me", base + "/v1/me", pids=pids, headers=auth, seconds=SECONDS),
            wrk.run(
                "GET /v1/skills", base + "/v1/skills", pids=pids, headers=auth, seconds=SECONDS
            ),
            wrk.run(
                "GET /v1/skills/github",
                base + "/v1/skills/github",
                pids=pids,
                headers=auth,
                seconds=SECONDS,
            ),
            wrk.run(
                "GET /v1/skills/github/create_issue",
                base + "/v1/skills/github/create_issue",
                pids=pids,
                headers=auth,
                seconds=SECONDS,
            ),
        ]
    finally:
        proc.terminate()
        proc.wait()
    baseline = runs[0]
    lines += [
        "## Authenticated reads (issues 2 and 3)",
        "",
        f"One uvicorn worker (uvloop, httptools), wrk -t2 -c32 -d{SECONDS}s, same run. "
        "Ratio = requests/s over the constant route of the same app.",
        "",
        "| route | req/s | p50 ms | p99 ms | server CPU us/req | ratio |",
        "|---|---|---|---|---|---|",
        *(r.row(baseline) for r in runs),
        "",
    ]
    for r in runs:
        assert r.non_2xx == 0, f"{r.name}: {r.non_2xx} non-2xx responses"
        summary[r.name] = {
            "rps": round(r.rps),
            "p50_ms": r.p50_ms,
            "p99_ms": r.p99_ms,
            "cpu_us": round(r.cpu_us_per_req),
            "ratio": round(r.rps / baseline.rps, 2),
        }


def main() -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Benchmark report",
        "",
        f"Generated by `make bench` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"{os.cpu_count()} cores, Python {platform.python_version()}. "
        "Server and load generator share the cores: compare ratios within this report.",
        "",
    ]
    summary: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="sg-bench-") as d:
        section_discovery(Path(d), lines, summary)
    (RESULTS / "report.md").write_text("\n".join(lines) + "\n")
    (RESULTS / "report.json").write_text(json.dumps(summary, indent=2) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
