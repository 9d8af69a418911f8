"""How the catalog's cost grows with the catalog (issue 25 item 5): `skillgate serve` at
1x, 1.04x (~10,000 endpoints, the goals' size, over the 9,616-endpoint catalog), 4x and
10x the shipped catalog
(bench/scale_catalog.py writes the copies).

Per size: start-up (process start to the first /healthz answer) with no snapshot (the
first start after a catalog change: it writes them) and with the snapshots the first
one wrote (median of `STARTS`); resident memory after start-up; a reload (SIGHUP, to
the worker's status file reporting it; median of `RELOADS`); and search in-process
over the same catalog (`SearchIndex.rank`, every query computed: the evaluation set's
tasks with a key that sees everything).

Part of `make bench` (section `scale`); alone, it writes bench/results/scale.md:

    .venv/bin/python bench/scale_bench.py [--factors 1,1.04,4,10]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from bench.catalog_bench import _rss_mb, _start  # noqa: E402
from bench.scale_catalog import write  # noqa: E402

FACTORS = (1, 1.04, 4, 10)  # 1.04x: ~10,000 endpoints, the goals' size
STARTS = 3
RELOADS = 3
PORT = 18_097
EVAL = ROOT / "tests" / "skillgate" / "discovery" / "search_eval.yaml"
GOALS = "<= 3 s", "<= 300 MB", "<= 3 s", "<= 2 ms"


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _reload(workdir: Path, pid: int) -> tuple[float, float]:
    """Seconds from SIGHUP to the worker reporting the reload in its status file, and
    the CPU seconds the process spent meanwhile."""
    status = workdir / "workers" / f"{pid}.json"
    before = json.loads(status.read_text())["at"]
    cpu = _cpu_s(pid)
    started = time.perf_counter()
    os.kill(pid, signal.SIGHUP)
    while time.perf_counter() - started < 120:
        try:
            if json.loads(status.read_text())["at"] != before:
                return time.perf_counter() - started, _cpu_s(pid) - cpu
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    raise RuntimeError("the reload was not reported")


def _serve(workdir: Path) -> dict[str, float]:
    """Start-ups (the first writes the snapshots), memory and reloads of one catalog."""
    proc, cold = _start(workdir, PORT, timeout=300)
    cold_cpu = _cpu_s(proc.pid)
    proc.terminate()
    proc.wait()
    warm: list[float] = []
    cpu: list[float] = []
    for _ in range(STARTS):
        proc, seconds = _start(workdir, PORT, timeout=300)
        cpu.append(_cpu_s(proc.pid))
        warm.append(seconds)
        if len(warm) < STARTS:
            proc.terminate()
            proc.wait()
    try:
        rss = _rss_mb(proc.pid)
        time.sleep(0.5)  # the worker's status file is written once it serves
        reloads = [_reload(workdir, proc.pid) for _ in range(RELOADS)]
        after = _rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
    return {
        "cold_s": cold,
        "cold_cpu_s": cold_cpu,
        "start_s": statistics.median(warm),
        "start_cpu_s": statistics.median(cpu),
        "rss_mb": rss,
        "reload_s": statistics.median(r[0] for r in reloads),
        "reload_cpu_s": statistics.median(r[1] for r in reloads),
        "rss_after_reloads_mb": after,
    }


def _search(extra: list[str]) -> tuple[int, float]:
    """Endpoints, and p50 ms of a computed ranking (run in a child: its own memory)."""
    code = (
        "import json, statistics, sys, time, yaml\n"
        "from skillgate.catalog.loader import load_catalog\n"
        "from skillgate.discovery.search import SearchIndex\n"
        "catalog = load_catalog(sys.argv[2:])\n"
        "index = SearchIndex(catalog)\n"
        "tasks = [t['task'] for t in yaml.safe_load(open(sys.argv[1]))['tasks']]\n"
        "index.rank('warm up', ('*',), None, 10)\n"
        "times = []\n"
        "for _ in range(3):\n"
        "    for task in tasks:\n"
        "        t0 = time.perf_counter_ns()\n"
        "        index.rank(task, ('*',), None, 10)\n"
        "        times.append(time.perf_counter_ns() - t0)\n"
        "print(json.dumps([catalog.endpoint_count, statistics.median(times) / 1e6]))\n"
    )
    args = [sys.executable, "-c", code, str(EVAL), *extra]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    endpoints, p50 = json.loads(out)
    return int(endpoints), float(p50)


def calibration_ms() -> float:
    """`python -c pass`, median of 5: how slow the machine is while measuring."""
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def measure(workdir: Path, factors: tuple[float, ...] = FACTORS) -> list[dict[str, float]]:
    from bench import run as br  # it imports this module

    subprocess.run([str(br.BIN / "skillgate"), "db", "upgrade"], cwd=workdir,
                   env=br._env(workdir), check=True, capture_output=True)  # fmt: skip
    rows = []
    for factor in factors:
        copies = workdir / f"catalog-{factor:g}x"
        write(copies, factor)
        cache = workdir / f"cache-{factor:g}x"  # empty: the first start writes it
        extra = [str(copies)] if factor > 1 else []
        env = {
            "SKILLGATE_CACHE_DIR": str(cache),
            "SKILLGATE_CATALOG_PATH": ":".join(extra),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),  # this tree's code
        }
        br.EXTRA_ENV.update(env, SKILLGATE_AUTO_MIGRATE="false")
        os.environ.update(env)
        try:
            served = _serve(workdir)
            endpoints, p50 = _search(extra)
        finally:
            for name in env:
                br.EXTRA_ENV.pop(name, None)
            os.environ.pop("SKILLGATE_CACHE_DIR")
            os.environ.pop("SKILLGATE_CATALOG_PATH")
        rows.append(
            {
                "factor": factor,
                "endpoints": endpoints,
                **served,
                "search_p50_ms": p50,
                "python_ms": calibration_ms(),
            }
        )
    return rows


def report(rows: list[dict[str, float]]) -> list[str]:
    lines = [
        "## The catalog's cost as it grows (issue 25 item 5)",
        "",
        "`skillgate serve`, one worker, a migrated data directory; the catalog is the "
        "shipped one and copies of it under new slugs (bench/scale_catalog.py; a fraction copies "
        "some integrations once: 1.04x is ~10,000 endpoints, the goals' size). Start-up = "
        "process start to the first /healthz answer: the first start after the catalog "
        f"changed (no snapshot yet; it writes them), then the median of {STARTS} starts "
        f"reading them. Reload: SIGHUP to the worker's status file saying it reloaded "
        f"(median of {RELOADS}). Each time: wall clock, and in brackets the server "
        "process's CPU seconds (user + system; what the machine's load does not change). "
        "Search: `SearchIndex.rank` in-process, the evaluation set's tasks, every ranking "
        "computed.",
        "",
        "| catalog | endpoints | first start | start-up | RSS after start-up | reload "
        "| RSS after reloads | search p50 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['factor']:g}x | {r['endpoints']:,.0f} "
            f"| {r['cold_s']:.2f} s ({r['cold_cpu_s']:.2f}) "
            f"| {r['start_s']:.2f} s ({r['start_cpu_s']:.2f}) | {r['rss_mb']:.0f} MB "
            f"| {r['reload_s']:.2f} s ({r['reload_cpu_s']:.2f}) "
            f"| {r['rss_after_reloads_mb']:.0f} MB | {r['search_p50_ms']:.3f} ms |"
        )
    calibration = ", ".join(f"{r['python_ms']:.0f}" for r in rows)
    lines += [f"| goal for a 10,000-endpoint catalog | | | {GOALS[0]} | {GOALS[1]} | {GOALS[2]} | "
              f"| {GOALS[3]} |", "", f"`python -c pass` after each size: {calibration} ms "
              "(the machine's load: wall-clock times compare only within a run).", ""]  # fmt: skip
    return lines


def section_scale(workdir: Path, lines: list[str], summary: dict[str, object]) -> None:
    rows = measure(workdir)
    lines += report(rows)
    summary["scale"] = rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factors", default=",".join(map(str, FACTORS)))
    factors = tuple(float(f) for f in parser.parse_args().factors.split(","))
    with tempfile.TemporaryDirectory(prefix="sg-scale-") as d:
        rows = measure(Path(d), factors)
    lines = report(rows)
    (ROOT / "bench" / "results" / "scale.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
