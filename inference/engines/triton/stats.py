"""Server-side times from Triton's statistics extension, as per-request averages over an interval.

Triton reports cumulative nanoseconds per model (queue, compute input/infer/output), summed per
request; the difference of two snapshots divided by the requests between them is what one request
spent waiting in the server's queue and being computed, across every client of that server.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerTimes:
    queue_ns: int
    compute_ns: int
    requests: int  # how many requests the averages cover


@dataclass(frozen=True)
class Snapshot:
    count: int
    queue_ns: int
    compute_ns: int

    @classmethod
    def of(cls, model_stats: dict) -> Snapshot:
        stats = model_stats.get("inference_stats", {})

        def ns(key: str) -> int:
            return int(stats.get(key, {}).get("ns", 0) or 0)

        count = int(stats.get("success", {}).get("count", 0) or 0)
        return cls(count, ns("queue"), ns("compute_input") + ns("compute_infer") + ns("compute_output"))

    def since(self, earlier: Snapshot) -> ServerTimes | None:
        requests = self.count - earlier.count
        if requests <= 0:
            return None
        return ServerTimes((self.queue_ns - earlier.queue_ns) // requests,
                           (self.compute_ns - earlier.compute_ns) // requests, requests)


def batch_sizes(model_stats: dict) -> dict[int, int]:
    """How many executions the server ran at each batch size (what its dynamic batcher formed)."""
    sizes = {}
    for entry in model_stats.get("batch_stats", []) or []:
        count = int(entry.get("compute_infer", {}).get("count", 0) or 0)
        if count:
            sizes[int(entry["batch_size"])] = count
    return dict(sorted(sizes.items()))
