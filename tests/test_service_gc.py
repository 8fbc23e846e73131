"""The owner's garbage-collector settings (inference/service/pauses.py): the warmed heap frozen so a full
collection walks only what was made since, every collection timed; HANGTAG_SERVE_GC=default keeps CPython's own
behaviour. The recorder on its own, then a real `serve --frontends 2` in each mode."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from inference.service.pauses import GcPauses, gc_mode, settle_heap
from tests.test_service_cli import wait_ready
from tests.test_service_support import batch_blob_detector, free_port, square_jpeg

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize(("value", "expected"), [(None, "freeze"), ("", "freeze"), ("default", "default"),
                                                 ("FREEZE", "freeze"), ("sometimes", "freeze")])
def test_the_gc_mode_is_freeze_unless_asked_for_the_default(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("HANGTAG_SERVE_GC", raising=False)
    else:
        monkeypatch.setenv("HANGTAG_SERVE_GC", value)
    assert gc_mode() == expected


def test_collections_are_counted_by_generation_and_long_ones_kept_with_their_time():
    pauses = GcPauses().install()
    try:
        garbage = [[i] for i in range(300_000)]  # a full collection over these takes well over 2 ms
        for item in garbage:
            item.append(item)  # cycles: only the collector frees them
        del garbage, item
        gc.collect(0)
        gc.collect(2)
    finally:
        pauses.remove()
    summary = pauses.summary()
    assert summary["collections"][0] >= 1 and summary["collections"][2] >= 1
    assert summary["max_ms"][2] > 0 and summary["total_ms"][2] >= summary["max_ms"][2]
    long = pauses.take_long()
    assert long and any(generation == 2 and ms >= 2.0 and collected >= 100_000 for _, generation, ms, collected in long)
    assert pauses.take_long() == []
    gc.collect()
    assert pauses.summary()["collections"] == summary["collections"]  # removed: no longer counting


def test_settling_in_default_mode_freezes_nothing():
    assert settle_heap("default") == 0


def serve_events(tmp_path: Path, mode: str | None) -> tuple[int, list[dict], str]:
    model = tmp_path / "blob.onnx"
    batch_blob_detector(model)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "HANGTAG_SERVE_GC"}
    if mode is not None:
        env["HANGTAG_SERVE_GC"] = mode
    process = subprocess.Popen([sys.executable, "-m", "inference.cli", "serve", "--port", str(port), "--frontends", "2",
                                "--model", str(model), "--backend", "onnxruntime-cpu", "--no-read", "--threads", "1",
                                "--decode-threads", "1", "--max-batch", "4"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_ready(process, port)
        for _ in range(4):
            answer = httpx.post(f"http://127.0.0.1:{port}/detect", content=square_jpeg(),
                                headers={"Content-Type": "image/jpeg"}, timeout=60)
            assert answer.status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=90)
    return process.returncode, [json.loads(line) for line in out.splitlines() if line.startswith("{")], err


@pytest.mark.parametrize(("mode", "frozen"), [(None, True), ("default", False)])
def test_the_owner_freezes_its_warmed_heap_and_reports_its_collections(tmp_path, mode, frozen):
    code, events, err = serve_events(tmp_path, mode)
    assert code == 0, err
    by_name = {e["event"]: e for e in events}
    settled, summary = by_name["gc_settled"], by_name["gc"]
    assert settled["mode"] == (mode or "freeze")
    assert (settled["frozen"] > 10_000) is frozen  # the owner's imports alone are tens of thousands of objects
    assert (summary["frozen"] > 10_000) is frozen and summary["mode"] == settled["mode"]
    assert len(summary["collections"]) == 3 and summary["tracked"] > 0
    names = [e["event"] for e in events]
    assert names.index("gc_settled") < names.index("gc") < names.index("frontends_stopped")
    assert names[-2:] == ["frontends_stopped", "stopped"]
