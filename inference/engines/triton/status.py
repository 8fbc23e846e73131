"""What a Triton engine's servers are doing, as immutable values a view on another thread can hold.

Taken from the pool under its lock and from the statistics the engine already polls; making one
sends nothing to any server.
"""

from __future__ import annotations

from dataclasses import dataclass

LOCAL = "local"  # `last_server` when the station's own engine answered (fallback)


@dataclass(frozen=True)
class ServerView:
    url: str
    healthy: bool
    out_for_s: float  # seconds before it is tried again; 0 when it is in rotation
    in_flight: int
    requests: int  # answered by this server since the engine opened
    round_trip_ms: float  # smoothed, as the station measures it
    last_error: str
    queue_ms: float | None  # per request, from Triton's statistics (every client of that server)
    compute_ms: float | None

    @property
    def state(self) -> str:
        if self.healthy:
            return "up"
        return f"down, retried in {self.out_for_s:.1f} s" if self.out_for_s > 0 else "down, being retried"


@dataclass(frozen=True)
class FleetStatus:
    model: str  # the served model's name (hangtag_det, ocr_det, ocr_rec)
    servers: tuple[ServerView, ...]
    last_server: str  # who answered the last request: a URL, LOCAL, or "" before the first
    fallback: bool  # whether the station's own engine answers while no server does
    busy_answers: int  # 503 / UNAVAILABLE answers taken as back-pressure
    retries: int

    @property
    def up(self) -> int:
        return sum(s.healthy for s in self.servers)

    @property
    def all_down(self) -> bool:
        return self.up == 0

    @property
    def on_local_engine(self) -> bool:
        return self.last_server == LOCAL

    def server(self, url: str) -> ServerView | None:
        return next((s for s in self.servers if s.url == url), None)


def host_port(url: str) -> str:
    """'http://gpu1:8000' -> 'gpu1:8000' (the scheme says little to an operator; gRPC keeps it)."""
    return url.removeprefix("http://")
