"""Small facts about an ONNX graph that the precision step needs: input, precision, decode tail."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import onnx
from onnx import TensorProto

from inference.errors import ModelError

COMPUTE_OPS = frozenset({"Conv", "ConvTranspose", "MatMul", "Gemm"})


def load(path: Path, *, weights: bool = True) -> onnx.ModelProto:
    try:
        return onnx.load(str(path), load_external_data=weights)
    except Exception as exc:  # protobuf DecodeError, OSError
        raise ModelError("the model is not a readable ONNX file", expected="an .onnx detector",
                         found=f"{Path(path).name}: {type(exc).__name__}: {str(exc)[:160]}",
                         hint="re-export the model or check the file is complete") from exc


def image_input(model: onnx.ModelProto) -> tuple[str, tuple[int, ...]]:
    """Name and dims (-1 where dynamic) of the first graph input that is not an initializer."""
    initializers = {init.name for init in model.graph.initializer}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        dims = tuple(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else -1
                     for d in value.type.tensor_type.shape.dim)
        return value.name, dims
    raise ModelError("the model has no input", expected="one image input [N, 3, H, W]", found="none")


def detect_precision(model: onnx.ModelProto) -> str:
    """'int8' when the graph holds Q/DQ nodes, 'fp16' when most weights are float16, else 'fp32'."""
    ops = {node.op_type for node in model.graph.node}
    if ops & {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul"}:
        return "int8"
    sizes = {TensorProto.FLOAT: 0, TensorProto.FLOAT16: 0}
    for init in model.graph.initializer:
        if init.data_type in sizes:
            count = 1
            for d in init.dims:
                count *= d
            sizes[init.data_type] += count
    return "fp16" if sizes[TensorProto.FLOAT16] > sizes[TensorProto.FLOAT] else "fp32"


def decode_tail(model: onnx.ModelProto) -> list[str]:
    """Nodes after the last compute op on every path: the box decode (strides, DFL, concat).

    That tail mixes pixel-scale boxes with 0..1 scores in one tensor; one int8 scale for both
    would erase the scores, so INT8 leaves it in float.
    """
    producers: dict[str, int] = {}
    for i, node in enumerate(model.graph.node):
        for out in node.output:
            producers[out] = i
    feeds_compute = [False] * len(model.graph.node)
    queue = deque(i for i, n in enumerate(model.graph.node) if n.op_type in COMPUTE_OPS)
    for i in queue:
        feeds_compute[i] = True
    while queue:
        node = model.graph.node[queue.popleft()]
        for name in node.input:
            j = producers.get(name)
            if j is not None and not feeds_compute[j]:
                feeds_compute[j] = True
                queue.append(j)
    return [n.name for i, n in enumerate(model.graph.node) if not feeds_compute[i] and n.name]


def output_layers(model: onnx.ModelProto) -> list[str]:
    """Compute nodes whose outputs go only into the decode tail or out of the graph: the heads' last convs.

    Their outputs are raw class logits and box distances; keeping these few small layers in float
    costs little and spares the low-confidence scores that mAP counts.
    """
    tail = set(decode_tail(model))
    consumers: dict[str, list[str]] = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node.name)
    graph_outputs = {o.name for o in model.graph.output}
    heads = []
    for node in model.graph.node:
        if node.op_type not in COMPUTE_OPS or not node.name:
            continue
        users = [u for out in node.output for u in consumers.get(out, [])]
        if all(u in tail for u in users) and (users or set(node.output) & graph_outputs):
            heads.append(node.name)
    return heads


def ensure_node_names(model: onnx.ModelProto) -> onnx.ModelProto:
    """Exclusion lists go by node name; unnamed nodes get stable names from their position."""
    for i, node in enumerate(model.graph.node):
        if not node.name:
            node.name = f"{node.op_type}_{i}"
    return model


def copy_metadata(src: onnx.ModelProto, dst: onnx.ModelProto) -> onnx.ModelProto:
    """Class names, imgsz and stride travel with the converted model (converters may drop them)."""
    existing = {p.key for p in dst.metadata_props}
    for prop in src.metadata_props:
        if prop.key not in existing:
            entry = dst.metadata_props.add()
            entry.key, entry.value = prop.key, prop.value
    return dst
