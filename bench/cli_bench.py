"""`svc` start-up: medians of whole-process wall time, each beside its floor.

An agent pays the client's start-up on every call, so what matters is the
wall time of one process, measured here against a local gateway:

- `python -c pass` (the interpreter's floor) and `svc --version`;
- `svc skills` beside `curl` sending the same request (the network floor);
- `svc run <integration> <endpoint> ...` beside `curl` posting the same
  `{"params"}` (skipped, with the reason, when the call does not succeed).

Uses `hyperfine -N` when installed (`apt-get install -y hyperfine`), otherwise
times the subprocesses itself. `run_cli_bench` returns markdown lines for the
`make bench` report; `python bench/cli_bench.py` starts its own server and prints them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

BIN = Path(sys.executable).parent
GOALS_MS = {"version": 60, "skills": 120, "run": 150}


def _median_ms(commands: list[str], env: dict[str, str], runs: int, workdir: Path) -> list[float]:
    """Median wall time of each command line, in milliseconds."""
    if shutil.which("hyperfine"):
        out = workdir / "hyperfine.json"
        subprocess.run(
            ["hyperfine", "-N", "--warmup", "3", "--runs", str(runs), "--export-json", str(out),
             "--style", "none", *commands],
            env=env, cwd=workdir, check=True, capture_output=True,
        )  # fmt: skip
        results = json.loads(out.read_text())["results"]
        return [r["median"] * 1000 for r in results]
    medians = []
    for command in commands:
        argv = shlex.split(command)
        for _ in range(3):
            subprocess.run(argv, env=env, cwd=workdir, capture_output=True, check=False)
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, env=env, cwd=workdir, capture_output=True, check=False)
            samples.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(samples))
    return medians


def _curl(api_key: str, url: str, body: str | None = None) -> str:
    parts = ["curl", "-s", "-o", "/dev/null", "-H", f"Authorization: Bearer {api_key}"]
    if body is not None:
        parts += ["-H", "Content-Type: application/json", "--data-binary", body]
    return shlex.join([*parts, url])


def run_cli_bench(
    base_url: str,
    api_key: str,
    workdir: Path,
    run_args: Sequence[str] | None = None,
    runs: int = 30,
) -> list[str]:
    """Markdown lines: medians over `runs` runs (>= 20) of svc beside its floors.

    `run_args` is what follows `svc run`, e.g. ["github", "get_repo", "--owner", "o",
    "--repo", "r"]; the row is skipped when that call does not exit 0.
    """
    from skillgate_cli.params import parse_params

    runs = max(runs, 20)
    svc = str(BIN / "svc")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SVC_")}
    env.update(SVC_BASE_URL=base_url, SVC_API_KEY=api_key, SVC_NO_BROWSER="1")
    python = f"{shlex.quote(sys.executable)} -c pass"
    skills_curl = _curl(api_key, base_url + "/v1/skills")
    rows: list[tuple[str, str, str | None, int | None]] = [
        ("`python -c pass` (interpreter floor)", python, None, None),
        ("`svc --version`", f"{svc} --version", None, GOALS_MS["version"]),
        ("`svc skills`", f"{svc} skills", skills_curl, GOALS_MS["skills"]),
    ]
    notes: list[str] = []
    if run_args:
        argv = [svc, "run", *run_args]
        probe = subprocess.run(argv, env=env, cwd=workdir, capture_output=True, text=True)
        if probe.returncode == 0:
            body = json.dumps({"params": parse_params(list(run_args[2:]))})
            url = f"{base_url}/v1/{run_args[0]}/{run_args[1]}"
            label = f"`svc run {' '.join(run_args[:2])}`"
            rows.append((label, shlex.join(argv), _curl(api_key, url, body), GOALS_MS["run"]))
        else:
            reason = (probe.stderr.strip().splitlines() or ["no message"])[-1]
            notes.append(
                f"`svc run {' '.join(run_args)}` skipped (exit {probe.returncode}: {reason})."
            )
    commands = [r[1] for r in rows] + [r[2] for r in rows if r[2]]
    medians = iter(_median_ms(commands, env, runs, workdir))
    svc_ms = [next(medians) for _ in rows]
    curl_ms = {i: next(medians) for i, r in enumerate(rows) if r[2]}
    tool = "hyperfine -N, 3 warm-up runs" if shutil.which("hyperfine") else "subprocess timing"
    lines = [
        "## `svc` start-up (issue 6)",
        "",
        f"Median wall time of one process over {runs} runs ({tool}) against the local "
        "gateway; the floor is `curl` sending the same request.",
        "",
        "| command | svc ms | curl ms (floor) | svc - floor ms | goal ms | met |",
        "|---|---|---|---|---|---|",
    ]
    for i, (label, _, _, goal) in enumerate(rows):
        floor = curl_ms.get(i)
        lines.append(
            f"| {label} | {svc_ms[i]:.1f} | {'' if floor is None else f'{floor:.1f}'} | "
            f"{'' if floor is None else f'{svc_ms[i] - floor:.1f}'} | "
            f"{'' if goal is None else f'<= {goal}'} | "
            f"{'' if goal is None else ('yes' if svc_ms[i] <= goal else 'NO')} |"
        )
    return [*lines, "", *notes, *([""] if notes else [])]


def _skillgate(workdir: Path, *args: str) -> dict[str, object]:
    out = subprocess.run(
        [str(BIN / "skillgate"), *args], cwd=workdir, capture_output=True, text=True, check=True
    )
    data: dict[str, object] = json.loads(out.stdout) if out.stdout.strip() else {}
    return data


def _fast_upstream() -> str:
    """A loopback "GitHub" answering every GET at once with a small JSON body."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body must not wait for a delayed ACK

        def do_GET(self) -> None:
            body = b'{"full_name":"octocat/hello-world","private":false}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    """Standalone: a fresh server whose GitHub is connected to a fast loopback upstream,
    then the benchmark. Arguments replace the default `svc run` arguments."""
    import socket
    import urllib.request

    with tempfile.TemporaryDirectory(prefix="sg-cli-bench-") as d:
        workdir = Path(d)
        email = "bench@example.com"
        _skillgate(workdir, "db", "upgrade")  # operator commands refuse to start a database
        _skillgate(
            workdir, "users", "create", "--email", email, "--password", "bench-password",
            "--plan", "unlimited",
        )  # fmt: skip
        created = _skillgate(workdir, "keys", "create", "--email", email, "--name", "b")
        key = str(created["full_key"])
        _skillgate(
            workdir, "connections", "set", "--email", email, "--integration", "github",
            "--access-token", "bench-token",
        )  # fmt: skip
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLGATE_")}
        env["SKILLGATE_LOG_LEVEL"] = "WARNING"
        env["SKILLGATE_GITHUB_BASE_URL"] = _fast_upstream()
        server = subprocess.Popen(
            [str(BIN / "skillgate"), "serve", "--port", str(port)], cwd=workdir, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    with urllib.request.urlopen(base + "/healthz", timeout=1):
                        break
                except OSError:
                    time.sleep(0.1)
            default = ["github", "get_repo", "--owner", "octocat", "--repo", "hello-world"]
            print("\n".join(run_cli_bench(base, key, workdir, sys.argv[1:] or default)))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
