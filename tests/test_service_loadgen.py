"""The open-loop load generator against the real service over loopback HTTP: a burst larger than the queue
is refused by count, the queue drains afterwards, and the served rate is counted until the last answer
(not over the sending window, which credited a service that fell behind with a rate it never served)."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from inference.service.loadgen import Body, run_load
from tests.test_service_http import blob_config, gated_factory, gauge, post_image, wait_for
from tests.test_service_support import GatedWorker, running_server, square_jpeg

pytestmark = pytest.mark.timeout(180)

REFUSED = 'hangtag_requests_total{code="503",endpoint="detect"}'


def refused(client: httpx.Client) -> float:
    """The 503 count of /detect (absent from /metrics until the first one)."""
    return gauge(client, REFUSED) if REFUSED in client.get("/metrics").text else 0.0


def test_a_burst_past_the_queue_is_refused_by_count_then_the_queue_drains_and_accepts_again(tmp_path):
    workers: list[GatedWorker] = []
    config = blob_config(tmp_path, max_batch=1, queue=2, max_wait_ms=0)
    with running_server(config, worker_factory=gated_factory(workers)) as (base, _):
        worker = workers[0]
        held: dict[str, httpx.Response] = {}
        holder = threading.Thread(target=lambda: held.update(r=httpx.post(
            base + "/detect", content=square_jpeg(), headers={"Content-Type": "image/jpeg"}, timeout=60)))
        holder.start()
        assert worker.entered.acquire(timeout=30)  # one request in inference, held: the burst meets a busy service

        bodies = [Body(square_jpeg(), "image/jpeg")]
        burst: dict = {}
        sender = threading.Thread(target=lambda: burst.update(report=asyncio.run(
            run_load(base + "/detect", rate=1000.0, duration_s=0.005, bodies=bodies, timeout_s=60))))
        sender.start()
        with httpx.Client(base_url=base, timeout=30) as client:
            # all five reached the service while inference is held: two wait, three are refused
            try:
                wait_for(lambda: refused(client) == 3 and gauge(client, "hangtag_queue_depth") == 2,
                         "the burst admitted up to the queue and refused the rest")
            finally:
                worker.gate.set()
            sender.join(timeout=60)
            holder.join(timeout=60)
            # drained: nothing waiting, nothing in flight; the next requests, one by one and as a burst
            # no larger than the queue, are all accepted
            depth, in_flight = gauge(client, "hangtag_queue_depth"), gauge(client, "hangtag_in_flight")
            one_by_one = [post_image(client).status_code for _ in range(3)]
        again = asyncio.run(run_load(base + "/detect", rate=1000.0, duration_s=0.002, bodies=bodies, timeout_s=60))

    report = burst["report"]
    summary = report.summary()
    assert held["r"].status_code == 200
    assert summary["sent"] == 5 and summary["codes"] == {"200": 2, "503": 3}
    assert (depth, in_flight) == (0.0, 0.0)
    assert one_by_one == [200, 200, 200]
    assert again.summary()["codes"] == {"200": 2}
    # every latency counts from a scheduled send inside the run, so the run lasted at least as long as its
    # slowest answer, and the served rate cannot be more than the 200s over that (the summary rounds the
    # rate to 0.01/s and the window to 1 ms: the slack covers that, nothing more)
    slowest_ok_s = summary["ok_latency_ms"]["max"] / 1000.0
    assert summary["ok_rate"] <= 2 / slowest_ok_s + 0.005
    assert summary["duration_s"] >= slowest_ok_s - 0.0005
    assert report.duration_s >= max(o.answered_s for o in report.outcomes)
    # the requests left on schedule (headers on the socket) and that is what the lag reports
    assert summary["send_lag_ms"]["count"] == 5
