"""Start training from a shipped ONNX detector: the station keeps no checkpoint, only the ONNX.

The export folded each BatchNorm into its convolution, so the ONNX holds one weight and one bias per
convolution. They go back into HTDet (convolutions matched in execution order, shapes checked), each
bias into its BatchNorm's shift with the BN as an identity; `calibrate_bn` then gives every BN the
running statistics and scale of the features it sees, so the network computes exactly what the ONNX
computes in eval mode and nearly so in train mode (batch statistics), and fine-tuning starts where the
shipped model stands.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from inference.adapt.htdet.net import ConvBNAct, HTDet


def _execution_order(model: HTDet, imgsz: int = 64) -> list[nn.Conv2d]:
    order: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda mod, _i, _o: order.append(mod)) for m in model.modules() if isinstance(m, nn.Conv2d)]
    was = model.training
    model.eval()
    with torch.no_grad():
        model(torch.zeros(1, 3, imgsz, imgsz, device=next(model.parameters()).device))
    model.train(was)
    for h in hooks:
        h.remove()
    return order


def onnx_conv_weights(path: Path) -> list[tuple[np.ndarray, np.ndarray | None]]:
    import onnx
    from onnx import numpy_helper

    proto = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    out = []
    for node in proto.graph.node:
        if node.op_type == "Conv":
            out.append((inits[node.input[1]], inits[node.input[2]] if len(node.input) > 2 else None))
    return out


def load_onnx_weights(model: HTDet, path: Path) -> None:
    convs = _execution_order(model)
    weights = onnx_conv_weights(path)
    if len(convs) != len(weights):
        raise ValueError(f"{path} has {len(weights)} convolutions, the model {len(convs)}: not this architecture")
    bn_of = {id(m[0]): m[1] for m in model.modules() if isinstance(m, ConvBNAct)}
    with torch.no_grad():
        for conv, (w, b) in zip(convs, weights):
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"convolution shape {tuple(conv.weight.shape)} != ONNX {w.shape}: not this architecture")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bias = torch.from_numpy(b.copy()) if b is not None else torch.zeros(w.shape[0])
            bn = bn_of.get(id(conv))
            if bn is None:
                conv.bias.copy_(bias)
                continue
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)


@torch.no_grad()
def calibrate_bn(model: HTDet, images: torch.Tensor) -> None:
    """Per BN: mean and variance of its input over `images` (eval mode, so exactly the ONNX's features)."""
    stats: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]

    def hook(mod, inputs, _out):
        x = inputs[0].float()
        stats[id(mod)] = (x.mean((0, 2, 3)), x.var((0, 2, 3), unbiased=False))

    hooks = [bn.register_forward_hook(hook) for bn in bns]
    was = model.training
    model.eval()
    model(images)
    model.train(was)
    for h in hooks:
        h.remove()
    for bn in bns:
        mean, var = stats[id(bn)]
        bias = bn.bias.clone()  # still the folded conv bias: BN is the identity plus it
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.copy_(torch.sqrt(var + bn.eps))
        bn.bias.copy_(mean + bias)


def onnx_difference(model: HTDet, path: Path, images: torch.Tensor, imgsz: int) -> float:
    """Largest |difference| between the model (eval, as exported) and the ONNX file on `images`."""
    import onnxruntime as ort

    from inference.adapt.htdet.net import ExportWrapper

    wrapper = ExportWrapper(model, imgsz).to(images.device).eval()
    tf32 = torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = False  # compare in full FP32
    try:
        with torch.no_grad():
            mine = wrapper(images.float()).cpu().numpy()
    finally:
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = tf32
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    theirs = session.run(None, {"images": images.float().contiguous().cpu().numpy()})[0]
    boxes = float((np.abs(mine[:, :4] - theirs[:, :4]) / (np.abs(theirs[:, :4]) + 1.0)).max())
    scores = float(np.abs(mine[:, 4:] - theirs[:, 4:]).max())
    return max(scores, boxes)
