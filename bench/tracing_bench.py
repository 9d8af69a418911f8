"""The cost of OpenTelemetry spans on the execute path (kit/tracing.py), per call.

    .venv/bin/python -m bench.tracing_bench

Off (the default) the executor's accounting only tests `tracing.SPANS is not None`;
on, it builds the attributes and makes one span (here to an in-memory exporter
through a SimpleSpanProcessor, the most an exporter can cost in-line; a
BatchSpanProcessor, what `console`/`otlp` use, queues the span instead).
"""

from __future__ import annotations

import time

from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from skillgate.executor.service import _span
from skillgate.kit import tracing
from skillgate.kit.principal import Principal

N = 20_000


def _per_call_us(principal: Principal) -> float:
    started = time.perf_counter()
    for _ in range(N):
        if tracing.SPANS is not None:
            _span(principal, "sample", "get_user", 200, None, started, None)
    return (time.perf_counter() - started) / N * 1e6


def main() -> None:
    principal = Principal("usr_bench", "bench@example.com", "Bench", "free", "session")
    tracing.configure(None)
    off = min(_per_call_us(principal) for _ in range(5))
    exporter = InMemorySpanExporter()
    tracing.configure(processor=SimpleSpanProcessor(exporter))
    on = min(_per_call_us(principal) for _ in range(5))
    tracing.configure(None)
    print(f"spans off: {off * 1000:.1f} ns per call; on (in-memory exporter): {on:.1f} us per call")


if __name__ == "__main__":
    main()
