"""`hangtag-inspect serve` and `load` as a user runs them: a real process with the shipped model, the
README's curl line, /inspect with reading and a recipe, the load generator, SIGTERM, a bad model."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.test_service_support import free_port

pytestmark = pytest.mark.timeout(240)

SAMPLE = Path("resources/samples/090000022.jpg")
RECIPE = Path("resources/recipes/sample_090000022.toml")


def start_serve(port: int, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "inference.cli", "serve", "--port", str(port), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_ready(process: subprocess.Popen, port: int, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        assert process.poll() is None, process.communicate()[1]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("the service never became ready")


def stop(process: subprocess.Popen) -> tuple[int, str, str]:
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


def test_readme_curl_inspect_with_recipe_and_the_load_generator(tmp_path):
    port = free_port()
    process = start_serve(port, "--recipe", str(RECIPE), "--max-batch", "2")
    try:
        wait_ready(process, port)
        shutil.copy(SAMPLE, tmp_path / "tag.jpg")
        curl = shutil.which("curl")
        if curl:  # the README's line, as written, but for the test's port
            line = ["curl", "-X", "POST", "--data-binary", "@tag.jpg", "-H", "Content-Type: image/jpeg",
                    f"http://127.0.0.1:{port}/detect"]
            detect = json.loads(subprocess.run(line, cwd=tmp_path, capture_output=True, text=True, check=True,
                                               timeout=60).stdout)
        else:
            detect = httpx.post(f"http://127.0.0.1:{port}/detect", content=SAMPLE.read_bytes(),
                                headers={"Content-Type": "image/jpeg"}, timeout=60).json()
        inspect = httpx.post(f"http://127.0.0.1:{port}/inspect", content=SAMPLE.read_bytes(),
                             headers={"Content-Type": "image/jpeg"}, timeout=120).json()
        images = tmp_path / "images"
        images.mkdir()
        shutil.copy(SAMPLE, images / "a.jpg")
        load = subprocess.run([sys.executable, "-m", "inference.cli", "load", "--url",
                               f"http://127.0.0.1:{port}/detect", "--rate", "2", "--duration", "2", "--images",
                               str(images), "--rss-every", "1"], capture_output=True, text=True, timeout=120)
    finally:
        code, out, err = stop(process)
    assert detect["code"] == 0 and detect["image"] == {"width": 1024, "height": 1024}
    names = sorted(d["class_name"] for d in detect["detections"])
    assert names.count("hangtag") == 1 and "barcode" in names
    assert inspect["recipe"] and inspect["verdict"] in ("OK", "NG", "REVIEW")
    assert len(inspect["tags"]) == 1 and inspect["tags"][0]["fields"]
    assert inspect["verdict"] == "OK" or inspect["reasons"]
    assert load.returncode == 0, load.stderr
    summary = json.loads(load.stdout)
    assert summary["sent"] == 4 and sum(summary["codes"].values()) == 4
    assert summary["codes"].get("200", 0) + summary["codes"].get("503", 0) == 4
    assert summary["latency_ms"]["p50"] > 0 and summary["server_rss_mb"]["max"] > 50
    assert code == 0, err
    events = [json.loads(line)["event"] for line in out.splitlines()]
    assert events[0] == "ready" and events.count("request") >= 6 and events[-1] == "stopped"
    assert "Traceback" not in err



def send_sample(port: int, results: list) -> None:
    """POST the sample to /detect; its status code (or the HTTP error) is appended to `results`."""
    try:
        results.append(httpx.post(f"http://127.0.0.1:{port}/detect", content=SAMPLE.read_bytes(),
                                  headers={"Content-Type": "image/jpeg"}, timeout=120).status_code)
    except httpx.HTTPError as exc:
        results.append(repr(exc))

def test_sigterm_stops_accepting_finishes_what_is_queued_and_exits_0():
    port = free_port()
    process = start_serve(port, "--no-read", "--max-batch", "1", "--queue", "8")
    results: list[int] = []
    try:
        wait_ready(process, port)

        senders = [threading.Thread(target=send_sample, args=(port, results)) for _ in range(4)]
        for sender in senders:
            sender.start()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            end = time.monotonic() + 60
            # all four inside the service (a sender still connecting when the listener closes is refused,
            # which is right but not what this test is about), and some still queued
            while not _all_inside_some_queued(client.get("/metrics").text, 4):
                assert time.monotonic() < end, "the requests never queued"
                time.sleep(0.01)
        process.send_signal(signal.SIGTERM)  # with requests still queued behind the one being inferred
        for sender in senders:
            sender.join(timeout=120)
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert results == [200, 200, 200, 200]
    assert process.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in events][-2:] == ["draining", "stopped"]
    assert sum(1 for e in events if e["event"] == "request" and e["code"] == 200) == 4


def _all_inside_some_queued(metrics: str, count: int) -> bool:
    values = {}
    for line in metrics.splitlines():
        name, _, value = line.rpartition(" ")
        values[name] = float(value) if name and not name.startswith("#") else 0.0
    depth = values.get("hangtag_queue_depth", 0.0)
    inside = depth + values.get("hangtag_in_flight", 0.0) + values.get(
        'hangtag_requests_total{code="200",endpoint="detect"}', 0.0)
    return depth >= 1 and inside == count


@pytest.mark.parametrize("args, says", [
    (["--model", "no/such/model.onnx"], "model file not found"),
    (["--recipe", "no/such/recipe.toml"], "recipe"),
    (["--max-batch", "0"], "max batch out of range"),
    (["--cuda-graph", "--backend", "onnxruntime-cpu", "--no-read"], "cuda-graph engine was asked for but cannot run"),
])
def test_a_service_that_cannot_start_says_why_and_exits_2(args, says):
    process = start_serve(free_port(), *args)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 2
    assert [line for line in err.splitlines() if line.startswith("error:")] == [err.splitlines()[0]]
    assert says in err.lower()
    assert "Traceback" not in err
