"""The fine-tune loop: from an ONNX detector's weights, on a handful of corrected frames.

Small data changes what matters: BatchNorm keeps the statistics of the model it starts from (a batch
of four frames would overwrite them with noise), the learning rate is low with a cosine decay, and
the held-out frames are scored after every epoch with the product's own AP50, never used to pick an
epoch (that would make the number the engineer compares on a promise, not a measurement).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import torch
from torch import nn

from inference.adapt.errors import AdaptError, FineTuneCancelled
from inference.adapt.htdet.data import MAX_OBJECTS, augment, letterbox
from inference.adapt.htdet.loss import DetectionLoss
from inference.adapt.htdet.net import HTDet, anchor_points, decode_ltrb
from inference.adapt.htdet.onnx_init import calibrate_bn, load_onnx_weights, onnx_difference
from inference.adapt.scoring import FrameDetections, LabelledFrame, average_precision_50
from inference.nms import nms


@dataclass(frozen=True)
class Example:
    image_bgr: np.ndarray
    xyxy: np.ndarray  # (M, 4) original pixels
    class_id: np.ndarray  # (M,)


@dataclass(frozen=True)
class EpochReport:
    epoch: int
    epochs: int
    loss: float
    held_out_ap50: dict[str, float]
    elapsed_s: float


def activation_of(model_path: Path) -> str:
    ops = {node.op_type for node in onnx.load(str(model_path), load_external_data=False).graph.node}
    return "relu" if "Relu" in ops else "silu"


def _tensors(examples: list[Example], imgsz: int) -> tuple[torch.Tensor, torch.Tensor]:
    images = np.empty((len(examples), imgsz, imgsz, 3), np.uint8)
    gt = np.full((len(examples), MAX_OBJECTS, 5), -1, np.float32)
    for i, ex in enumerate(examples):
        canvas, scale, left, top = letterbox(ex.image_bgr, imgsz)
        images[i] = canvas
        n = min(len(ex.class_id), MAX_OBJECTS)
        if n:
            gt[i, :n, 0] = ex.class_id[:n]
            gt[i, :n, 1:] = ex.xyxy[:n] * scale + np.array([left, top, left, top], np.float32)
    return torch.from_numpy(images), torch.from_numpy(gt)


def _as_input(images: torch.Tensor) -> torch.Tensor:
    return images.permute(0, 3, 1, 2).float().div(255).contiguous()


def _freeze_bn(model: nn.Module) -> None:
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


@torch.no_grad()
def held_out_ap50(model: HTDet, images: torch.Tensor, gt: torch.Tensor, points: torch.Tensor, strides: torch.Tensor,
                  class_names: tuple[str, ...], batch: int = 8) -> dict[str, float]:
    was = model.training
    model.eval()
    found, truths = [], []
    for start in range(0, len(images), batch):
        x = _as_input(images[start:start + batch]).to(points.device)
        raw, logits = model(x)
        boxes = decode_ltrb(raw, points, strides).cpu().numpy()
        scores_all = logits.float().sigmoid().cpu().numpy()
        for i in range(len(x)):
            cls = scores_all[i].argmax(-1)
            score = scores_all[i].max(-1)
            keep = score > 0.001
            kept = nms(boxes[i][keep], score[keep], cls[keep], 0.6, max_detections=300)
            found.append(FrameDetections(boxes[i][keep][kept], score[keep][kept], cls[keep][kept]))
            g = gt[start + i].numpy()
            g = g[g[:, 0] >= 0]
            truths.append(LabelledFrame(g[:, 1:], g[:, 0].astype(int)))
    model.train(was)
    if was:
        _freeze_bn(model)
    return {name: average_precision_50(truths, found, c) for c, name in enumerate(class_names)}


@torch.no_grad()
def classes_to_train(model: HTDet, images: torch.Tensor, examples: list[Example], num_classes: int,
                     shown: float = 0.25) -> torch.Tensor:
    """Classes the frames say something about: one with a box in some frame, or one the model shows
    (score >= `shown`) somewhere the engineer left no box of it. Any other class (QR codes, on a design
    without one) keeps the scores the model had: frames without it could only teach "score lower
    everywhere", which is forgetting, not adapting."""
    trained = torch.zeros(num_classes, dtype=torch.bool)
    for ex in examples:
        ids = ex.class_id[(ex.class_id >= 0) & (ex.class_id < num_classes)]
        trained[torch.as_tensor(ids, dtype=torch.long)] = True
    was = model.training
    model.eval()
    for start in range(0, len(images), 8):
        _, logits = model(_as_input(images[start:start + 8]).to(next(model.parameters()).device))
        trained |= (logits.float().sigmoid().amax(dim=(0, 1)) >= shown).cpu()
    model.train(was)
    return trained


def fine_tune(base_model: Path, train: list[Example], held_out: list[Example], *, class_names: tuple[str, ...],
              out_path: Path, imgsz: int, export_imgsz: int, epochs: int, batch: int, lr: float, seed: int,
              device: str, description: str, on_epoch: Callable[[EpochReport], None] | None = None,
              should_stop: Callable[[], bool] | None = None,
              freeze_backbone: bool = False) -> tuple[list[EpochReport], tuple[str, ...]]:
    """Trains and exports the last epoch to `out_path`. Returns one report per epoch (epoch 0: before
    training) and the classes whose scores were trained (see `classes_to_train`)."""
    from inference.adapt.htdet.export import export_onnx

    torch.manual_seed(seed)
    dev = torch.device(device)
    model = HTDet(len(class_names), activation=activation_of(base_model))
    try:
        load_onnx_weights(model, base_model)
    except ValueError as exc:
        raise AdaptError("the model in use is not an HTDet the station can fine-tune", expected="HTDet (the shipped "
                         "detector or one adapted from it)", found=f"{base_model.name}: {exc}",
                         hint="adopt the shipped model first, or fine-tune this one where it was trained") from None
    train_images, train_gt = _tensors(train, imgsz)
    held_images, held_gt = _tensors(held_out, imgsz)
    calibrate_bn(model, _as_input(train_images[:32]))
    check = _as_input(train_images[:2])
    if imgsz == export_imgsz:  # the ONNX has fixed anchors for its own size
        diff = onnx_difference(model, base_model, check, imgsz)
        if diff > 0.1:
            raise AdaptError("the network does not reproduce the model in use", expected="output difference < 0.1",
                             found=f"{diff:.3f}", hint="this model's architecture differs from HTDet's defaults")
    model = model.to(dev)
    points, strides = anchor_points(imgsz, imgsz, dev)
    trained = classes_to_train(model, train_images, train, len(class_names)).to(dev)
    loss_fn = DetectionLoss(points, strides, trained_classes=None if bool(trained.all()) else trained)
    if freeze_backbone:  # only the neck and heads learn: the features every class shares stay as they were
        for part in (model.stem, model.stage2, model.stage3, model.stage4, model.stage5):
            part.requires_grad_(False)
    learned = [p for p in model.parameters() if p.requires_grad]
    decay = [p for p in learned if p.ndim == 4]
    other = [p for p in learned if p.ndim != 4]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 5e-4}, {"params": other, "weight_decay": 0.0}],
                                  lr=lr)
    generator = torch.Generator(device=dev).manual_seed(seed)
    steps_per_epoch = max(1, math.ceil(len(train) / batch))
    total = epochs * steps_per_epoch
    warmup = max(1, min(30, total // 4))
    started = time.perf_counter()
    before = held_out_ap50(model, held_images, held_gt, points, strides, class_names)
    reports = [EpochReport(0, epochs, float("nan"), before, time.perf_counter() - started)]
    if on_epoch is not None:
        on_epoch(reports[0])
    model.train()
    _freeze_bn(model)
    step = 0
    for epoch in range(1, epochs + 1):
        order = torch.randperm(len(train), generator=torch.Generator().manual_seed(seed + epoch))
        losses = []
        for k in range(steps_per_epoch):
            if should_stop is not None and should_stop():
                raise FineTuneCancelled("fine-tuning was stopped", found=f"after {step} of {total} steps",
                                        hint="no candidate was written; start again when ready")
            index = order[k * batch:(k + 1) * batch]
            if len(index) < batch:  # a full batch every step: wrap around
                index = torch.cat((index, order[:batch - len(index)]))
            x, gt = augment(train_images[index].to(dev), train_gt[index].to(dev), generator)
            for g in optimizer.param_groups:
                g["lr"] = lr * min(1.0, (step + 1) / warmup) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * step / total)))
            loss, _ = loss_fn(*model(x), gt)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 10.0)
            optimizer.step()
            losses.append(float(loss.detach()))
            step += 1
        ap = held_out_ap50(model, held_images, held_gt, points, strides, class_names)
        report = EpochReport(epoch, epochs, float(np.mean(losses)), ap, time.perf_counter() - started)
        reports.append(report)
        if on_epoch is not None:
            on_epoch(report)
    export_onnx(model.cpu(), export_imgsz, out_path, names=class_names, description=description)
    return reports, tuple(n for n, t in zip(class_names, trained.tolist()) if t)
