"""Task-aligned assignment and the detection loss.

Assignment follows the idea of TOOD (Feng et al., 2021): an anchor's fitness for a ground
truth is score^alpha * IoU^beta, the top-k fit candidates become positives, and their class
targets are that fitness rescaled so the best anchor of each object aims at its IoU. Candidates
are anchors inside the box or within one stride of its centre, so a barcode thinner than a
stride still gets anchors. Box loss is GIoU plus a small L1 on the side distances.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from inference.adapt.htdet.net import decode_ltrb


def pairwise_iou_aligned(gt: torch.Tensor, pred: torch.Tensor, eps: float = 1e-7) -> torch.Tensor:
    """IoU between gt (B, M, 4) and every anchor's prediction (B, A, 4) -> (B, M, A)."""
    g = gt[:, :, None, :]
    p = pred[:, None, :, :]
    iw = (torch.minimum(g[..., 2], p[..., 2]) - torch.maximum(g[..., 0], p[..., 0])).clamp_(min=0)
    ih = (torch.minimum(g[..., 3], p[..., 3]) - torch.maximum(g[..., 1], p[..., 1])).clamp_(min=0)
    inter = iw * ih
    area_g = (g[..., 2] - g[..., 0]) * (g[..., 3] - g[..., 1])
    area_p = (p[..., 2] - p[..., 0]) * (p[..., 3] - p[..., 1])
    return inter / (area_g + area_p - inter + eps)


def giou(a: torch.Tensor, b: torch.Tensor, eps: float = 1e-7) -> torch.Tensor:
    iw = (torch.minimum(a[:, 2], b[:, 2]) - torch.maximum(a[:, 0], b[:, 0])).clamp(min=0)
    ih = (torch.minimum(a[:, 3], b[:, 3]) - torch.maximum(a[:, 1], b[:, 1])).clamp(min=0)
    inter = iw * ih
    union = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter + eps
    cw = torch.maximum(a[:, 2], b[:, 2]) - torch.minimum(a[:, 0], b[:, 0])
    ch = torch.maximum(a[:, 3], b[:, 3]) - torch.minimum(a[:, 1], b[:, 1])
    hull = cw * ch + eps
    iou = inter / union
    return iou - (hull - union) / hull


@dataclass
class Assignment:
    fg: torch.Tensor             # (B, A) bool
    boxes: torch.Tensor          # (B, A, 4) target xyxy
    scores: torch.Tensor         # (B, A, C) soft class targets


@torch.no_grad()
def assign(scores: torch.Tensor, boxes: torch.Tensor, points: torch.Tensor, strides: torch.Tensor,
           gt_labels: torch.Tensor, gt_boxes: torch.Tensor, *, topk: int = 10, alpha: float = 0.5,
           beta: float = 6.0, centre_radius: float = 1.0) -> Assignment:
    """scores (B, A, C) after sigmoid; boxes (B, A, 4) xyxy; gt_labels (B, M) with -1 padding."""
    b, a, c = scores.shape
    valid = gt_labels >= 0                                           # (B, M)
    px, py = points[:, 0][None, None], points[:, 1][None, None]      # (1, 1, A)
    x1, y1, x2, y2 = (gt_boxes[..., i, None] for i in range(4))      # (B, M, 1)
    inside = (px > x1) & (px < x2) & (py > y1) & (py < y2)
    r = strides[:, 0][None, None] * centre_radius
    near_centre = ((px - (x1 + x2) / 2).abs() < r) & ((py - (y1 + y2) / 2).abs() < r)
    candidate = (inside | near_centre) & valid[..., None]           # (B, M, A)

    iou = pairwise_iou_aligned(gt_boxes, boxes).clamp_(min=0)        # (B, M, A)
    labels = gt_labels.clamp(min=0)
    cls_score = scores.transpose(1, 2).gather(1, labels[..., None].expand(-1, -1, a))  # (B, M, A)
    metric = cls_score.pow(alpha) * iou.pow(beta)
    ranked = torch.where(candidate, metric + 1e-9, torch.zeros_like(metric))
    top = ranked.topk(min(topk, a), dim=-1).indices
    chosen = torch.zeros_like(candidate).scatter_(-1, top, True) & candidate

    # An anchor claimed by several objects goes to the one it overlaps most.
    many = chosen.sum(1, keepdim=True) > 1
    best = F.one_hot(torch.where(chosen, iou, torch.full_like(iou, -1)).argmax(1), gt_labels.shape[1])
    chosen = torch.where(many, best.transpose(1, 2).bool(), chosen)

    fg = chosen.any(1)                                               # (B, A)
    owner = chosen.float().argmax(1)                                 # (B, A)
    target_boxes = gt_boxes.gather(1, owner[..., None].expand(-1, -1, 4))
    target_labels = labels.gather(1, owner)

    metric = metric * chosen
    norm = metric * (iou * chosen).amax(-1, keepdim=True) / (metric.amax(-1, keepdim=True) + 1e-9)
    weight = norm.amax(1)                                            # (B, A)
    target_scores = F.one_hot(target_labels, c).float() * (weight * fg)[..., None]
    return Assignment(fg, target_boxes, target_scores)


def box_terms(raw: torch.Tensor, boxes: torch.Tensor, target: Assignment, total: torch.Tensor, points: torch.Tensor,
              strides: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The box losses over the assigned anchors: GIoU against the target boxes and L1 on the side distances,
    each weighted by the anchor's target score and divided by `total` (zero, still in the graph, where none)."""
    fg = target.fg
    if not fg.any():
        zero = raw.sum() * 0
        return zero, zero
    weight = target.scores.sum(-1)[fg]
    box_loss = ((1 - giou(boxes[fg], target.boxes[fg])) * weight).sum() / total
    anchor_strides = strides.expand(fg.shape[0], -1, -1)[fg]
    anchor_points = points.expand(fg.shape[0], -1, -1)[fg]
    t = target.boxes[fg]
    target_ltrb = (torch.cat((anchor_points - t[:, :2], t[:, 2:] - anchor_points), 1) / anchor_strides).clamp(min=0)
    l1 = ((F.softplus(raw[fg]) - target_ltrb).abs().mean(1) * weight).sum() / total
    return box_loss, l1


class DetectionLoss:
    def __init__(self, points: torch.Tensor, strides: torch.Tensor, *, box_gain: float = 7.5,
                 cls_gain: float = 0.5, l1_gain: float = 0.5, trained_classes: torch.Tensor | None = None) -> None:
        """`trained_classes` (bool per class): the classification loss covers only these; None: all."""
        self.points, self.strides = points, strides
        self.box_gain, self.cls_gain, self.l1_gain = box_gain, cls_gain, l1_gain
        self.trained_classes = trained_classes

    def __call__(self, raw: torch.Tensor, logits: torch.Tensor, gt: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """raw (B, A, 4), logits (B, A, C); gt (B, M, 5) rows of class, x1, y1, x2, y2 (class -1 = none).
        Returns the loss and, detached, (box, cls, l1, positives) for the log."""
        raw, logits = raw.float(), logits.float()
        boxes = decode_ltrb(raw, self.points, self.strides)
        target = assign(logits.detach().sigmoid(), boxes.detach(), self.points, self.strides,
                        gt[..., 0].long(), gt[..., 1:])
        total = target.scores.sum().clamp(min=1.0)
        if self.trained_classes is None:
            cls_loss = F.binary_cross_entropy_with_logits(logits, target.scores, reduction="sum") / total
        else:
            keep = self.trained_classes
            cls_loss = F.binary_cross_entropy_with_logits(logits[..., keep], target.scores[..., keep],
                                                          reduction="sum") / total

        fg = target.fg
        box_loss, l1 = box_terms(raw, boxes, target, total, self.points, self.strides)
        loss = self.box_gain * box_loss + self.cls_gain * cls_loss + self.l1_gain * l1
        parts = torch.stack((box_loss.detach(), cls_loss.detach(), l1.detach(), fg.sum().float()))
        return loss, parts
