"""A YOLOv8-shaped stand-in detector for GPU benchmarks when the trained one is not at hand.

Same interface as the real detector: input [N, 3, 640, 640] float32 with a dynamic batch, output
[N, 4+C, 8400] (strides 8/16/32), C = 3, scores through a sigmoid. About 4 GFLOPs per frame (YOLOv8n
is 8.7): eleven 3×3 convolutions with SiLU and three heads. Weights are random but seeded, and the class
bias is set so that roughly a percent of anchors clear the 0.01 candidate floor, as a trained model's do.

The same weights build a PyTorch module (`torch_model`), so the eager-PyTorch baseline runs the very
same function as the ONNX graph.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

NUM_CLASSES = 3
CLASS_NAMES = ("tag", "code", "label")
STRIDES = (8, 16, 32)
# (in, out, stride) of the backbone; levels P3/P4/P5 are taken after the marked layers
BACKBONE = ((3, 16, 2), (16, 32, 2), (32, 32, 1), (32, 64, 2), (64, 64, 1), (64, 128, 2), (128, 128, 1),
            (128, 256, 2), (256, 256, 1))
LEVEL_AFTER = {4: 0, 6: 1, 8: 2}
HEAD_WIDTH = 64
CLASS_BIAS = -8.0
CLASS_GAIN = (13.0, 10.0, 5.0)  # per level, so each level's class logits spread alike


def weights(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray] = {}

    def conv(name: str, cin: int, cout: int, k: int, gain: float = 1.0) -> None:
        std = gain * np.sqrt(2.0 / (cin * k * k))
        out[f"{name}.w"] = (rng.standard_normal((cout, cin, k, k)) * std).astype(np.float32)
        out[f"{name}.b"] = (rng.standard_normal(cout) * 0.05).astype(np.float32)

    for i, (cin, cout, _) in enumerate(BACKBONE):
        conv(f"backbone{i}", cin, cout, 3, gain=1.45)
    for level, cin in enumerate((64, 128, 256)):
        conv(f"head{level}.conv", cin, HEAD_WIDTH, 3, gain=1.45)
        conv(f"head{level}.out", HEAD_WIDTH, 4 + NUM_CLASSES, 1, gain=0.3)
        out[f"head{level}.out.w"][4:] *= CLASS_GAIN[level]
        out[f"head{level}.out.b"][4:] += CLASS_BIAS
    return out


def _grid(h: int, w: int) -> np.ndarray:
    gy, gx = np.mgrid[0:h, 0:w]
    return np.stack([gx.ravel(), gy.ravel()])[None].astype(np.float32)  # (1, 2, HW)


def build_onnx(path: Path, *, seed: int = 0, size: int = 640) -> Path:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    w = weights(seed)
    nodes, inits = [], [numpy_helper.from_array(v, k) for k, v in w.items()]

    def conv_silu(x: str, name: str, stride: int, k: int = 3, act: bool = True) -> str:
        y = f"{name}.y"
        nodes.append(helper.make_node("Conv", [x, f"{name}.w", f"{name}.b"], [y], kernel_shape=[k, k],
                                      strides=[stride, stride], pads=[k // 2] * 4))
        if not act:
            return y
        nodes.append(helper.make_node("Sigmoid", [y], [f"{name}.s"]))
        nodes.append(helper.make_node("Mul", [y, f"{name}.s"], [f"{name}.a"]))
        return f"{name}.a"

    x, levels = "images", []
    for i, (_, _, stride) in enumerate(BACKBONE):
        x = conv_silu(x, f"backbone{i}", stride)
        if i in LEVEL_AFTER:
            levels.append(x)
    outs = []
    for level, (feature, stride) in enumerate(zip(levels, STRIDES)):
        side = size // stride
        h = conv_silu(feature, f"head{level}.conv", 1)
        raw = conv_silu(h, f"head{level}.out", 1, k=1, act=False)
        p = f"l{level}"
        inits += [numpy_helper.from_array(np.array([0, 4 + NUM_CLASSES, -1], np.int64), f"{p}.shape"),
                  numpy_helper.from_array(_grid(side, side), f"{p}.grid"),
                  numpy_helper.from_array(np.array(stride, np.float32), f"{p}.stride"),
                  numpy_helper.from_array(np.array(8.0 * stride, np.float32), f"{p}.span"),
                  numpy_helper.from_array(np.array([2, 2, NUM_CLASSES], np.int64), f"{p}.split")]
        nodes += [
            helper.make_node("Reshape", [raw, f"{p}.shape"], [f"{p}.flat"]),
            helper.make_node("Sigmoid", [f"{p}.flat"], [f"{p}.sig"]),
            helper.make_node("Split", [f"{p}.sig", f"{p}.split"], [f"{p}.xy", f"{p}.wh", f"{p}.cls"], axis=1),
            helper.make_node("Add", [f"{p}.xy", f"{p}.grid"], [f"{p}.xyg"]),
            helper.make_node("Mul", [f"{p}.xyg", f"{p}.stride"], [f"{p}.cxcy"]),
            helper.make_node("Mul", [f"{p}.wh", f"{p}.span"], [f"{p}.size"]),
            helper.make_node("Concat", [f"{p}.cxcy", f"{p}.size", f"{p}.cls"], [f"{p}.out"], axis=1),
        ]
        outs.append(f"{p}.out")
    nodes.append(helper.make_node("Concat", outs, ["output0"], axis=2))
    anchors = sum((size // s) ** 2 for s in STRIDES)
    graph = helper.make_graph(
        nodes, "synthetic_yolov8",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", 4 + NUM_CLASSES, anchors])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    for key, value in {"names": repr(dict(enumerate(CLASS_NAMES))), "imgsz": f"[{size}, {size}]", "stride": "32",
                       "task": "detect", "description": f"synthetic YOLOv8-shaped detector, seed {seed}"}.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def torch_model(seed: int = 0, size: int = 640):
    """The same network as `build_onnx` as a torch.nn.Module (eval mode, float32, on the CPU)."""
    import torch
    from torch import nn

    w = weights(seed)

    def conv(name: str, stride: int, k: int = 3) -> nn.Conv2d:
        weight = torch.from_numpy(w[f"{name}.w"])
        layer = nn.Conv2d(weight.shape[1], weight.shape[0], k, stride, k // 2)
        with torch.no_grad():
            layer.weight.copy_(weight)
            layer.bias.copy_(torch.from_numpy(w[f"{name}.b"]))
        return layer

    class Synthetic(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.backbone = nn.ModuleList(conv(f"backbone{i}", s) for i, (_, _, s) in enumerate(BACKBONE))
            self.head_conv = nn.ModuleList(conv(f"head{i}.conv", 1) for i in range(3))
            self.head_out = nn.ModuleList(conv(f"head{i}.out", 1, k=1) for i in range(3))
            for i, stride in enumerate(STRIDES):
                self.register_buffer(f"grid{i}", torch.from_numpy(_grid(size // stride, size // stride)))

        def forward(self, x):
            levels = []
            for i, layer in enumerate(self.backbone):
                x = nn.functional.silu(layer(x))
                if i in LEVEL_AFTER:
                    levels.append(x)
            outs = []
            for i, (feature, stride) in enumerate(zip(levels, STRIDES)):
                raw = self.head_out[i](nn.functional.silu(self.head_conv[i](feature)))
                sig = raw.flatten(2).sigmoid()
                xy = (sig[:, :2] + getattr(self, f"grid{i}")) * stride
                outs.append(torch.cat([xy, sig[:, 2:4] * (8.0 * stride), sig[:, 4:]], dim=1))
            return torch.cat(outs, dim=2)

    return Synthetic().eval()
