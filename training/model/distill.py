"""The starting model as a teacher: its own outputs as soft targets wherever the truth bears them out.

A fine-tune against false tags (tag-free scenes, hard negatives) also moves what the model does on tags,
and on tags of designs it never trained on that shows as lost or split tags (BENCHMARKS.md, issue 17).
Distillation keeps the starting model's answers on every anchor where they are right, so the fine-tune
changes only what the truth says is wrong:

- class targets are max(task-aligned target, teacher score), the teacher score counted only where the
  teacher's own box at that anchor overlaps a truth box of that class at IoU >= `iou` (a tag the teacher
  finds stays found with the same confidence, over the same spread of anchors);
- everywhere else (a coin, a lamp, a receipt, the price panel inside a tag) the target is the truth's: 0;
- the teacher's side distances are kept as an L1 target on those same anchors, weighted by its score,
  so the boxes of found tags keep their extent (the reader reads inside them).

The box and L1 losses of the task-aligned positives are DetectionLoss's, unchanged.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from training.model.loss import assign, box_terms, pairwise_iou_aligned
from training.model.net import decode_ltrb


class DistillLoss:
    def __init__(self, teacher: torch.nn.Module, points: torch.Tensor, strides: torch.Tensor, *, iou: float = 0.6,
                 box_gain: float = 7.5, cls_gain: float = 0.5, l1_gain: float = 0.5, teacher_box_gain: float = 1.0) -> None:
        self.teacher = teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.points, self.strides, self.iou = points, strides, iou
        self.box_gain, self.cls_gain, self.l1_gain, self.teacher_box_gain = box_gain, cls_gain, l1_gain, teacher_box_gain

    @torch.no_grad()
    def teacher_targets(self, x: torch.Tensor, gt: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(soft class targets (B, A, C), teacher side distances (B, A, 4)) for a batch."""
        with torch.autocast(x.device.type, dtype=torch.bfloat16, enabled=x.device.type == "cuda"):
            raw_t, logits_t = self.teacher(x)
        raw_t, p_t = raw_t.float(), logits_t.float().sigmoid()
        boxes_t = decode_ltrb(raw_t, self.points, self.strides)
        iou = pairwise_iou_aligned(gt[..., 1:], boxes_t)                 # (B, M, A)
        labels = gt[..., 0].long()
        keep = torch.zeros_like(p_t, dtype=torch.bool)
        for c in range(p_t.shape[-1]):
            of_c = (labels == c)[..., None]
            keep[..., c] = torch.where(of_c, iou, torch.zeros_like(iou)).amax(1) >= self.iou
        return p_t * keep, F.softplus(raw_t)

    def __call__(self, raw: torch.Tensor, logits: torch.Tensor, gt: torch.Tensor, soft: torch.Tensor,
                 ltrb_t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        raw, logits = raw.float(), logits.float()
        boxes = decode_ltrb(raw, self.points, self.strides)
        target = assign(logits.detach().sigmoid(), boxes.detach(), self.points, self.strides, gt[..., 0].long(), gt[..., 1:])
        total = target.scores.sum().clamp(min=1.0)
        cls_target = torch.maximum(target.scores, soft)
        cls_loss = F.binary_cross_entropy_with_logits(logits, cls_target, reduction="sum") / total

        fg = target.fg
        box_loss, l1 = box_terms(raw, boxes, target, total, self.points, self.strides)
        w_t = soft.amax(-1)
        kept = w_t > 0.05
        if kept.any():
            teacher_l1 = ((F.softplus(raw[kept]) - ltrb_t[kept]).abs().mean(1) * w_t[kept]).sum() / w_t[kept].sum()
        else:
            teacher_l1 = raw.sum() * 0
        loss = self.box_gain * box_loss + self.cls_gain * cls_loss + self.l1_gain * l1 + self.teacher_box_gain * teacher_l1
        parts = torch.stack((box_loss.detach(), cls_loss.detach(), l1.detach(), fg.sum().float()))
        return loss, parts
