"""Prometheus metrics at GET /metrics (text exposition format).

Labels are bounded: status classes, catalog slugs and endpoint names (unknown
names are never recorded), outcomes. No user, key or parameter ever appears.
Per process: with several workers, scrape each or aggregate in Prometheus.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "skillgate_http_requests_total", "HTTP requests answered, by status class.",
            ["status_class"], registry=self.registry,
        )  # fmt: skip
        self.executions = Counter(
            "skillgate_executions_total", "Executions, by integration, endpoint and outcome.",
            ["integration", "endpoint", "outcome"], registry=self.registry,
        )  # fmt: skip
        self.duration = Histogram(
            "skillgate_execution_duration_seconds", "Execution time, gateway and upstream.",
            ["integration"], registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
        )  # fmt: skip

    def request(self, status: int) -> None:
        self.requests.labels(f"{status // 100}xx").inc()

    def execution(self, integration: str, endpoint: str, outcome: str, seconds: float) -> None:
        self.executions.labels(integration, endpoint, outcome).inc()
        self.duration.labels(integration).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)
