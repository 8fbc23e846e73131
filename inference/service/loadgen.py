"""An open-loop load generator: requests leave on a fixed schedule whatever the answers do, and each
latency is measured from the request's *scheduled* send time. Closed-loop clients (send, wait, send)
slow down when the server does and so hide its queueing (coordinated omission); this one does not."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from inference.errors import ConfigError

_RSS = re.compile(r"^hangtag_process_rss_bytes (\S+)$", re.M)


@dataclass(frozen=True)
class Body:
    data: bytes
    content_type: str


@dataclass(frozen=True)
class Outcome:
    code: int  # HTTP status, or 0 when no answer came (connection error, client timeout)
    latency_ms: float  # answer time minus scheduled send time
    send_lag_ms: float  # how late the generator itself sent it


@dataclass(frozen=True)
class LoadReport:
    target_rate: float
    duration_s: float
    outcomes: tuple[Outcome, ...]
    rss_mb: tuple[float, ...] = field(default=())

    def _latencies(self, code: int | None = None) -> np.ndarray:
        return np.array([o.latency_ms for o in self.outcomes if code is None or o.code == code], np.float64)

    def summary(self) -> dict:
        codes = Counter(o.code for o in self.outcomes)
        lag = np.array([o.send_lag_ms for o in self.outcomes]) if self.outcomes else np.zeros(1)
        out = {"target_rate": self.target_rate, "duration_s": round(self.duration_s, 3), "sent": len(self.outcomes),
               "achieved_rate": round(len(self.outcomes) / self.duration_s, 2) if self.duration_s else 0.0,
               "ok_rate": round(codes.get(200, 0) / self.duration_s, 2) if self.duration_s else 0.0,
               "codes": {str(k): v for k, v in sorted(codes.items())},
               "latency_ms": _percentiles(self._latencies()),
               "ok_latency_ms": _percentiles(self._latencies(200)),
               "rejected_latency_ms": _percentiles(self._latencies(503)),
               "max_send_lag_ms": round(float(lag.max()), 3)}
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
                   max_connections: int = 1024, rss_every_s: float = 0.0) -> LoadReport:
    import httpx

    if rate <= 0 or duration_s <= 0:
        raise ConfigError("rate and duration must be positive", expected="> 0", found=f"rate {rate}, duration {duration_s}")
    count = max(1, int(round(rate * duration_s)))
    limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
    loop = asyncio.get_running_loop()
    rss: list[float] = []
    async with httpx.AsyncClient(limits=limits, timeout=timeout_s) as client:

        async def one(i: int, scheduled: float) -> Outcome:
            body = bodies[i % len(bodies)]
            sent = loop.time()
            try:
                response = await client.post(url, content=body.data, headers={"Content-Type": body.content_type})
                await response.aread()
                code = response.status_code
            except httpx.HTTPError:
                code = 0
            return Outcome(code, (loop.time() - scheduled) * 1000.0, (sent - scheduled) * 1000.0)

        async def sample_rss(stop: asyncio.Event) -> None:
            while not stop.is_set():
                try:
                    found = _RSS.search((await client.get(metrics_url(url))).text)
                    if found:
                        rss.append(float(found.group(1)) / 2**20)
                except httpx.HTTPError:
                    pass
                try:
                    await asyncio.wait_for(stop.wait(), rss_every_s)
                except TimeoutError:
                    pass

        stop = asyncio.Event()
        sampler = asyncio.create_task(sample_rss(stop)) if rss_every_s > 0 else None
        start = loop.time() + 0.05
        tasks = []
        for i in range(count):
            scheduled = start + i / rate
            delay = scheduled - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(i, scheduled)))
        outcomes = await asyncio.gather(*tasks)
        stop.set()
        if sampler is not None:
            await sampler
    # the achieved rate is over the window the generator really sent in (one interval per request)
    last_lag_s = max(o.send_lag_ms for o in outcomes) / 1000.0
    window = (count / rate) + max(0.0, last_lag_s)
    return LoadReport(rate, window, tuple(outcomes), tuple(rss))
