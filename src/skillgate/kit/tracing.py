"""OpenTelemetry spans of the gateway's decisions and executions, off by default.

    SKILLGATE_OTEL_EXPORTER   unset: off (no tracer exists; the execute path only
                              tests `SPANS is None`), `console` (spans on stdout),
                              `otlp` (OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT,
                              needs the opentelemetry-exporter-otlp-proto-http
                              package, not installed by default)

Spans are made after the fact, with the call's own start and end times: the execute
path is not wrapped in a context manager. Attributes name what ran and what was
decided, never parameter values, tokens or keys (a key's id is an identifier, not a
secret; its secret never reaches the executor's log or here).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the SDK is imported only when tracing is configured
    from opentelemetry.sdk.trace import SpanProcessor
    from opentelemetry.trace import Tracer

EXPORTERS = ("console", "otlp")
SERVICE = "skillgate"


class Spans:
    """One tracer of its own provider (not the process-global one)."""

    def __init__(self, processor: SpanProcessor) -> None:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider

        self.provider = TracerProvider(resource=Resource.create({"service.name": SERVICE}))
        self.provider.add_span_processor(processor)
        self.tracer: Tracer = self.provider.get_tracer("skillgate")

    def span(self, name: str, attributes: dict[str, Any], start_ns: int | None = None) -> None:
        shown = {k: v for k, v in attributes.items() if v is not None}
        span = self.tracer.start_span(name, attributes=shown, start_time=start_ns)
        span.end()

    def shutdown(self) -> None:
        self.provider.shutdown()


SPANS: Spans | None = None


def processor_for(exporter: str) -> SpanProcessor:
    """The batch processor of a named exporter; ValueError naming the setting else."""
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter

    if exporter == "console":
        return BatchSpanProcessor(ConsoleSpanExporter())
    if exporter == "otlp":
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # type: ignore[import-not-found]
                OTLPSpanExporter,
            )
        except ImportError as exc:
            raise ValueError(
                "SKILLGATE_OTEL_EXPORTER=otlp needs the opentelemetry-exporter-otlp-proto-http "
                "package (pip install it in the gateway's environment), or use `console`."
            ) from exc
        return BatchSpanProcessor(OTLPSpanExporter())  # OTEL_EXPORTER_OTLP_* settings
    raise ValueError(f"SKILLGATE_OTEL_EXPORTER: one of {', '.join(EXPORTERS)}, not {exporter!r}.")


def configure(exporter: str | None = None, processor: SpanProcessor | None = None) -> None:
    """Turn spans on with `exporter` (a name) or `processor` (tests: an in-memory
    exporter's); off when both are None."""
    global SPANS
    if SPANS is not None:
        SPANS.shutdown()
    chosen = processor or (processor_for(exporter) if exporter else None)
    SPANS = Spans(chosen) if chosen is not None else None


def span(name: str, attributes: dict[str, Any], elapsed_s: float = 0.0) -> None:
    """One span named `name`, started `elapsed_s` ago and ended now; nothing when off.
    Hot paths test `SPANS is not None` themselves before building `attributes`."""
    if SPANS is not None:
        SPANS.span(name, attributes, time.time_ns() - int(elapsed_s * 1e9))
