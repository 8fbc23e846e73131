"""The PP-OCR ONNX graphs run by PyTorch, node by node: a second GPU runtime for the reader.

On ONNX Runtime's CUDA provider a new input shape costs the OCR networks a first run of ~2.6 s (cuDNN's
heuristic plans for every convolution; BENCHMARKS.md, issue 19), and the reader's shapes change with every
tag. PyTorch is on the GPU machine already (no 250 MB wheel to carry) and plans per shape differently; this
interpreter covers the operators of rapidocr's PP-OCRv6 det/rec exports (opset 11) plus the TopK that
topk.py adds, so the same files run there unchanged. Integer shape arithmetic (Shape, Slice, Reshape) stays on
the CPU; tensors go to `device`. `TorchSession` has BucketSession's interface (gpu.py), so the detector and
recognizer classes take either.

Checked against ONNX Runtime on the CPU in tests/test_ocr_torch.py. On the GPU the arithmetic is FP32 (no TF32, as
the CPU reader) and the convolutions are PyTorch's own, not cuDNN's (USE_CUDNN says why).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from inference.errors import BackendUnavailableError, ModelError
from inference.reading.ocr.sessions import ShapeCountingSession


def _torch():
    try:
        import torch
    except ImportError as exc:
        raise BackendUnavailableError("the PyTorch OCR runtime needs PyTorch", expected="torch installed",
                                      found=str(exc), hint="pip install torch, or use the ONNX Runtime reader") from exc
    return torch


def _attrs(node) -> dict:
    from onnx import helper

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _same_pads(size: Sequence[int], kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int]) -> list[int]:
    """F.pad's order (last dim first, begin then end) for ONNX auto_pad SAME_UPPER (the extra pixel at the end)."""
    pads: list[int] = []
    for n, k, s, d in zip(reversed(size), reversed(kernel), reversed(strides), reversed(dilations)):
        out = math.ceil(n / s)
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads += [total // 2, total - total // 2]
    return pads


# cuDNN for the convolutions? On the H200 (PyTorch 2.11, cuDNN 9.19, BENCHMARKS.md issue 19) a new input shape
# cost the recognizer's first run 73 ms with cuDNN's heuristics (2.5 s with its timed search) against 9.8 ms
# with PyTorch's own kernels, and a repeated shape 13.2 against 8.3 ms; the reader's shapes change with every
# tag. Detect + read in one A/B: one-tag frames p50 107 against 122 ms, p99 234 against 382 ms without cuDNN;
# four-tag frames, whose shapes repeated, 355 against 259 ms p50 (cuDNN is faster on a shape it has planned).
# The setting holds only while a session runs (torch.backends.cudnn.flags), not for the whole process.
USE_CUDNN = False

# Convolutions of one group as matrix products on the GPU (im2col where the kernel is larger than 1×1)? Without
# cuDNN, PyTorch's own convolution loops over the batch, one im2col and one GEMM per line (slow_conv2d): a
# recognizer call of 8 lines ran ~340 small kernels for its 43 such convolutions. As one batched product each is
# one or two kernels, whatever the batch; the sums are the same products in another order (checked against ONNX
# Runtime in tests/test_ocr_torch.py). Depthwise convolutions keep PyTorch's own kernel (one for the batch).
CONV_AS_MATMUL = True

# operators whose inputs after the first are numbers read on the CPU
_HOST_INPUTS = ("Resize", "Reshape", "Slice", "TopK", "Expand", "Tile")


class TorchGraph:
    def __init__(self, model_path: Path, device: str = "cuda", conv_as_matmul: bool = False) -> None:
        import onnx
        from onnx import numpy_helper

        torch = self.torch = _torch()
        self.conv_as_matmul = conv_as_matmul
        model = onnx.load(str(model_path))
        self.device = torch.device(device)
        self.metadata = {p.key: p.value for p in model.metadata_props}
        self.consts: dict = {}
        # inputs read on the CPU as numbers (a Resize's scales and sizes, shapes, TopK's k): kept there, so that
        # reading them waits for nothing on the device
        host = {name for node in model.graph.node for i, name in enumerate(node.input)
                if i >= 1 and node.op_type in _HOST_INPUTS}
        for init in model.graph.initializer:
            array = numpy_helper.to_array(init)
            on = "cpu" if array.dtype.kind in "iub" or init.name in host else self.device  # integers: shapes, indices
            self.consts[init.name] = torch.from_numpy(np.array(array)).to(on)
        unknown = sorted({node.op_type for node in model.graph.node if not hasattr(self, f"_op_{node.op_type}")})
        if unknown:
            raise ModelError("the PyTorch OCR runtime does not know some operators of this model",
                             expected="PP-OCR det/rec operators", found=", ".join(unknown),
                             hint="use the ONNX Runtime reader for this model")
        inits = set(self.consts)
        self.input_names = [i.name for i in model.graph.input if i.name not in inits]
        self.output_names = [o.name for o in model.graph.output]
        # Identity nodes (a third of these graphs) become aliases; a Cast of a constant (weights stored as FP16,
        # read as FP32: packaging's store_fp16, the shipped small-print recognizer) is done once, here; each other
        # node keeps its bound operator
        alias: dict[str, str] = {}
        self.nodes = []
        for node in model.graph.node:
            inputs = [alias.get(i, i) for i in node.input]
            if node.op_type == "Identity" and node.output[0] not in self.output_names:
                alias[node.output[0]] = inputs[0]
                continue
            if node.op_type == "Cast" and inputs[0] in self.consts and node.output[0] not in self.output_names:
                self.consts[node.output[0]] = self._op_Cast([self.consts[inputs[0]]], _attrs(node))
                continue
            self.nodes.append((getattr(self, f"_op_{node.op_type}"), inputs, list(node.output), _attrs(node)))
        # each value is dropped after the last node that reads it (a value nobody reads: after the node that
        # made it), so a run holds what is still needed rather than every tensor of the graph at once
        last: dict[str, int] = {}
        for index, (_op, inputs, outputs, _k) in enumerate(self.nodes):
            for name in inputs:
                if name:
                    last[name] = index
            for name in outputs:
                last.setdefault(name, index)
        self._drop_after: list[list[str]] = [[] for _ in self.nodes]
        for name, index in last.items():
            if name not in self.consts and name not in self.input_names:
                self._drop_after[index].append(name)

    def run(self, feeds: dict[str, np.ndarray]) -> dict:
        torch = self.torch
        with torch.inference_mode():
            tensors = {name: torch.from_numpy(np.ascontiguousarray(array)).to(self.device, non_blocking=False)
                       for name, array in feeds.items()}
            return self.forward(tensors, self.output_names)

    def forward(self, tensors: dict, keep: Sequence[str]) -> dict:
        """The outputs `keep` for inputs already on the device: no copy in or out, no reading back, so a
        CUDA graph can capture it (torch_cuda_graphs.py)."""
        keep = set(keep)
        values = dict(self.consts)
        values.update(tensors)
        with self.torch.inference_mode():
            for (op, inputs, outputs, attrs), drop in zip(self.nodes, self._drop_after):
                result = op([values[i] if i else None for i in inputs], attrs)
                if not isinstance(result, tuple):
                    result = (result,)
                for name, value in zip(outputs, result):
                    values[name] = value
                for name in drop:
                    if name not in keep:
                        values.pop(name, None)  # an optional output the operator did not make is not there
        return {name: values[name] for name in self.output_names if name in keep}

    # -- operators (opset 11 semantics) ------------------------------------------------------------
    def _op_Cast(self, a, k):
        from onnx import TensorProto

        dtypes = {TensorProto.FLOAT: self.torch.float32, TensorProto.FLOAT16: self.torch.float16,
                  TensorProto.DOUBLE: self.torch.float64, TensorProto.INT64: self.torch.int64,
                  TensorProto.INT32: self.torch.int32, TensorProto.BOOL: self.torch.bool}
        if k["to"] not in dtypes:
            raise ModelError("the PyTorch OCR runtime cannot cast to this type", expected="float, float16, double, "
                             "int32, int64 or bool", found=f"ONNX type {k['to']}", hint="use the ONNX Runtime reader")
        return a[0].to(dtypes[k["to"]])

    def _op_Identity(self, a, k):
        return a[0]

    def _op_Add(self, a, k):
        return a[0] + a[1]

    def _op_Sub(self, a, k):
        return a[0] - a[1]

    def _op_Mul(self, a, k):
        return a[0] * a[1]

    def _op_Div(self, a, k):
        return a[0] / a[1]

    def _op_Pow(self, a, k):
        return self.torch.pow(a[0], a[1])

    def _op_Sqrt(self, a, k):
        return self.torch.sqrt(a[0])

    def _op_Erf(self, a, k):
        return self.torch.erf(a[0])

    def _op_Relu(self, a, k):
        return self.torch.relu(a[0])

    def _op_Sigmoid(self, a, k):
        return self.torch.sigmoid(a[0])

    def _op_HardSigmoid(self, a, k):
        return (a[0] * k.get("alpha", 0.2) + k.get("beta", 0.5)).clamp(0.0, 1.0)

    def _op_MatMul(self, a, k):
        return self.torch.matmul(a[0], a[1])

    def _op_Softmax(self, a, k):
        axis = k.get("axis", 1)
        if axis not in (-1, a[0].dim() - 1):  # opset < 13 flattens from `axis`: the same only on the last one
            raise ModelError("Softmax over a middle axis", expected="the last axis", found=f"axis {axis}")
        return self.torch.softmax(a[0], dim=-1)

    def _op_Conv(self, a, k):
        F = self.torch.nn.functional
        x, w = a[0], a[1]
        b = a[2] if len(a) > 2 else None
        kernel = k.get("kernel_shape", list(w.shape[2:]))
        strides = k.get("strides", [1] * len(kernel))
        dilations = k.get("dilations", [1] * len(kernel))
        if k.get("auto_pad", b"NOTSET") in (b"SAME_UPPER", "SAME_UPPER"):
            x = F.pad(x, _same_pads(x.shape[2:], kernel, strides, dilations))
            padding = 0
        else:
            pads = k.get("pads", [0] * 2 * len(kernel))
            half = len(pads) // 2
            if pads[:half] != pads[half:]:
                x = F.pad(x, [p for i in reversed(range(half)) for p in (pads[i], pads[i + half])])
                padding = 0
            else:
                padding = pads[:half]
        if self.conv_as_matmul and k.get("group", 1) == 1 and x.dim() == 4:
            return self._conv_matmul(x, w, b, kernel, strides, padding, dilations)
        return F.conv2d(x, w, b, strides, padding, dilations, k.get("group", 1))

    def _conv_matmul(self, x, w, b, kernel, strides, padding, dilations):
        """conv2d of one group as (out, in·kh·kw) @ (batch, in·kh·kw, positions): one product for the batch."""
        n, c = x.shape[:2]
        o = w.shape[0]
        pad = [0, 0] if padding == 0 else list(padding)
        if list(kernel) == [1, 1] and pad == [0, 0]:
            if list(strides) != [1, 1]:
                x = x[:, :, :: strides[0], :: strides[1]]
            h, wd = x.shape[2:]
            cols = x.reshape(n, c, h * wd)
        else:
            h = (x.shape[2] + 2 * pad[0] - dilations[0] * (kernel[0] - 1) - 1) // strides[0] + 1
            wd = (x.shape[3] + 2 * pad[1] - dilations[1] * (kernel[1] - 1) - 1) // strides[1] + 1
            cols = self.torch.nn.functional.unfold(x, list(kernel), list(dilations), pad, list(strides))
        out = self.torch.matmul(w.reshape(o, -1), cols).reshape(n, o, h, wd)
        return out if b is None else out + b.reshape(1, o, 1, 1)

    def _op_ConvTranspose(self, a, k):
        pads = k.get("pads", [0, 0, 0, 0])
        if pads[:2] != pads[2:] or k.get("output_padding") or k.get("output_shape"):
            raise ModelError("ConvTranspose with uneven padding", expected="symmetric pads", found=str(pads))
        return self.torch.nn.functional.conv_transpose2d(a[0], a[1], a[2] if len(a) > 2 else None, k.get("strides", [1, 1]),
                                                         pads[:2], 0, k.get("group", 1), k.get("dilations", [1, 1]))

    def _op_BatchNormalization(self, a, k):
        return self.torch.nn.functional.batch_norm(a[0], a[3], a[4], a[1], a[2], False, 0.0, k.get("epsilon", 1e-5))

    def _op_MaxPool(self, a, k):
        F = self.torch.nn.functional
        x, kernel = a[0], k["kernel_shape"]
        strides = k.get("strides", [1] * len(kernel))
        if k.get("auto_pad", b"NOTSET") in (b"SAME_UPPER", "SAME_UPPER"):
            x = F.pad(x, _same_pads(x.shape[2:], kernel, strides, [1] * len(kernel)), value=-math.inf)
            padding = 0
        else:
            pads = k.get("pads", [0] * 2 * len(kernel))
            padding = pads[: len(kernel)]
        return F.max_pool2d(x, kernel, strides, padding, ceil_mode=bool(k.get("ceil_mode", 0)))

    def _op_AveragePool(self, a, k):
        pads = k.get("pads", [0, 0, 0, 0])
        return self.torch.nn.functional.avg_pool2d(a[0], k["kernel_shape"], k.get("strides"), pads[:2],
                                                   ceil_mode=bool(k.get("ceil_mode", 0)),
                                                   count_include_pad=bool(k.get("count_include_pad", 0)))

    def _op_GlobalAveragePool(self, a, k):
        return a[0].mean(dim=(2, 3), keepdim=True)

    def _op_ReduceMean(self, a, k):
        axes = k.get("axes", list(range(a[0].dim())))
        return a[0].mean(dim=tuple(axes), keepdim=bool(k.get("keepdims", 1)))

    def _op_Concat(self, a, k):
        return self.torch.cat([t for t in a if t is not None], dim=k["axis"])

    def _op_Transpose(self, a, k):
        return a[0].permute(*k["perm"])

    def _op_Shape(self, a, k):
        return self.torch.tensor(list(a[0].shape), dtype=self.torch.int64)

    def _op_Slice(self, a, k):
        x = a[0]
        starts, ends = a[1].tolist(), a[2].tolist()
        axes = a[3].tolist() if len(a) > 3 and a[3] is not None else list(range(len(starts)))
        steps = a[4].tolist() if len(a) > 4 and a[4] is not None else [1] * len(starts)
        index = [slice(None)] * x.dim()
        for s, e, ax, st in zip(starts, ends, axes, steps):
            n = x.shape[ax]
            s = max(0, min(n, s + n if s < 0 else s))
            e = max(0, min(n, e + n if e < 0 else e))
            index[ax] = slice(s, e, st)
        return x[tuple(index)]

    def _op_Squeeze(self, a, k):
        x = a[0]
        for axis in sorted((ax % x.dim() for ax in k.get("axes", [])), reverse=True):
            x = x.squeeze(axis)
        return x

    def _op_Unsqueeze(self, a, k):
        x = a[0]
        for axis in sorted(k["axes"]):
            x = x.unsqueeze(axis)
        return x

    def _op_Reshape(self, a, k):
        shape = [int(v) for v in a[1].tolist()]
        shape = [a[0].shape[i] if v == 0 else v for i, v in enumerate(shape)]
        return a[0].reshape(shape)

    def _op_Resize(self, a, k):
        x = a[0]
        mode = k.get("mode", b"nearest")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        transform = k.get("coordinate_transformation_mode", b"half_pixel")
        transform = transform.decode() if isinstance(transform, bytes) else transform
        sizes = a[3] if len(a) > 3 and a[3] is not None and a[3].numel() else None
        if sizes is not None:
            size = [int(v) for v in sizes.tolist()[2:]]
        else:
            scales = a[2].tolist()
            size = [int(math.floor(n * s)) for n, s in zip(x.shape[2:], scales[2:])]
        if mode == "nearest" and transform == "asymmetric" and k.get("nearest_mode", b"floor") in (b"floor", "floor"):
            return self.torch.nn.functional.interpolate(x, size=size, mode="nearest")
        if mode == "linear" and transform in ("half_pixel", "pytorch_half_pixel", "align_corners"):
            return self.torch.nn.functional.interpolate(x, size=size, mode="bilinear",
                                                        align_corners=transform == "align_corners")
        raise ModelError("a Resize the PyTorch OCR runtime does not reproduce", expected="nearest/asymmetric/floor "
                         "or linear", found=f"{mode}/{transform}")

    def _op_TopK(self, a, k):
        values, indices = self.torch.topk(a[0], int(a[1].reshape(-1)[0]), dim=k.get("axis", -1),
                                          largest=bool(k.get("largest", 1)), sorted=bool(k.get("sorted", 1)))
        return values, indices


class TorchSession(ShapeCountingSession):
    """BucketSession's interface (gpu.py) over a TorchGraph. On a GPU each input shape is captured once as a
    CUDA graph and replayed (torch_cuda_graphs.py; `graphs=False` or HANGTAG_OCR_CUDA_GRAPHS=0 runs node by
    node); `graphs_off` says why a session runs node by node."""

    def __init__(self, model_path: Path, *, device: str = "cuda", threads: int | None = None,
                 cudnn: bool | None = None, cudnn_benchmark: bool = False, graphs: bool | None = None) -> None:
        torch = _torch()
        if device == "cuda" and not torch.cuda.is_available():
            raise BackendUnavailableError("PyTorch sees no GPU", expected="torch.cuda.is_available()",
                                          found="False", hint="use the CPU reader on this machine")
        if device == "cuda":  # FP32 matrix products as on the CPU (not TF32)
            torch.backends.cuda.matmul.allow_tf32 = False
        # convolutions: PyTorch's own kernels unless `cudnn` (default USE_CUDNN); with cuDNN, FP32 (no TF32) and
        # its algorithms by heuristic unless `cudnn_benchmark` asks for a timed search per new shape
        self.cudnn = USE_CUDNN if cudnn is None else cudnn
        self.cudnn_benchmark = cudnn_benchmark
        if device == "cpu" and threads:
            torch.set_num_threads(threads)
        self.model_path = Path(model_path)
        self.device = device
        self.graph = TorchGraph(self.model_path, device, conv_as_matmul=device != "cpu" and not self.cudnn and CONV_AS_MATMUL)
        self.metadata = self.graph.metadata
        self.input_name = self.graph.input_names[0]
        self.output_names = self.graph.output_names
        self.cuda_graphs = None
        self.graphs_off = _graphs_off(torch, device, graphs)
        if self.graphs_off is None:
            from inference.reading.ocr.torch_cuda_graphs import CudaGraphs

            self.cuda_graphs = CudaGraphs(self.graph)
        self._start_counting()

    @property
    def captures_graphs(self) -> bool:
        """Whether a shape run once is replayed cheaply from then on (so warming every shape pays)."""
        return self.cuda_graphs is not None and self.cuda_graphs.unavailable_reason is None

    def warm_up(self, shapes, fetch: Sequence[str]) -> float:
        shapes = list(shapes)
        if self.cuda_graphs is not None:  # largest first: the shared pool's blocks are cut for it, then reused
            self.cuda_graphs.reserve(shapes)
            shapes.sort(key=math.prod, reverse=True)
        return super().warm_up(shapes, fetch)

    def run(self, feeds: dict[str, np.ndarray], fetch: Sequence[str]) -> dict[str, np.ndarray]:
        self._count(tuple(feeds[self.input_name].shape))
        with self.graph.torch.backends.cudnn.flags(enabled=self.cudnn, benchmark=self.cudnn_benchmark,
                                                   deterministic=False, allow_tf32=False):
            out = None
            if self.cuda_graphs is not None:
                out = self.cuda_graphs.run(np.asarray(feeds[self.input_name]), fetch)
                if self.cuda_graphs.unavailable_reason and self.graphs_off is None:
                    self.graphs_off = self.cuda_graphs.unavailable_reason
            if out is None:
                ran = self.graph.run(feeds)
                out = {name: ran[name].cpu().numpy() for name in fetch}
        self.runs += 1
        return out

    def close(self) -> None:
        if self.cuda_graphs is not None:
            self.cuda_graphs.close()
        self.cuda_graphs = None
        self.graph = None


GRAPHS_ENV = "HANGTAG_OCR_CUDA_GRAPHS"


def _graphs_off(torch, device: str, wanted: bool | None) -> str | None:
    """Why a session runs node by node (None: it captures CUDA graphs)."""
    import os

    if wanted is None:
        wanted = os.environ.get(GRAPHS_ENV, "1").strip() not in ("0", "off", "no", "false")
        if not wanted:
            return f"{GRAPHS_ENV}=0"
    if not wanted:
        return "CUDA graphs not asked for"
    from inference.reading.ocr.torch_cuda_graphs import graphs_unavailable

    return graphs_unavailable(torch, device)
