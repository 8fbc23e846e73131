"""The open-loop load generator against the real service over loopback HTTP, with each of its clients
(aiohttp, httpx): a burst larger than the queue is refused by count, the queue drains afterwards, and the
served rate is counted until the last answer (not over the sending window, which credited a service that
fell behind with a rate it never served); each client's trace hook stamps when a request left."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from inference.errors import ConfigError
from inference.service.loadclients import CLIENTS
from inference.service.loadgen import Body, run_load
from tests.test_service_http import blob_config, gated_factory, gauge, post_image, wait_for
from tests.test_service_support import GatedWorker, running_server, square_jpeg

pytestmark = pytest.mark.timeout(180)

REFUSED = 'hangtag_requests_total{code="503",endpoint="detect"}'


def refused(client: httpx.Client) -> float:
    """The 503 count of /detect (absent from /metrics until the first one)."""
    return gauge(client, REFUSED) if REFUSED in client.get("/metrics").text else 0.0


@pytest.mark.parametrize("load_client", CLIENTS)
def test_a_burst_past_the_queue_is_refused_by_count_then_the_queue_drains_and_accepts_again(tmp_path, load_client):
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
            run_load(base + "/detect", rate=1000.0, duration_s=0.005, bodies=bodies, timeout_s=60, client=load_client))))
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
        again = asyncio.run(run_load(base + "/detect", rate=1000.0, duration_s=0.002, bodies=bodies, timeout_s=60,
                                     client=load_client))

    report = burst["report"]
    summary = report.summary()
    assert held["r"].status_code == 200
    assert summary["sent"] == 5 and summary["codes"] == {"200": 2, "503": 3}
    assert (depth, in_flight) == (0.0, 0.0)
    assert one_by_one == [200, 200, 200]
    assert again.summary()["codes"] == {"200": 2}
    # every latency counts from a scheduled send inside the run, so the run lasted at least as long as its
    # slowest answer, and the served rate cannot be more than the 200s over that (the summary rounds the
    # rate to 0.01/s and the window to 1 ms: the slack covers that, nothing more). The slowest answer is taken
    # unrounded: at ~10 ms, the summary's rounding of a latency moves 2 / latency by ~0.1/s, past the slack
    slowest_ok_s = max(o.latency_ms for o in report.outcomes if o.code == 200) / 1000.0
    assert summary["ok_rate"] <= 2 / slowest_ok_s + 0.005
    assert summary["duration_s"] >= slowest_ok_s - 0.0005
    assert report.duration_s >= max(o.answered_s for o in report.outcomes)
    # the requests left on schedule (headers on the socket) and that is what the lag reports
    assert summary["send_lag_ms"]["count"] == 5


@pytest.mark.parametrize("client", CLIENTS)
def test_each_client_stamps_when_a_request_left_and_its_new_connections(tmp_path, client):
    """The send marks come from the client's own hook, not from the task: a new connection's time is
    only known there, so a hook that never fired leaves every connect_ms at 0. Six requests within 3 ms
    need more than one connection (an answer takes longer), so at least one is opened during the run."""
    config = blob_config(tmp_path, max_batch=4, queue=16, max_wait_ms=1)
    bodies = [Body(square_jpeg(), "image/jpeg")]
    with running_server(config) as (base, _):
        report = asyncio.run(run_load(base + "/detect", rate=2000.0, duration_s=0.003, bodies=bodies, timeout_s=60,
                                      client=client))
        sampled = asyncio.run(run_load(base + "/detect", rate=100.0, duration_s=0.05, bodies=bodies, timeout_s=60,
                                       client=client, rss_every_s=0.01)).summary()
    summary = report.summary()
    assert summary["sent"] == 6 and summary["codes"] == {"200": 6}
    assert summary["connect_ms"]["count"] >= 1 and summary["connect_ms"]["p50"] > 0
    for outcome in report.outcomes:
        # the headers left at or after the schedule (a task starts no earlier), the body after the headers,
        # the answer after both
        assert 0 <= outcome.send_lag_ms and outcome.upload_ms >= 0
        assert outcome.latency_ms >= outcome.send_lag_ms + outcome.upload_ms
    assert sampled["codes"] == {"200": 5} and "server_rss_mb" not in summary
    assert sampled["server_rss_mb"]["samples"] >= 1 and sampled["server_rss_mb"]["max"] > 10


def test_an_unknown_client_is_refused_with_the_names_it_takes():
    with pytest.raises(ConfigError) as error:
        asyncio.run(run_load("http://127.0.0.1:9/detect", 1.0, 1.0, [Body(b"x", "image/jpeg")], client="curl"))
    assert "aiohttp" in str(error.value) and "curl" in str(error.value)
