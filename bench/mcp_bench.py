"""The MCP door beside the HTTP API, for the execute section of `make bench` (issue 14).

`run_skill` over MCP against `POST /v1/sample/get_user`, and `search_skills` against
`GET /v1/skills/search`, on the same server process in the same run. Each MCP call is
one stateless POST /mcp with a JSON-RPC `tools/call` (the 2025-11-25 handshake
revision, what clients speak today; no session), answered with JSON.
"""

from __future__ import annotations

import json
from urllib.parse import quote_plus

from bench import wrk

HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}
QUERY = "open a bug about the login page"


def _tool_call(name: str, arguments: dict[str, object]) -> str:
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}  # fmt: skip
    return json.dumps(call)


def measure(
    base: str, key: str, pids: list[int], seconds: int, repeats: int
) -> dict[str, wrk.Result]:
    """`mcp_run`, `http_search`, `mcp_search`: wrk medians on the running gateway."""
    auth = {"Authorization": f"Bearer {key}"}
    run = _tool_call("run_skill", {"integration": "sample", "endpoint": "get_user",
                                   "params": {"username": "x"}})  # fmt: skip
    search = _tool_call("search_skills", {"query": QUERY})
    mcp = {**HEADERS, **auth}
    wrk.run("warm", base + "/mcp", pids=pids, headers=mcp, method="POST", body=run, seconds=2)
    return {
        "mcp_run": wrk.median("(d) run_skill over MCP, 1 worker", base + "/mcp", pids=pids,
                              headers=mcp, method="POST", body=run, seconds=seconds,
                              repeats=repeats),
        "http_search": wrk.median("GET /v1/skills/search", base + "/v1/skills/search?q="
                                  + quote_plus(QUERY), pids=pids, headers=auth,
                                  seconds=seconds, repeats=repeats),
        "mcp_search": wrk.median("search_skills over MCP", base + "/mcp", pids=pids,
                                 headers=mcp, method="POST", body=search, seconds=seconds,
                                 repeats=repeats),
    }  # fmt: skip


def lines(b: wrk.Result, found: dict[str, wrk.Result], baseline: wrk.Result) -> list[str]:
    run, http_search, mcp_search = found["mcp_run"], found["http_search"], found["mcp_search"]
    cpu = run.cpu_us_per_req / b.cpu_us_per_req
    return [
        "### The MCP door (issue 14)",
        "",
        "The same gateway process: `run_skill` as one stateless `POST /mcp` (JSON-RPC "
        "`tools/call`, protocol 2025-11-25, JSON answer) against (b); `search_skills` "
        f"against `GET /v1/skills/search` for {QUERY!r} (the whole catalog).",
        "",
        "| variant | req/s | p50 ms | p99 ms | server CPU us/req | ratio |",
        "|---|---|---|---|---|---|",
        b.row(baseline),
        run.row(baseline),
        http_search.row(baseline),
        mcp_search.row(baseline),
        "",
        f"`run_skill` over MCP costs **{cpu:.2f}x** the server CPU per call of the HTTP "
        f"execute route (must hold: <= 1.5x). `search_skills` p50 {mcp_search.p50_ms:.2f} ms, "
        f"the HTTP search route p50 {http_search.p50_ms:.2f} ms.",
        "",
    ]
