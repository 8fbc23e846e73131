"""The OCR networks' PyTorch runs replayed as CUDA graphs: one graph per input shape, captured once.

Run node by node from Python (torch_graph.py), a recognizer call launches ~330 kernels one at a time and took
8–13 ms on the H200 at any batch (BENCHMARKS.md, issue 19): launch-bound, not GPU-bound. A CUDA graph
records those launches once per input shape and replays them in one call. The shapes are the CPU reader's
own (buckets.py: 196 detector sizes; for the recognizer 200 widths × gpu.GPU_REC_BATCHES), so every one can be
captured at open, and what a line reads is what the node-by-node run gives: the same kernels on the same
numbers, only launched differently.

One graph per input shape, whatever outputs a caller asks for: each graph runs the whole network and copies
every output into one device buffer per output that all graphs share, and a call copies back only what it
fetches. So the recognizer's full distribution (asked for only with a recipe's vocabulary, for spotting) and its
TopK (every other read) come from the same graph, captured at open with the rest. Keyed by (shape, outputs asked
for), the full-output graphs had been captured while reading, the first time each shape met a recipe: 124 captures
of ~16 ms in the timed reads of one H200 process, their kept outputs 43.5 → 471 MiB (BENCHMARKS.md, issue 19). The
copy costs the plain read one device copy of the distribution (185 MB at the largest shape, ~0.1 ms; a few MB at
a tag's usual calls).

Memory: the graphs share one pool (they never run at the same time: one lock), and what they keep is the shared
buffers, sized at `reserve` for the largest shape (one node-by-node run there finds the outputs' sizes); every
input is a view of one device buffer, filled from one page-locked host buffer. An output a shared buffer cannot
hold (a shape past the reserved one) stays the graph's own, and a graph whose own outputs would take the total
past `max_output_bytes` is not kept: that shape runs node by node. Capture needs a GPU and a graph-capable
PyTorch; where either is missing, or a capture fails, `unavailable_reason` says why and the caller runs node by
node (TorchSession does).
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
    outputs: dict  # name -> the tensor it writes (a view of that output's shared buffer, or its own)


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
    """Replays a TorchGraph (torch_graph.py) captured once per input shape, every output written each replay.
    Thread-safe: one lock around copy in, replay and copy out."""

    def __init__(self, graph, *, max_output_bytes: int = MAX_OUTPUT_BYTES) -> None:
        torch = self.torch = graph.torch
        reason = graphs_unavailable(torch, str(graph.device))
        if reason:
            raise RuntimeError(reason)
        self.graph = graph
        self.input_name = graph.input_names[0]
        self.output_names = tuple(graph.output_names)
        self.max_output_bytes = max_output_bytes
        self.stream = torch.cuda.Stream(graph.device)
        self.pool = torch.cuda.graph_pool_handle()
        self.lock = threading.Lock()
        self._graphs: dict[tuple[int, ...], _Captured] = {}
        self._not_kept: set[tuple[int, ...]] = set()  # shapes whose own outputs would not fit: run node by node
        self._input = None  # flat float32 device buffer every graph's input is a view of
        self._staging = None  # page-locked host buffer of the same size
        self._shared: dict[str, object] = {}  # output name -> flat device buffer every graph writes that output to
        self.output_bytes = 0  # the shared buffers and the outputs graphs keep of their own
        self.captures = 0
        self.replays = 0
        self.unavailable_reason: str | None = None  # set when a capture failed: the caller runs node by node

    def reserve(self, shapes: Sequence[Sequence[int]]) -> None:
        """Size the input buffers, and the shared output buffers, for the largest of `shapes` now, so no later
        capture outgrows them."""
        largest = max((tuple(s) for s in shapes), key=math.prod, default=None)
        if largest is None:
            return
        with self.lock:
            self._ensure_input(math.prod(largest))
            self._ensure_outputs(largest)

    def _ensure_input(self, numel: int) -> None:
        torch = self.torch
        if self._input is not None and self._input.numel() >= numel:
            return
        # the graphs captured so far read the old buffer: they go (with their pool), and are captured again as
        # their shapes come
        self._graphs.clear()
        self._not_kept.clear()
        self._shared.clear()
        self.output_bytes = 0
        self.pool = torch.cuda.graph_pool_handle()
        self._input = torch.zeros(numel, dtype=torch.float32, device=self.graph.device)
        self._staging = torch.empty(numel, dtype=torch.float32, pin_memory=True)

    def _ensure_outputs(self, shape: tuple[int, ...]) -> None:
        """Shared output buffers as large as the outputs at `shape`, from one node-by-node run there (outside any
        capture: it also makes the libraries' handles and workspaces for this stream). A buffer that grows is
        a new one; graphs captured before keep the old one they write to."""
        torch = self.torch
        x = self._input[: math.prod(shape)].view(shape)
        self.stream.wait_stream(torch.cuda.current_stream(self.graph.device))  # the input buffer's zeros first
        with torch.cuda.stream(self.stream):
            outputs = self.graph.forward({self.input_name: x}, self.output_names)
            self.stream.synchronize()
        for name, t in outputs.items():
            old = self._shared.get(name)
            if old is None or old.numel() < t.numel() or old.dtype != t.dtype:
                self.output_bytes += t.numel() * t.element_size()
                with torch.inference_mode():
                    self._shared[name] = torch.empty(t.numel(), dtype=t.dtype, device=self.graph.device)

    def run(self, array: np.ndarray, fetch: Sequence[str]) -> dict[str, np.ndarray] | None:
        """The outputs `fetch` for `array` (float32), or None when this shape runs node by node."""
        torch = self.torch
        if self.unavailable_reason is not None or array.dtype != np.float32:
            return None
        shape = tuple(array.shape)
        numel = math.prod(shape)
        with self.lock:
            if shape in self._not_kept:
                return None
            captured = self._graphs.get(shape)
            if captured is None:
                captured = self._capture(shape)
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

    def _capture(self, shape: tuple[int, ...]) -> _Captured | None:
        torch = self.torch
        numel = math.prod(shape)
        self._ensure_input(numel)
        if not self._shared:  # nothing reserved: the buffers are sized for this shape
            self._ensure_outputs(shape)
        x = self._input[:numel].view(shape)
        try:
            with torch.cuda.stream(self.stream):
                graph = torch.cuda.CUDAGraph()
                # thread_local: another thread's CUDA work (the detector's engine, a JPEG decoder) may go on meanwhile
                graph.capture_begin(pool=self.pool, capture_error_mode="thread_local")
                try:
                    outputs = self._into_shared(self.graph.forward({self.input_name: x}, self.output_names))
                finally:
                    graph.capture_end()
        except Exception as exc:  # a capture this PyTorch or driver refuses: node by node from now on
            self.unavailable_reason = f"CUDA graph capture failed at input {shape}: {type(exc).__name__}: {exc}"
            self._graphs.clear()
            return None
        own = sum(t.numel() * t.element_size() for name, t in outputs.items() if not self._is_shared(name, t))
        if self.output_bytes + own > self.max_output_bytes:
            self._not_kept.add(shape)
            return None
        self.output_bytes += own
        self.captures += 1
        captured = self._graphs[shape] = _Captured(graph, x, outputs)
        return captured

    def _into_shared(self, outputs: dict) -> dict:
        """Inside a capture: each output copied into a view of its shared buffer where that holds it; the
        network's own output tensor goes back to the pool once the capture ends."""
        kept = {}
        with self.torch.inference_mode():
            for name, t in outputs.items():
                shared = self._shared.get(name)
                if shared is not None and shared.numel() >= t.numel() and shared.dtype == t.dtype:
                    view = shared[: t.numel()].view(t.shape)
                    view.copy_(t)
                    kept[name] = view
                else:
                    kept[name] = t
        return kept

    def _is_shared(self, name: str, tensor) -> bool:
        shared = self._shared.get(name)
        return shared is not None and tensor.data_ptr() == shared.data_ptr()

    def close(self) -> None:
        with self.lock:
            self._graphs.clear()
            self._shared.clear()
            self._input = self._staging = None
