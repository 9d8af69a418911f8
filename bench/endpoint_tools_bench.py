"""Start-up and memory with the shipped catalog, then the cost of endpoint tools'
output schemas (issue 27): `skillgate serve` (one worker) started 5 times (median to
the first /healthz), RSS idle, then RSS after three `?tools=endpoints` listings over
MCP (GitHub `issues`, Stripe `customers`, Google Compute `instances`) and each
listing's time and size.

Run from the tree to measure (its `src/` is put first on the server's PYTHONPATH:
`bench.run._env` alone would import the virtualenv's installed tree):

    PYTHONPATH=$PWD/src python bench/endpoint_tools_bench.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import catalog_bench as cb  # noqa: E402
from bench import run as br  # noqa: E402

LISTINGS = (
    "integration=github&category=issues",
    "integration=stripe&category=customers",
    "integration=google_compute&category=instances",
)


def _list_tools(base: str, key: str, query: str) -> tuple[float, int]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    request = urllib.request.Request(
        f"{base}/mcp?tools=endpoints&{query}",
        data=body.encode(),
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        size = len(response.read())
    return time.perf_counter() - started, size


def main() -> None:
    br.EXTRA_ENV["PYTHONPATH"] = f"{ROOT / 'src'}:{ROOT}"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        key = br._connected_user(work, "bench@example.com", "github")
        port = 18_197
        times: list[float] = []
        for i in range(5):
            proc, seconds = cb._start(work, port)
            times.append(seconds)
            if i < 4:
                proc.terminate()
                proc.wait()
        try:
            idle = cb._rss_mb(proc.pid)
            base = f"http://127.0.0.1:{port}"
            listed = [_list_tools(base, key, q) for q in LISTINGS]
            after = cb._rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait()
    runs = ", ".join(f"{t:.2f}" for t in times)
    print(f"start-up median {sorted(times)[2]:.2f} s (runs {runs}); RSS idle {idle:.0f} MB; "
          f"after the listings {after:.0f} MB")  # fmt: skip
    for query, (seconds, size) in zip(LISTINGS, listed, strict=True):
        print(f"  tools/list ?tools=endpoints&{query}: {seconds * 1000:.0f} ms, {size:,} bytes")


if __name__ == "__main__":
    main()
