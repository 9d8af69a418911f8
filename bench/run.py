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

from bench import mcp_bench, nginx, wrk  # noqa: E402
from bench.catalog_bench import section_catalog  # noqa: E402
from bench.scale_bench import section_scale  # noqa: E402

BIN = Path(sys.executable).parent
RESULTS = ROOT / "bench" / "results"
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))  # each figure: the median of this many runs
EXTRA_ENV: dict[str, str] = {}  # settings for the section being measured
# wrk: a word unique to this thread and request appended to the URL's query (words
# unknown to the catalog change no score, but the server has never seen the query).
NEW_QUERY_LUA = """
local n, tag = 0, tostring({}):gsub("%W", "")
request = function()
  n = n + 1
  return wrk.format(nil, wrk.path .. "+x" .. tag .. "n" .. n)
end
"""


def _env(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLGATE_")}
    env.update(
        SKILLGATE_DATA_DIR=str(workdir),
        SKILLGATE_LOG_LEVEL="WARNING",
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
    )
    env.update(EXTRA_ENV)
    return env


def _wait(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1):
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


def _serve(
    workdir: Path,
    port: int,
    workers: int = 1,
    app: str = "bench.app:app_factory",
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    args = [
        str(BIN / "uvicorn"),
        app,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--no-access-log",
        "--no-server-header",  # as `skillgate serve` runs (the floor gets the same)
        "--log-level",
        "warning",
    ]
    factory = app.endswith("_factory")
    if factory:
        args.append("--factory")
    proc = subprocess.Popen(args, cwd=workdir, env={**_env(workdir), **(extra_env or {})})
    try:
        _wait(f"http://127.0.0.1:{port}" + ("/healthz" if factory else "/"))
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc


def _pids(proc: subprocess.Popen[bytes]) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
    return [proc.pid, *(int(p) for p in children.stdout.split())]


def _connected_user(workdir: Path, email: str, integration: str) -> str:
    """An unlimited-plan user whose `integration` is connected; returns their API key."""
    _cli("users", "create", "--email", email, "--password", "bench-password",
         "--plan", "unlimited", workdir=workdir)  # fmt: skip
    key = str(
        _cli("keys", "create", "--email", email, "--name", "bench", workdir=workdir)["full_key"]
    )
    _cli("connections", "set", "--email", email, "--integration", integration,
         "--access-token", "t", workdir=workdir)  # fmt: skip
    return key


def _nginx(workdir: Path, port: int) -> subprocess.Popen[bytes]:
    directory = workdir / "nginx"
    directory.mkdir()
    return nginx.start(directory, port)


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
        search = "/v1/skills/search?q=open+a+bug+about+the+login+page"
        targets = [  # (row name, path, authenticated, wrk Lua)
            ("constant FastAPI route (baseline A)", "/bench/constant", False, None),
            ("constant raw ASGI route (baseline B)", "/bench/constant-raw", False, None),
            *((f"GET {path}", path, True, None) for path in (
                "/v1/me", "/v1/skills", "/v1/skills/github", "/v1/skills/github/create_issue",
                # GitHub's list is 1,197 endpoints (~280 KB) since issue 13; these two are
                # the size the GitHub list was before (42 endpoints): a like-for-like ratio.
                "/v1/skills/slack", "/v1/skills/github?category=pull_requests",
                search,
            )),
            # Every request a query never asked before: the ranking computed, not reused.
            (f"GET {search}+<n> (new each time)", search, True, NEW_QUERY_LUA),
        ]  # fmt: skip
        runs = [
            wrk.median(
                name,
                base + path,
                pids=pids,
                headers=auth if authenticated else None,
                seconds=SECONDS,
                repeats=REPEATS,
                lua=lua,
            )
            for name, path, authenticated, lua in targets
        ]
    finally:
        proc.terminate()
        proc.wait()
    baseline, raw = runs[0], runs[1]
    lines += [
        "## Authenticated reads (issues 2 and 3)",
        "",
        f"One uvicorn worker (uvloop, httptools), wrk -t2 -c32 -d{SECONDS}s, same run. "
        "Ratio A = requests/s over the app's constant FastAPI route (first in the route "
        "list): the issue's baseline. Ratio B = over a constant raw-ASGI route inside the "
        "same request middleware as the API's hot routes, without authentication: the "
        "stricter baseline (what a response costs before the route does any work).",
        "",
        "| route | req/s | p50 ms | p99 ms | server CPU us/req | ratio A | ratio B |",
        "|---|---|---|---|---|---|---|",
        *(r.row(baseline, raw) for r in runs),
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
            "ratio_raw": round(r.rps / raw.rps, 2),
        }


def section_execute(workdir: Path, lines: list[str], summary: dict[str, object]) -> None:
    upstream_port, floor_port, gw_port, gw2_port = 18_090, 18_091, 18_092, 18_093
    upstream = f"http://127.0.0.1:{upstream_port}"
    env = {
        "SKILLGATE_CATALOG_PATH": str(ROOT / "tests" / "fixtures" / "catalog"),
        "SKILLGATE_SAMPLE_BASE_URL": upstream,
    }
    EXTRA_ENV.update(env)  # for the operator commands and servers below
    key = _connected_user(workdir, "exec@example.com", "sample")
    body = '{"params":{"username":"x"}}'
    auth = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    ngx = _nginx(workdir, upstream_port)
    procs: list[subprocess.Popen[bytes]] = [ngx]
    try:
        floor = _serve(
            workdir, floor_port, app="bench.floor_proxy:app", extra_env={"FLOOR_UPSTREAM": upstream}
        )
        procs.append(floor)
        gw = _serve(workdir, gw_port, extra_env=env)
        procs.append(gw)
        gw_url = f"http://127.0.0.1:{gw_port}/v1/sample/get_user"
        floor_url = f"http://127.0.0.1:{floor_port}/"
        wrk.run("warm", gw_url, pids=_pids(gw), headers=auth, method="POST", body=body, seconds=2)
        wrk.run("warm", floor_url, pids=_pids(floor), method="POST", body=body, seconds=2)
        a = wrk.median(
            "(a) floor: raw ASGI + aiohttp, 1 worker",
            floor_url,
            pids=_pids(floor),
            method="POST",
            body=body,
            seconds=SECONDS,
            repeats=REPEATS,
        )
        b = wrk.median(
            "(b) gateway execute, 1 worker",
            gw_url,
            pids=_pids(gw),
            headers=auth,
            method="POST",
            body=body,
            seconds=SECONDS,
            repeats=REPEATS,
        )
        mcp = mcp_bench.measure(f"http://127.0.0.1:{gw_port}", key, _pids(gw), SECONDS, REPEATS)
        direct1 = wrk.median(
            "direct upstream, concurrency 1",
            upstream + "/users/x",
            pids=[ngx.pid],
            seconds=SECONDS,
            repeats=REPEATS,
            connections=1,
            threads=1,
        )
        gw1 = wrk.median(
            "gateway execute, concurrency 1",
            gw_url,
            pids=_pids(gw),
            headers=auth,
            method="POST",
            body=body,
            seconds=SECONDS,
            repeats=REPEATS,
            connections=1,
            threads=1,
        )
        gw.terminate()
        gw.wait()
        procs.remove(gw)
        gw2 = _serve(workdir, gw2_port, workers=2, extra_env=env)
        procs.append(gw2)
        gw2_url = f"http://127.0.0.1:{gw2_port}/v1/sample/get_user"
        wrk.run("warm", gw2_url, pids=_pids(gw2), headers=auth, method="POST", body=body, seconds=2)
        c = wrk.median(
            "(c) gateway execute, 2 workers",
            gw2_url,
            pids=_pids(gw2),
            headers=auth,
            method="POST",
            body=body,
            seconds=SECONDS,
            repeats=REPEATS,
        )
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
    for r in (a, b, c, direct1, gw1, *mcp.values()):
        assert r.non_2xx == 0, f"{r.name}: {r.non_2xx} non-2xx responses"
    added = gw1.p50_ms - direct1.p50_ms
    lines += [
        "## Execution (issue 4)",
        "",
        f"`POST /v1/sample/get_user` for a connected user on the unlimited plan, upstream a "
        f"loopback nginx returning 11 bytes; wrk -t2 -c32 -d{SECONDS}s unless noted. "
        "Ratio = requests/s over (a). Execution log, key and credential caches on, "
        "as in production.",
        "",
        "| variant | req/s | p50 ms | p99 ms | server CPU us/req | ratio |",
        "|---|---|---|---|---|---|",
        a.row(a),
        b.row(a),
        c.row(a),
        "",
        f"Concurrency 1 (wrk -t1 -c1): direct nginx p50 {direct1.p50_ms:.3f} ms, through the "
        f"gateway p50 {gw1.p50_ms:.3f} ms: the gateway adds **{added:.2f} ms** at p50 "
        f"(p99 {gw1.p99_ms:.2f} ms).",
        "",
        *mcp_bench.lines(b, mcp, a),
    ]
    summary["execute"] = {
        "floor_rps": round(a.rps),
        "gateway_1w_rps": round(b.rps),
        "gateway_2w_rps": round(c.rps),
        "ratio_b_a": round(b.rps / a.rps, 2),
        "added_p50_ms_at_c1": round(added, 3),
        "gateway_cpu_us": round(b.cpu_us_per_req),
        "floor_cpu_us": round(a.cpu_us_per_req),
        "mcp_run_rps": round(mcp["mcp_run"].rps),
        "mcp_run_cpu_us": round(mcp["mcp_run"].cpu_us_per_req),
        "mcp_run_cpu_ratio": round(mcp["mcp_run"].cpu_us_per_req / b.cpu_us_per_req, 2),
        "http_search_p50_ms": mcp["http_search"].p50_ms,
        "mcp_search_p50_ms": mcp["mcp_search"].p50_ms,
    }


def section_cli(workdir: Path, lines: list[str], summary: dict[str, object]) -> None:
    from bench.cli_bench import run_cli_bench

    upstream_port, gw_port = 18_094, 18_095
    EXTRA_ENV.clear()
    EXTRA_ENV["SKILLGATE_GITHUB_BASE_URL"] = f"http://127.0.0.1:{upstream_port}"
    key = _connected_user(workdir, "cli@example.com", "github")
    procs = [_nginx(workdir, upstream_port)]
    try:
        procs.append(_serve(workdir, gw_port))
        run_args = ["github", "get_repo", "--owner", "octocat", "--repo", "hello-world"]
        table = run_cli_bench(f"http://127.0.0.1:{gw_port}", key, workdir, run_args)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
    lines += [*table, ""]
    summary["cli"] = table


def main() -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [
        "# Benchmark report",
        "",
        f"Generated by `make bench` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; "
        f"{os.cpu_count()} cores, Python {platform.python_version()}. "
        "Server and load generator share the cores: compare ratios within this report. "
        f"Each figure is the run with the median requests/s of {REPEATS} runs.",
        "",
    ]
    summary: dict[str, object] = {}
    only = os.environ.get("BENCH_ONLY")  # e.g. BENCH_ONLY=execute while iterating
    sections = (
        ("discovery", section_discovery),
        ("execute", section_execute),
        ("cli", section_cli),
        ("catalog", section_catalog),
        ("scale", section_scale),
    )
    for name, section in sections:
        if only and only != name:
            continue
        with tempfile.TemporaryDirectory(prefix="sg-bench-") as d:
            section(Path(d), lines, summary)
    (RESULTS / "report.md").write_text("\n".join(lines) + "\n")
    (RESULTS / "report.json").write_text(json.dumps(summary, indent=2) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
