"""HTDet: a compact single-stage anchor-free detector for hangtags and their symbols.

CSP-style backbone (split, a chain of residual 3x3 pairs, every intermediate kept, 1x1 merge),
a path-aggregation neck, and decoupled box/class heads at strides 8, 16 and 32. Each output
cell predicts distances to the box's four sides (in strides) and one logit per class.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

STRIDES = (8, 16, 32)


class ConvBNAct(nn.Sequential):
    def __init__(self, c_in: int, c_out: int, k: int = 3, s: int = 1, act: bool = True) -> None:
        super().__init__(
            nn.Conv2d(c_in, c_out, k, s, k // 2, bias=False),
            nn.BatchNorm2d(c_out, eps=1e-3, momentum=0.03),
            nn.SiLU(inplace=True) if act else nn.Identity(),
        )


class Residual(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.a, self.b = ConvBNAct(c, c, 3), ConvBNAct(c, c, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.b(self.a(x))


class CSPStage(nn.Module):
    """Half the channels bypass the residual chain; every link's output joins the merge."""

    def __init__(self, c_in: int, c_out: int, n: int) -> None:
        super().__init__()
        self.hidden = c_out // 2
        self.split = ConvBNAct(c_in, 2 * self.hidden, 1)
        self.chain = nn.ModuleList(Residual(self.hidden) for _ in range(n))
        self.merge = ConvBNAct((2 + n) * self.hidden, c_out, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        parts = list(self.split(x).split(self.hidden, dim=1))
        for link in self.chain:
            parts.append(link(parts[-1]))
        return self.merge(torch.cat(parts, dim=1))


class SpatialPyramidPool(nn.Module):
    """Three chained 5x5 max-pools: receptive fields of 5, 9 and 13 cells at stride 32."""

    def __init__(self, c: int) -> None:
        super().__init__()
        self.reduce = ConvBNAct(c, c // 2, 1)
        self.merge = ConvBNAct(c * 2, c, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.reduce(x)
        p1 = F.max_pool2d(x, 5, 1, 2)
        p2 = F.max_pool2d(p1, 5, 1, 2)
        p3 = F.max_pool2d(p2, 5, 1, 2)
        return self.merge(torch.cat((x, p1, p2, p3), dim=1))


class Head(nn.Module):
    def __init__(self, c_in: int, c_box: int, c_cls: int, num_classes: int) -> None:
        super().__init__()
        self.box = nn.Sequential(ConvBNAct(c_in, c_box, 3), ConvBNAct(c_box, c_box, 3), nn.Conv2d(c_box, 4, 1))
        self.cls = nn.Sequential(ConvBNAct(c_in, c_cls, 3), ConvBNAct(c_cls, c_cls, 3), nn.Conv2d(c_cls, num_classes, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.box(x), self.cls(x)


# ReLU is what ships: onnxruntime folds it into each int8 convolution (QLinearConv), where SiLU costs a
# QLinearSigmoid and a QLinearMul per layer that barely use a second thread (BENCHMARKS.md, issue 4).
ACTIVATIONS = {"relu": nn.ReLU, "silu": nn.SiLU}


class HTDet(nn.Module):
    def __init__(self, num_classes: int = 3, widths: tuple[int, ...] = (16, 32, 64, 128, 192),
                 depths: tuple[int, ...] = (1, 2, 2, 1), activation: str = "silu") -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}: expected one of {', '.join(ACTIVATIONS)}")
        super().__init__()
        self.activation = activation
        c1, c2, c3, c4, c5 = widths
        self.num_classes = num_classes
        self.widths, self.depths = tuple(widths), tuple(depths)
        self.stem = ConvBNAct(3, c1, 3, 2)
        self.stage2 = nn.Sequential(ConvBNAct(c1, c2, 3, 2), CSPStage(c2, c2, depths[0]))
        self.stage3 = nn.Sequential(ConvBNAct(c2, c3, 3, 2), CSPStage(c3, c3, depths[1]))
        self.stage4 = nn.Sequential(ConvBNAct(c3, c4, 3, 2), CSPStage(c4, c4, depths[2]))
        self.stage5 = nn.Sequential(ConvBNAct(c4, c5, 3, 2), CSPStage(c5, c5, depths[3]), SpatialPyramidPool(c5))
        self.top_down4 = CSPStage(c5 + c4, c4, 1)
        self.top_down3 = CSPStage(c4 + c3, c3, 1)
        self.down3 = ConvBNAct(c3, c3, 3, 2)
        self.bottom_up4 = CSPStage(c3 + c4, c4, 1)
        self.down4 = ConvBNAct(c4, c4, 3, 2)
        self.bottom_up5 = CSPStage(c4 + c5, c5, 1)
        c_box = max(32, c3 // 2)
        c_cls = max(32, c3)
        self.heads = nn.ModuleList(Head(c, c_box, c_cls, num_classes) for c in (c3, c4, c5))
        self._init_biases()
        if activation != "silu":  # every ConvBNAct is built with SiLU; swap them all (no parameters change)
            for module in self.modules():
                if isinstance(module, ConvBNAct) and isinstance(module[2], nn.SiLU):
                    module[2] = ACTIVATIONS[activation](inplace=True)

    def _init_biases(self) -> None:
        prior = 0.01
        for head in self.heads:
            nn.init.constant_(head.cls[-1].bias, -math.log((1 - prior) / prior))
            nn.init.constant_(head.box[-1].bias, 1.0)

    def features(self, x: torch.Tensor) -> list[torch.Tensor]:
        p3 = self.stage3(self.stage2(self.stem(x)))
        p4 = self.stage4(p3)
        p5 = self.stage5(p4)
        t4 = self.top_down4(torch.cat((F.interpolate(p5, scale_factor=2.0, mode="nearest"), p4), 1))
        n3 = self.top_down3(torch.cat((F.interpolate(t4, scale_factor=2.0, mode="nearest"), p3), 1))
        n4 = self.bottom_up4(torch.cat((self.down3(n3), t4), 1))
        n5 = self.bottom_up5(torch.cat((self.down4(n4), p5), 1))
        return [n3, n4, n5]

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw outputs, flattened over all cells of all levels: distances (B, A, 4) in strides
        before softplus, and class logits (B, A, C)."""
        boxes, logits = [], []
        for feat, head in zip(self.features(x), self.heads):
            b, c = head(feat)
            boxes.append(b.flatten(2).transpose(1, 2))
            logits.append(c.flatten(2).transpose(1, 2))
        return torch.cat(boxes, 1), torch.cat(logits, 1)


def anchor_points(height: int, width: int, device: torch.device | str = "cpu",
                  dtype: torch.dtype = torch.float32) -> tuple[torch.Tensor, torch.Tensor]:
    """Cell centres in input pixels (A, 2) and each cell's stride (A, 1), level by level."""
    points, strides = [], []
    for s in STRIDES:
        h, w = math.ceil(height / s), math.ceil(width / s)
        ys, xs = torch.meshgrid(torch.arange(h, device=device, dtype=dtype),
                                torch.arange(w, device=device, dtype=dtype), indexing="ij")
        points.append(torch.stack(((xs.flatten() + 0.5) * s, (ys.flatten() + 0.5) * s), 1))
        strides.append(torch.full((h * w, 1), float(s), device=device, dtype=dtype))
    return torch.cat(points), torch.cat(strides)


def decode_ltrb(raw: torch.Tensor, points: torch.Tensor, strides: torch.Tensor) -> torch.Tensor:
    """Distances (softplus, in strides) to x1, y1, x2, y2 in input pixels."""
    d = F.softplus(raw.float()) * strides
    return torch.cat((points - d[..., :2], points + d[..., 2:]), -1)


class ExportWrapper(nn.Module):
    """YOLOv8-style output for the station: (B, 4 + C, A) = cx, cy, w, h in input pixels and
    per-class scores after sigmoid."""

    def __init__(self, model: HTDet, imgsz: int) -> None:
        super().__init__()
        self.model = model
        points, strides = anchor_points(imgsz, imgsz)
        self.register_buffer("points", points, persistent=False)
        self.register_buffer("strides", strides, persistent=False)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        raw, logits = self.model(images)
        d = F.softplus(raw) * self.strides
        wh = d[..., :2] + d[..., 2:]
        centre = self.points + (d[..., 2:] - d[..., :2]) / 2
        return torch.cat((centre, wh, logits.sigmoid()), -1).transpose(1, 2)
