"""The OCR networks' PyTorch runs replayed as CUDA graphs: one graph per input shape, captured once.

Run node by node from Python (torch_graph.py), a recognizer call launches ~330 kernels one at a time and took
8–13 ms on the H200 at any batch (BENCHMARKS.md, issue 19): launch-bound, not GPU-bound. A CUDA graph
records those launches once per input shape and replays them in one call. The shapes are the CPU reader's
own (buckets.py: 196 detector sizes, 6 batches × 200 widths for the recognizer), so every one can be
captured at open, and what a line reads is what the node-by-node run gives: the same kernels on the same
numbers, only launched differently.

Memory: the graphs share one pool (they never run at the same time: one lock), so what they keep of their
own is their outputs; every input is a view of one device buffer, filled from one page-locked host buffer.
A graph whose outputs would take the total past `max_output_bytes` (the recognizer's full distribution,
asked for only with a recipe's vocabulary, is 185 MB at 32 lines of 1 600 px) is not kept: that shape runs
node by node. Capture needs a GPU and a graph-capable PyTorch; where either is missing, or a capture fails,
`unavailable_reason` says why and the caller runs node by node (TorchSession does).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# What the captured graphs may keep as their own outputs together; past it new shapes run node by node.
MAX_OUTPUT_BYTES = 2 << 30


@dataclass
class _Captured:
    graph: object  # torch.cuda.CUDAGraph
    input: object  # the view of the shared input buffer it reads
    outputs: dict  # name -> the tensor it writes


def graphs_unavailable(torch, device: str) -> str | None:
    """Why CUDA graphs cannot run here, or None."""
    if not str(device).startswith("cuda"):
        return f"CUDA graphs need a CUDA device, not {device!r}"
    if not torch.cuda.is_available():
        return "PyTorch sees no GPU"
    if not hasattr(torch.cuda, "CUDAGraph"):
        return f"PyTorch {torch.__version__} has no CUDA graphs"
    return None


class CudaGraphs:
    """Replays a TorchGraph (torch_graph.py) captured per (input shape, outputs asked for). Thread-safe: one
    lock around copy in, replay and copy out."""

    def __init__(self, graph, *, max_output_bytes: int = MAX_OUTPUT_BYTES) -> None:
        torch = self.torch = graph.torch
        reason = graphs_unavailable(torch, str(graph.device))
        if reason:
            raise RuntimeError(reason)
        self.graph = graph
        self.input_name = graph.input_names[0]
        self.max_output_bytes = max_output_bytes
        self.stream = torch.cuda.Stream(graph.device)
        self.pool = torch.cuda.graph_pool_handle()
        self.lock = threading.Lock()
        self._graphs: dict[tuple, _Captured] = {}
        self._not_kept: set[tuple] = set()  # shapes whose outputs would not fit: run node by node
        self._input = None  # flat float32 device buffer every graph's input is a view of
        self._staging = None  # page-locked host buffer of the same size
        self._warmed = False
        self.output_bytes = 0
        self.captures = 0
        self.replays = 0
        self.unavailable_reason: str | None = None  # set when a capture failed: the caller runs node by node

    def reserve(self, shapes: Sequence[Sequence[int]]) -> None:
        """Size the input buffers for the largest of `shapes` now, so no later capture outgrows them."""
        need = max((math.prod(s) for s in shapes), default=0)
        with self.lock:
            self._ensure_input(need)

    def _ensure_input(self, numel: int) -> None:
        torch = self.torch
        if self._input is not None and self._input.numel() >= numel:
            return
        # the graphs captured so far read the old buffer: they go (with their pool), and are captured again as
        # their shapes come
        self._graphs.clear()
        self._not_kept.clear()
        self.output_bytes = 0
        self.pool = torch.cuda.graph_pool_handle()
        self._input = torch.zeros(numel, dtype=torch.float32, device=self.graph.device)
        self._staging = torch.empty(numel, dtype=torch.float32, pin_memory=True)

    def run(self, array: np.ndarray, fetch: Sequence[str]) -> dict[str, np.ndarray] | None:
        """The outputs `fetch` for `array` (float32), or None when this shape runs node by node."""
        torch = self.torch
        if self.unavailable_reason is not None or array.dtype != np.float32:
            return None
        shape, key = tuple(array.shape), (tuple(array.shape), tuple(fetch))
        numel = math.prod(shape)
        with self.lock:
            if key in self._not_kept:
                return None
            captured = self._graphs.get(key)
            if captured is None:
                captured = self._capture(shape, tuple(fetch))
                if captured is None:
                    return None
            staging = self._staging[:numel]
            np.copyto(staging.numpy().reshape(shape), array, casting="no")
            with torch.cuda.stream(self.stream):
                captured.input.copy_(staging.view(shape), non_blocking=True)
                captured.graph.replay()
                out = {name: captured.outputs[name].cpu().numpy() for name in fetch}
            self.replays += 1
            return out

    def _capture(self, shape: tuple[int, ...], fetch: tuple[str, ...]) -> _Captured | None:
        torch = self.torch
        numel = math.prod(shape)
        self._ensure_input(numel)
        x = self._input[:numel].view(shape)
        try:
            with torch.cuda.stream(self.stream):
                if not self._warmed:  # libraries' handles and workspaces for this stream, made outside a capture
                    self.graph.forward({self.input_name: x}, fetch)
                    self.stream.synchronize()
                    self._warmed = True
                graph = torch.cuda.CUDAGraph()
                # thread_local: another thread's CUDA work (the detector's engine, a JPEG decoder) may go on meanwhile
                graph.capture_begin(pool=self.pool, capture_error_mode="thread_local")
                try:
                    outputs = self.graph.forward({self.input_name: x}, fetch)
                finally:
                    graph.capture_end()
        except Exception as exc:  # a capture this PyTorch or driver refuses: node by node from now on
            self.unavailable_reason = f"CUDA graph capture failed at input {shape}: {type(exc).__name__}: {exc}"
            self._graphs.clear()
            return None
        size = sum(t.numel() * t.element_size() for t in outputs.values())
        if self.output_bytes + size > self.max_output_bytes:
            self._not_kept.add((shape, fetch))
            return None
        self.output_bytes += size
        self.captures += 1
        captured = self._graphs[(shape, fetch)] = _Captured(graph, x, outputs)
        return captured

    def close(self) -> None:
        with self.lock:
            self._graphs.clear()
            self._input = self._staging = None
