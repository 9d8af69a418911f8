"""What the execution log's write-ahead spool adds to `ExecutionWriter.record()`.

`python bench/record_cost.py`: µs per call without a spool (rows only queued in
memory, as before the spool) and with one (one JSON line appended with os.write
first), alternating, best and median of 7 runs of 20,000 calls each. The sink
discards rows and never runs: only `record()` itself is timed.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import timeit
from pathlib import Path

from skillgate.executions.sinks import Row
from skillgate.executions.writer import ExecutionWriter

CALLS, RUNS = 20_000, 7
ROW = {
    "user_id": "usr_0123456789abcdef",
    "key_id": "key_0123456789abcdef",
    "integration": "github",
    "endpoint": "get_repo",
    "upstream_status": 200,
    "error": None,
    "duration_ms": 12.3,
}


class _Discard:
    async def insert(self, rows: list[Row]) -> None:
        return None

    async def close(self) -> None:
        return None


async def main() -> None:
    big = 10**9  # no flush is ever due
    with tempfile.TemporaryDirectory() as spool_dir:
        writers = {
            "without spool": ExecutionWriter(_Discard(), batch=big, max_pending=big),
            "with spool": ExecutionWriter(
                _Discard(), batch=big, max_pending=big, spool_dir=Path(spool_dir)
            ),
        }
        writers["with spool"].start()
        times: dict[str, list[float]] = {name: [] for name in writers}
        for _ in range(RUNS):
            for name, writer in writers.items():
                spent = timeit.timeit(lambda w=writer: w.record(**ROW), number=CALLS)
                times[name].append(spent / CALLS * 1e6)
        for name, values in times.items():
            print(
                f"record() {name}: best {min(values):.2f} us, "
                f"median {statistics.median(values):.2f} us per call"
            )
        for writer in writers.values():
            await writer.close()


if __name__ == "__main__":
    asyncio.run(main())
