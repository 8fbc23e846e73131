"""The triton backend's rules without a server: URLs, the server pool, statistics, the contract check."""

from __future__ import annotations

import numpy as np
import pytest

from inference.engines.base import TensorSpec
from inference.engines.triton.client import ServerAddress, ServerBusy, ServerDown, classify, parse_urls
from inference.engines.triton.contract import ContractMismatchError, ModelContract, check_contract
from inference.engines.triton.pool import ServerPool
from inference.engines.triton.stats import Snapshot, batch_sizes
from inference.errors import HangtagError


@pytest.mark.parametrize("text, expected", [
    ("http://gpu1:8000", ("http://gpu1:8000", "http", "gpu1:8000")),
    ("gpu1", ("http://gpu1:8000", "http", "gpu1:8000")),
    ("grpc://gpu2", ("grpc://gpu2:8001", "grpc", "gpu2:8001")),
    (" http://127.0.0.1:9000/ ", ("http://127.0.0.1:9000", "http", "127.0.0.1:9000")),
])
def test_server_address_parse(text, expected):
    a = ServerAddress.parse(text)
    assert (a.url, a.protocol, a.host_port) == expected


@pytest.mark.parametrize("text", ["https://gpu1:8000", "ftp://x:1", "http://gpu1:8000/v2", "http://"])
def test_bad_urls_are_refused_with_a_hint(text):
    with pytest.raises(HangtagError) as info:
        ServerAddress.parse(text)
    assert "expected" in str(info.value)


def test_url_list_keeps_order_and_refuses_empty():
    assert [a.url for a in parse_urls("http://a:1, grpc://b:2")] == ["http://a:1", "grpc://b:2"]
    with pytest.raises(HangtagError, match="no Triton server URL"):
        parse_urls(" , ")


class FakeError(Exception):
    def __init__(self, status, text):
        super().__init__(text)
        self._s = status

    def status(self):
        return self._s


@pytest.mark.parametrize("exc, kind", [
    (FakeError("503", "Exceeds maximum queue size"), ServerBusy),
    (FakeError("StatusCode.UNAVAILABLE", "Exceeds maximum queue size"), ServerBusy),
    (FakeError("StatusCode.UNAVAILABLE", "failed to connect to all addresses"), ServerDown),
    (ConnectionRefusedError(111, "Connection refused"), ServerDown),
    (FakeError("400", "unexpected shape for input 'images'"), HangtagError),
])
def test_failures_are_sorted_into_busy_down_or_wrong(exc, kind):
    err = classify(exc, "http://a:1", "infer")
    assert type(err) is kind


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_pool_prefers_least_loaded_then_fastest():
    clock = Clock()
    pool = ServerPool(["a", "b"], clock=clock)
    first = pool.pick()
    second = pool.pick()  # the first still has a request in flight
    assert {first, second} == {"a", "b"}
    pool.succeeded("a", 50.0)
    pool.succeeded("b", 5.0)
    assert pool.peek() == "b" and pool.servers["b"].in_flight == 0  # peeking reserves nothing
    assert pool.pick() == "b"


def test_failed_server_is_out_for_a_growing_backoff_and_comes_back():
    clock = Clock()
    pool = ServerPool(["a", "b"], backoff_s=1.0, clock=clock)
    assert pool.pick() == "a"
    events = pool.failed("a", "refused")
    assert [e.kind for e in events] == ["server_down"]
    assert pool.pick() == "b"
    pool.succeeded("b", 1.0)
    clock.t += 0.9
    assert pool.pick() == "b"  # a still out
    pool.succeeded("b", 1.0)
    clock.t += 0.2
    assert pool.pick() == "a"  # tried again after 1 s
    assert pool.failed("a", "refused") == []  # already known down: no second event
    assert pool.servers["a"].out_until == pytest.approx(clock.t + 2.0)  # doubled
    clock.t += 2.1
    assert pool.pick() == "a"
    assert pool.succeeded("a", 1.0).kind == "server_back"


def test_all_down_is_reported_and_next_retry_known():
    clock = Clock()
    pool = ServerPool(["a"], backoff_s=0.5, clock=clock)
    pool.pick()
    kinds = [e.kind for e in pool.failed("a", "reset")]
    assert kinds == ["server_down", "all_down"]
    assert pool.pick() is None
    assert pool.next_retry_in() == pytest.approx(0.5)
    clock.t += 0.6
    assert pool.pick() == "a" and pool.failed("a", "refused") == []  # the probe failed: said once per outage
    assert pool.next_retry_in() == pytest.approx(1.0)


def test_busy_is_a_short_cooldown_not_a_failure():
    clock = Clock()
    pool = ServerPool(["a"], busy_cooldown_s=0.02, clock=clock)
    pool.pick()
    pool.busy("a")
    assert pool.servers["a"].healthy and pool.servers["a"].failures == 0
    assert pool.pick() is None
    clock.t += 0.021
    assert pool.pick() == "a"


def test_statistics_deltas_give_per_request_server_times():
    def stats(count, queue, infer):
        return {"inference_stats": {"success": {"count": str(count)}, "queue": {"ns": str(queue)},
                                    "compute_input": {"ns": "0"}, "compute_infer": {"ns": str(infer)},
                                    "compute_output": {"ns": "0"}},
                "batch_stats": [{"batch_size": "1", "compute_infer": {"count": "3"}},
                                {"batch_size": "4", "compute_infer": {"count": "2"}}]}
    a, b = Snapshot.of(stats(10, 1000, 5000)), Snapshot.of(stats(14, 9000, 25000))
    times = b.since(a)
    assert (times.queue_ns, times.compute_ns, times.requests) == (2000, 5000, 4)
    assert a.since(a) is None
    assert batch_sizes(stats(0, 0, 0)) == {1: 3, 4: 2}


def _contract(names=("hangtag", "barcode", "qr_code")):
    return ModelContract((TensorSpec("images", (-1, 3, 640, 640), np.dtype(np.float32)),),
                         (TensorSpec("output0", (-1, 7, 8400), np.dtype(np.float32)),), names, {})


def _metadata(in_name="images", dims=(-1, 3, 640, 640), dtype="FP32"):
    return {"inputs": [{"name": in_name, "datatype": dtype, "shape": list(dims)}],
            "outputs": [{"name": "output0", "datatype": "FP32", "shape": [-1, 7, 8400]}]}


def _config(names="hangtag,barcode,qr_code"):
    return {"max_batch_size": 8, "parameters": {"class_names": {"string_value": names}}}


def test_contract_accepts_the_same_model_and_returns_max_batch():
    assert check_contract(_contract(), _metadata(), _config(), "http://a:1", "m") == 8


@pytest.mark.parametrize("metadata, config, words", [
    (_metadata(in_name="input"), _config(), ["local: ['images']", "server: ['input']"]),
    (_metadata(dims=(-1, 3, 320, 320)), _config(), ["local: [-1, 3, 640, 640]", "server: [-1, 3, 320, 320]"]),
    (_metadata(dtype="FP16"), _config(), ["float32", "float16"]),
    (_metadata(), _config("tag,code"), ["local: hangtag, barcode, qr_code", "server: tag, code"]),
])
def test_contract_mismatch_names_both_sides(metadata, config, words):
    with pytest.raises(ContractMismatchError) as info:
        check_contract(_contract(), metadata, config, "http://a:1", "m")
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("text, expected", [("", 5.0), ("120000", 120.0), (" 750 ", 0.75)])
def test_the_deadline_comes_from_the_environment_where_the_station_sets_it(monkeypatch, text, expected):
    from inference.engines.triton import TritonEngine
    from tests.triton.server import DETECTOR

    monkeypatch.setenv("HANGTAG_TRITON_DEADLINE_MS", text)
    assert TritonEngine(DETECTOR, urls="http://a:8000").deadline_s == expected


@pytest.mark.parametrize("text", ["soon", "0", "-5", "9999999"])
def test_an_unusable_deadline_is_refused_naming_the_variable(monkeypatch, text):
    from inference.engines.triton import TritonEngine
    from inference.errors import BackendUnavailableError
    from tests.triton.server import DETECTOR

    monkeypatch.setenv("HANGTAG_TRITON_DEADLINE_MS", text)
    with pytest.raises(BackendUnavailableError, match="HANGTAG_TRITON_DEADLINE_MS"):
        TritonEngine(DETECTOR, urls="http://a:8000")
