"""Helpers for the service tests (no tests here): a batchable real detector, a server on a free loopback
port in a thread, and a worker whose runs wait on a gate so tests order events instead of timing them."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
import onnx
from onnx import helper, numpy_helper

from tests.factories import blob_detector


def batch_blob_detector(path: Path, size: int = 64) -> Path:
    """factories.blob_detector with a dynamic batch dimension (its box constant broadcast over the batch),
    so the service's batched engine call runs for real."""
    model = onnx.load(str(blob_detector(path, size=size)))
    graph = model.graph
    graph.input[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    graph.output[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    anchors = (size // 8) ** 2
    for init in graph.initializer:
        if init.name == "flat_shape":
            init.CopyFrom(numpy_helper.from_array(np.array([-1, 1, anchors], np.int64), "flat_shape"))
    concat = next(n for n in graph.node if n.op_type == "Concat")
    concat.input[0] = "boxes_b"
    at = list(graph.node).index(concat)
    graph.node.insert(at, helper.make_node("Add", ["boxes", "zero_b"], ["boxes_b"]))
    graph.node.insert(at, helper.make_node("Mul", ["zero_m", "nought"], ["zero_b"]))
    graph.node.insert(at, helper.make_node("ReduceMean", ["flat", "axes12"], ["zero_m"], keepdims=1))
    graph.initializer.extend([numpy_helper.from_array(np.array([1, 2], np.int64), "axes12"),
                              numpy_helper.from_array(np.array(0.0, np.float32), "nought")])
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def square_jpeg(h: int = 256, w: int = 512, square: tuple[int, int, int] = (192, 64, 128)) -> bytes:
    image = np.full((h, w, 3), 114, np.uint8)
    x, y, side = square
    image[y:y + side, x:x + side] = 255
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return data.tobytes()


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def free_port() -> int:
    with free_socket() as sock:
        return sock.getsockname()[1]


@contextmanager
def running_server(config, *, worker_factory=None, log=None) -> Iterator[tuple[str, object]]:
    """The real uvicorn server on a free loopback port, in a thread; yields (base URL, app)."""
    import httpx
    import uvicorn

    from inference.service.app import create_app

    app = create_app(config, worker_factory=worker_factory, log=log)
    sock = free_socket()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the service did not start")
        time.sleep(0.02)
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            assert client.get("/ready").status_code == 200
        yield base, app
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


class GatedWorker:
    """Wraps a real worker; each batch first waits for the gate, so a test can hold inference busy."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.entered = threading.Semaphore(0)
        self.batches: list[int] = []

    def __call__(self, jobs):
        self.entered.release()
        assert self.gate.wait(timeout=60), "the test never opened the gate"
        self.batches.append(len(jobs))
        return self.inner(jobs)

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def class_names(self):
        return self.inner.class_names

    def close(self) -> None:
        self.gate.set()
        self.inner.close()
