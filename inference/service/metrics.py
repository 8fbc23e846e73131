"""Prometheus metrics in a registry of the app's own (several apps in one process do not collide)."""

from __future__ import annotations

import math
from typing import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from inference.telemetry import process_rss_mb, process_vram_mb

CONTENT_TYPE = CONTENT_TYPE_LATEST
_STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_BATCH_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64)
_MB = 1024 * 1024


class ServiceMetrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter("hangtag_requests", "HTTP requests answered, by endpoint and status code",
                                ["endpoint", "code"], registry=r)
        self.queue_depth = Gauge("hangtag_queue_depth", "requests waiting for a batch", registry=r)
        self.in_flight = Gauge("hangtag_in_flight", "requests being inferred now", registry=r)
        self.batch_size = Histogram("hangtag_batch_size", "requests per batch handed to a worker",
                                    buckets=_BATCH_BUCKETS, registry=r)
        self.stage_seconds = Histogram("hangtag_stage_seconds", "per-stage latency of served requests",
                                       ["stage"], buckets=_STAGE_BUCKETS, registry=r)
        self.request_seconds = Histogram("hangtag_request_seconds", "request latency inside the service",
                                         ["endpoint"], buckets=_STAGE_BUCKETS, registry=r)
        self.rss_bytes = Gauge("hangtag_process_rss_bytes", "resident memory of the service process", registry=r)
        self.vram_bytes = Gauge("hangtag_process_vram_bytes", "GPU memory of the service process (NaN without NVML)",
                                registry=r)
        self.rss_bytes.set_function(lambda: process_rss_mb() * _MB)
        self.vram_bytes.set_function(_vram_bytes)

    def watch_queue(self, depth: Callable[[], int], in_flight: Callable[[], int]) -> None:
        self.queue_depth.set_function(depth)
        self.in_flight.set_function(in_flight)

    def observe_stages(self, stages_ms: dict[str, float]) -> None:
        for stage, ms in stages_ms.items():
            self.stage_seconds.labels(stage).observe(ms / 1000.0)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _vram_bytes() -> float:
    mb = process_vram_mb()
    return math.nan if mb is None else mb * _MB
