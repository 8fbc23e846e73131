"""An open-loop load generator: requests leave on a fixed schedule whatever the answers do, and each
latency is measured from the request's *scheduled* send time. Closed-loop clients (send, wait, send)
slow down when the server does and so hide its queueing (coordinated omission); this one does not.

Two windows, because a saturated run answers long after its last send: `send_window_s` is the schedule
(requests ÷ rate); `duration_s` runs from the first scheduled send to the last answer, and the served rate
(`ok_rate`) is counted over it. Dividing by the sending window instead credits a service, or the HTTP
layer in front of it, with a rate it never served: on the H200 (2026-12-01) a 3 s step at 3 000/s offered
read "1 877/s served" while its 5 956 answers came back over 19 s (≈ 310/s), and the lower steps that
followed looked refused more than saturation itself.

Each request's `send_lag_ms` is taken when its headers are written to the connection (the client's own trace
hook: aiohttp's signals or httpcore's trace; see loadclients), not when its task starts: a generator whose
event loop or connection pool falls behind, or a server that accepts connections late, shows there, and the
summary says so (`late_sends`) instead of passing a backlog sent in a burst for the service's latency.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from inference.errors import ConfigError

_RSS = re.compile(r"^hangtag_process_rss_bytes (\S+)$", re.M)
LATE_MS = 10.0  # a request whose headers left later than this after its scheduled time was sent late


@dataclass(frozen=True)
class Body:
    data: bytes
    content_type: str


@dataclass(frozen=True)
class Outcome:
    code: int  # HTTP status, or 0 when no answer came (connection error, client timeout)
    latency_ms: float  # answer time minus scheduled send time
    send_lag_ms: float  # when its headers went onto the socket, minus its scheduled send time
    scheduled_s: float = 0.0  # its scheduled send time, from the run's first scheduled send
    upload_ms: float = 0.0  # headers written → body fully written (a server that stops reading shows here)
    connect_ms: float = 0.0  # opening its TCP connection, when it needed a new one (a full accept queue shows here)

    @property
    def answered_s(self) -> float:
        """When its answer came, from the run's first scheduled send."""
        return self.scheduled_s + self.latency_ms / 1000.0


@dataclass(frozen=True)
class LoadReport:
    target_rate: float
    send_window_s: float  # the schedule: requests ÷ rate
    outcomes: tuple[Outcome, ...]
    rss_mb: tuple[float, ...] = field(default=())

    @property
    def duration_s(self) -> float:
        """First scheduled send → last answer (at least the schedule): the window the service served in."""
        last = max((o.answered_s for o in self.outcomes), default=0.0)
        return max(self.send_window_s, last)

    def _latencies(self, code: int | None = None) -> np.ndarray:
        return np.array([o.latency_ms for o in self.outcomes if code is None or o.code == code], np.float64)

    def summary(self) -> dict:
        codes = Counter(o.code for o in self.outcomes)
        lag = np.array([o.send_lag_ms for o in self.outcomes], np.float64)
        last_send = max((o.scheduled_s + o.send_lag_ms / 1000.0 for o in self.outcomes), default=0.0)
        # the rate requests really left at: over the schedule, or until the last one left if that was later
        sending_s = max(self.send_window_s, last_send + 1.0 / self.target_rate)
        duration = self.duration_s
        late = int((lag > LATE_MS).sum())
        out = {"target_rate": self.target_rate, "send_window_s": round(self.send_window_s, 3),
               "duration_s": round(duration, 3), "sent": len(self.outcomes),
               "achieved_rate": round(len(self.outcomes) / sending_s, 2) if sending_s else 0.0,
               "ok_rate": round(codes.get(200, 0) / duration, 2) if duration else 0.0,
               "codes": {str(k): v for k, v in sorted(codes.items())},
               "latency_ms": _percentiles(self._latencies()),
               "ok_latency_ms": _percentiles(self._latencies(200)),
               "rejected_latency_ms": _percentiles(self._latencies(503)),
               "send_lag_ms": _percentiles(lag),
               "upload_ms": _percentiles(np.array([o.upload_ms for o in self.outcomes], np.float64)),
               "connect_ms": _percentiles(np.array([o.connect_ms for o in self.outcomes if o.connect_ms], np.float64)),
               "max_send_lag_ms": round(float(lag.max()), 3) if lag.size else 0.0,
               "late_sends": late}
        if late:
            out["warning"] = (f"{late} of {len(self.outcomes)} requests left more than {LATE_MS:g} ms after their "
                              "scheduled time (held by the generator's event loop or connection pool, or by the "
                              "server's accept queue): the service saw a later, burstier load than the target rate; "
                              "latencies still count from the schedule")
        if self.rss_mb:
            out["server_rss_mb"] = {"first": round(self.rss_mb[0], 1), "last": round(self.rss_mb[-1], 1),
                                    "max": round(max(self.rss_mb), 1), "samples": len(self.rss_mb),
                                    "series": [round(v, 1) for v in self.rss_mb]}
        return out


def _percentiles(values: np.ndarray) -> dict:
    if values.size == 0:
        return {"count": 0}
    p50, p95, p99 = np.percentile(values, [50, 95, 99])
    return {"count": int(values.size), "p50": round(float(p50), 3), "p95": round(float(p95), 3),
            "p99": round(float(p99), 3), "max": round(float(values.max()), 3)}


def load_bodies(folder: Path) -> list[Body]:
    from inference.imageio import list_images

    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError("image folder not found", expected="a folder of JPEG or PNG files", found=str(folder))
    bodies = [Body(p.read_bytes(), "image/png" if p.suffix.lower() == ".png" else "image/jpeg")
              for p in list_images(folder) if p.suffix.lower() in (".jpg", ".jpeg", ".png")]
    if not bodies:
        raise ConfigError("no JPEG or PNG images in the folder", expected="*.jpg, *.jpeg or *.png files",
                          found=f"none in {folder}")
    return bodies


def metrics_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/metrics", "", ""))


async def run_load(url: str, rate: float, duration_s: float, bodies: list[Body], *, timeout_s: float = 30.0,
                   max_connections: int = 1024, rss_every_s: float = 0.0, client: str = "aiohttp") -> LoadReport:
    """Send `rate` × `duration_s` requests on a fixed schedule with `client` (aiohttp or httpx; see
    loadclients) and report every outcome, latencies counted from each request's scheduled send time."""
    from inference.service.loadclients import open_sender

    if rate <= 0 or duration_s <= 0:
        raise ConfigError("rate and duration must be positive", expected="> 0", found=f"rate {rate}, duration {duration_s}")
    count = max(1, int(round(rate * duration_s)))
    # time.monotonic, not loop.time(): uvloop's loop clock is libuv's, cached per iteration in whole
    # milliseconds, which would round every latency and lag to 1 ms steps
    clock = time.monotonic
    rss: list[float] = []
    async with open_sender(client, url, timeout_s=timeout_s, max_connections=max_connections, clock=clock) as sender:

        async def one(i: int, scheduled: float) -> Outcome:
            body = bodies[i % len(bodies)]
            started = clock()
            sent = await sender.post(body.data, body.content_type)
            answered = clock()
            left = sent.headers_at if sent.headers_at is not None else started
            written = sent.body_at if sent.body_at is not None else left
            return Outcome(sent.code, (answered - scheduled) * 1000.0, (left - scheduled) * 1000.0, scheduled - start,
                           (written - left) * 1000.0, sent.connect_ms)

        async def sample_rss(stop: asyncio.Event) -> None:
            while not stop.is_set():
                found = _RSS.search(await sender.text(metrics_url(url)) or "")
                if found:
                    rss.append(float(found.group(1)) / 2**20)
                try:
                    await asyncio.wait_for(stop.wait(), rss_every_s)
                except TimeoutError:
                    pass

        stop = asyncio.Event()
        sampler = asyncio.create_task(sample_rss(stop)) if rss_every_s > 0 else None
        start = clock() + 0.05
        tasks = []
        for i in range(count):
            scheduled = start + i / rate
            delay = scheduled - clock()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(i, scheduled)))
        outcomes = await asyncio.gather(*tasks)
        stop.set()
        if sampler is not None:
            await sampler
    return LoadReport(rate, count / rate, tuple(outcomes), tuple(rss))
