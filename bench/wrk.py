"""Run wrk against a URL and read requests/s, p50, p99 and the server's CPU per request."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
_CLK = 100  # clock ticks per second (os.sysconf("SC_CLK_TCK") on Linux)


@dataclass
class Result:
    name: str
    rps: float
    p50_ms: float
    p99_ms: float
    cpu_us_per_req: float
    non_2xx: int

    def row(self, *baselines: Result) -> str:
        """A markdown table row; one ratio column per baseline."""
        ratios = " | ".join(f"{self.rps / b.rps:.2f}" for b in baselines) or "1.00"
        return (
            f"| {self.name} | {self.rps:,.0f} | {self.p50_ms:.2f} | {self.p99_ms:.2f} "
            f"| {self.cpu_us_per_req:.0f} | {ratios} |"
        )


def _ms(text: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", text)
    assert m, text
    return float(m.group(1)) * _UNITS[m.group(2)]


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total


def run(
    name: str,
    url: str,
    *,
    pids: list[int],
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: str | None = None,
    seconds: int = 10,
    connections: int = 32,
    threads: int = 2,
    lua: str | None = None,
) -> Result:
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for k, v in (headers or {}).items():
        cmd += ["-H", f"{k}: {v}"]
    script = None
    if method != "GET" or body is not None or lua is not None:
        script = Path(f"/tmp/wrk-{abs(hash((method, body, lua)))}.lua")
        escaped = (body or "").replace("\\", "\\\\").replace('"', '\\"')
        script.write_text(f'wrk.method = "{method}"\nwrk.body = "{escaped}"\n{lua or ""}\n')
        cmd += ["-s", str(script)]
    cmd.append(url)
    before = cpu_ticks(pids)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    after = cpu_ticks(pids)
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    cpu_us = (after - before) / _CLK * 1e6 / max(total, 1)
    return Result(name, rps, p50, p99, cpu_us, int(bad.group(1)) if bad else 0)


def median(name: str, url: str, *, repeats: int, **kwargs: Any) -> Result:
    """Run `repeats` times; the run with the median requests/s (PERFORMANCE.md's method)."""
    runs = sorted((run(name, url, **kwargs) for _ in range(repeats)), key=lambda r: r.rps)
    return runs[len(runs) // 2]
