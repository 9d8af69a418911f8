"""Prometheus metrics at GET /metrics (text exposition format).

Labels are bounded: status classes, catalog slugs and endpoint names (unknown
names are never recorded), outcomes. No user, key or parameter ever appears.
Per process: with several workers, scrape each or aggregate in Prometheus.

Counting is plain integer arithmetic on the request path (the event loop is
the only writer); prometheus_client only formats the families at scrape time.
Its own Counter and Histogram take a lock per increment, which was a visible
share of a proxied request's CPU.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class _Histogram:
    __slots__ = ("counts", "total")

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)  # the last one is +Inf
        self.total = 0.0


class Metrics:
    def __init__(self) -> None:
        self._requests: dict[int, int] = {}  # status -> count
        self._executions: dict[tuple[str, str, str], int] = {}
        self._durations: dict[str, _Histogram] = {}
        self._dead_letter: dict[str, int] = {}  # kind (row, file) -> count
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(self)

    def request(self, status: int) -> None:
        self._requests[status] = self._requests.get(status, 0) + 1

    def execution(self, integration: str, endpoint: str, outcome: str, seconds: float) -> None:
        key = (integration, endpoint, outcome)
        self._executions[key] = self._executions.get(key, 0) + 1
        histogram = self._durations.get(integration)
        if histogram is None:
            histogram = self._durations[integration] = _Histogram()
        histogram.counts[bisect_left(BUCKETS, seconds)] += 1
        histogram.total += seconds

    def dead_letter(self, kind: str) -> None:
        """An execution-log row the database refused, or a spool file that could not be
        read, set aside in the dead-letter directory (executions.deadletter)."""
        self._dead_letter[kind] = self._dead_letter.get(kind, 0) + 1

    def collect(self) -> Iterator[Metric]:
        requests = CounterMetricFamily(
            "skillgate_http_requests", "HTTP requests answered, by status class.",
            labels=["status_class"],
        )  # fmt: skip
        by_class: dict[str, int] = {}
        for status, count in list(self._requests.items()):
            label = f"{status // 100}xx"
            by_class[label] = by_class.get(label, 0) + count
        for label, count in sorted(by_class.items()):
            requests.add_metric([label], count)
        yield requests

        executions = CounterMetricFamily(
            "skillgate_executions", "Executions, by integration, endpoint and outcome.",
            labels=["integration", "endpoint", "outcome"],
        )  # fmt: skip
        for (integration, endpoint, outcome), count in sorted(self._executions.items()):
            executions.add_metric([integration, endpoint, outcome], count)
        yield executions

        durations = HistogramMetricFamily(
            "skillgate_execution_duration_seconds", "Execution time, gateway and upstream.",
            labels=["integration"],
        )  # fmt: skip
        for integration, histogram in sorted(self._durations.items()):
            cumulative, buckets = 0, []
            for bound, count in zip((*BUCKETS, float("inf")), histogram.counts, strict=True):
                cumulative += count
                buckets.append(("+Inf" if bound == float("inf") else repr(bound), cumulative))
            durations.add_metric([integration], buckets, histogram.total)
        yield durations

        dead = CounterMetricFamily(
            "skillgate_execution_log_dead_letter",
            "Execution-log rows the database refused (row) and unreadable spool files "
            "(file), kept in the dead-letter directory instead of being stored.",
            labels=["kind"],
        )
        for kind in ("row", "file"):
            dead.add_metric([kind], self._dead_letter.get(kind, 0))
        yield dead

    def render(self) -> bytes:
        return generate_latest(self.registry)
