"""Train HTDet on generated scenes.

    python -m training.train --data datasets/train --val datasets/val --minutes 7.5 --out runs/h200

The learning-rate schedule runs on a budget: `--minutes` (wall clock, for a leased GPU whose
speed is known only on arrival) or `--steps` (exact). The log prints the steps a run took, so
`--steps N` repeats a time-budgeted run step for step.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

from training.model.data import GpuImageStore, MixedStore, augment
from training.model.loss import DetectionLoss
from training.model.metrics import average_precision
from training.model.net import HTDet, anchor_points, decode_ltrb
from training.synth.tag import CLASS_NAMES


class ModelEMA:
    """Exponential moving average of weights and BN statistics; the EMA is what ships."""

    def __init__(self, model: torch.nn.Module, decay: float = 0.999, tau: float = 500.0) -> None:
        self.module = copy.deepcopy(model).eval()
        self.decay, self.tau, self.updates = decay, tau, 0
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model: torch.nn.Module) -> None:
        self.updates += 1
        d = self.decay * (1 - math.exp(-self.updates / self.tau))
        if not hasattr(self, "_pairs"):
            msd = model.state_dict()
            pairs = [(v, msd[k]) for k, v in self.module.state_dict().items() if v.dtype.is_floating_point]
            self._pairs = ([p[0] for p in pairs], [p[1] for p in pairs])
        mine, theirs = self._pairs
        torch._foreach_mul_(mine, d)
        torch._foreach_add_(mine, theirs, alpha=1 - d)


def _nms(boxes: torch.Tensor, scores: torch.Tensor, classes: torch.Tensor, iou: float) -> torch.Tensor:
    try:
        from torchvision.ops import batched_nms
        return batched_nms(boxes, scores, classes, iou)
    except ImportError:
        offset = boxes + classes[:, None].float() * 10_000
        order = scores.argsort(descending=True)
        keep = []
        alive = torch.ones(len(order), dtype=torch.bool, device=boxes.device)
        b = offset[order]
        for i in range(len(order)):
            if not alive[i]:
                continue
            keep.append(order[i])
            iw = (torch.minimum(b[i, 2], b[:, 2]) - torch.maximum(b[i, 0], b[:, 0])).clamp(min=0)
            ih = (torch.minimum(b[i, 3], b[:, 3]) - torch.maximum(b[i, 1], b[:, 1])).clamp(min=0)
            inter = iw * ih
            area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
            alive &= inter / (area[i] + area - inter + 1e-9) <= iou
        return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long, device=boxes.device)


@torch.no_grad()
def validate(model: torch.nn.Module, store: GpuImageStore, points: torch.Tensor, strides: torch.Tensor,
             batch: int = 64) -> dict[str, float]:
    model.eval()
    predictions, truths = [], []
    for start in range(0, store.count, batch):
        idx = torch.arange(start, min(start + batch, store.count), device=store.device)
        images, gt = store.batch(idx)
        x = (images.permute(0, 3, 1, 2).float() / 255).contiguous(memory_format=torch.channels_last)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.is_cuda):
            raw, logits = model(x)
        boxes = decode_ltrb(raw.float(), points, strides)
        scores, classes = logits.float().sigmoid().max(-1)
        for i in range(len(idx)):
            s, top = scores[i].topk(min(1000, scores.shape[1]))
            keep_conf = s > 0.001
            top = top[keep_conf]
            keep = _nms(boxes[i, top], scores[i, top], classes[i, top], 0.6)[:100]
            sel = top[keep]
            predictions.append((boxes[i, sel].cpu().numpy(), scores[i, sel].cpu().numpy(), classes[i, sel].cpu().numpy()))
            g = gt[i][gt[i, :, 0] >= 0].cpu().numpy()
            truths.append((g[:, 1:], g[:, 0].astype(int)))
    result = {}
    ap50 = average_precision(predictions, truths, len(CLASS_NAMES), 0.5)
    ap_all = [average_precision(predictions, truths, len(CLASS_NAMES), t) for t in np.arange(0.5, 0.96, 0.05)]
    for c, name in enumerate(CLASS_NAMES):
        result[f"{name}/AP50"] = ap50[c]
        result[f"{name}/AP50-95"] = float(np.mean([a[c] for a in ap_all]))
    model.train()
    return result


def param_groups(model: torch.nn.Module, weight_decay: float) -> list[dict]:
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (decay if p.ndim == 4 else no_decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def checkpoint(model: HTDet, ema: ModelEMA, step: int, args: argparse.Namespace, half: bool = False) -> dict:
    def cast(sd: dict) -> dict:
        return {k: (v.half() if half and v.dtype == torch.float32 else v).cpu() for k, v in sd.items()}
    return {"ema": cast(ema.module.state_dict()), "model": cast(model.state_dict()), "widths": model.widths,
            "depths": model.depths, "activation": model.activation, "imgsz": args.imgsz, "names": list(CLASS_NAMES), "step": step,
            "ema_updates": ema.updates, "args": {k: str(v) for k, v in vars(args).items()}}


def reproduce_onnx(net: HTDet, onnx_path: Path, store, imgsz: int, role: str) -> None:
    """Calibrate `net`'s batch norms on the first training images and check it reproduces the ONNX it was loaded
    from (largest output difference printed); stop the run where it does not (another architecture)."""
    from training.model.onnx_init import calibrate_bn, onnx_difference

    sample, _ = store.first(256)
    x = (sample.permute(0, 3, 1, 2).float() / 255).contiguous(memory_format=torch.channels_last)
    calibrate_bn(net, x)
    diff = onnx_difference(net, onnx_path, x[:8], imgsz)
    print(f"{role} vs {onnx_path.name}: largest output difference {diff:.2e}", flush=True)
    if diff > 0.1:
        raise SystemExit(f"the {role} does not reproduce {onnx_path} (difference {diff:.3f}): not this architecture")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True,
                        help="dataset folder(s) from python -m training.synth; several are mixed by --share")
    parser.add_argument("--share", type=float, nargs="+",
                        help="share of each batch drawn from each --data folder (default: equal)")
    parser.add_argument("--val", type=Path, help="held-out dataset folder for the AP50 log")
    parser.add_argument("--out", type=Path, default=Path("runs/train"))
    parser.add_argument("--export", type=Path, help="folder that also receives ema weights, ONNX and log copies")
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--weight-decay", type=float, default=5e-4)
    parser.add_argument("--warmup", type=int, default=300, help="warm-up steps")
    parser.add_argument("--minutes", type=float, help="training budget in wall-clock minutes")
    parser.add_argument("--steps", type=int, help="training budget in steps (overrides --minutes)")
    parser.add_argument("--capacity", type=int, default=60000, help="most images held on the GPU")
    parser.add_argument("--min-images", type=int, default=2000, help="images to wait for before the first step")
    parser.add_argument("--init", type=Path, help="checkpoint to continue from (fresh optimizer and schedule)")
    parser.add_argument("--init-onnx", type=Path,
                        help="start from an exported detector instead (the shipped ONNX: BN unfolded and recalibrated)")
    parser.add_argument("--widths", type=int, nargs=5, default=[16, 32, 64, 128, 192])
    parser.add_argument("--depths", type=int, nargs=4, default=[1, 2, 2, 1])
    parser.add_argument("--activation", choices=("relu", "silu"), default="relu",
                        help="relu (shipped: folds into onnxruntime's int8 convolutions) or silu (models before 2026-11-30)")
    parser.add_argument("--distill", action="store_true",
                        help="with --init-onnx/--init: the starting model's own outputs as soft targets wherever the "
                             "truth bears them out (training/model/distill.py), so only what is wrong changes")
    parser.add_argument("--distill-from", type=Path,
                        help="--distill: teacher ONNX other than the starting model (e.g. continue a candidate from "
                             "--init-onnx, still taught by the shipped model)")
    parser.add_argument("--distill-iou", type=float, default=0.6,
                        help="--distill: a teacher box counts as right at this IoU with a truth box of its class")
    parser.add_argument("--distill-box", type=float, default=1.0,
                        help="--distill: gain of the L1 towards the teacher's side distances on its right anchors")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--log-every", type=int, default=100)
    parser.add_argument("--save-every-s", type=float, default=90.0)
    args = parser.parse_args(argv)
    if not args.minutes and not args.steps:
        parser.error("give --minutes or --steps")
    if args.distill and not (args.init or args.init_onnx):
        parser.error("--distill needs a starting model (--init-onnx or --init): it is the teacher")

    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    args.out.mkdir(parents=True, exist_ok=True)
    if args.export:
        args.export.mkdir(parents=True, exist_ok=True)

    model = HTDet(len(CLASS_NAMES), tuple(args.widths), tuple(args.depths), args.activation)
    ema_updates = 0
    keep_ema = False
    if args.init:
        state = torch.load(args.init, map_location="cpu", weights_only=False)
        was = state.get("activation", "silu")
        # Another activation: start from the averaged (EMA) weights, and average afresh from there.
        keep_ema = was == args.activation
        weights = state.get("model", state["ema"]) if keep_ema else state.get("ema", state.get("model"))
        model.load_state_dict({k: v.float() for k, v in weights.items()})
        ema_updates = int(state.get("ema_updates", 0)) if keep_ema else 0
        print(f"continuing from {args.init} (step {state.get('step')}, {was} -> {args.activation})")
    if args.init_onnx:
        from training.model.onnx_init import load_onnx_weights

        load_onnx_weights(model, args.init_onnx)
        print(f"weights from {args.init_onnx}")
    model = model.to(device).to(memory_format=torch.channels_last)
    ema = ModelEMA(model)
    if args.init and keep_ema and "ema" in state:
        ema.module.load_state_dict({k: v.float() for k, v in state["ema"].items()})
        ema.updates = ema_updates
    optimizer = torch.optim.AdamW(param_groups(model, args.weight_decay), lr=args.lr, betas=(0.9, 0.999))
    points, strides = anchor_points(args.imgsz, args.imgsz, device)
    loss_fn = DetectionLoss(points, strides)
    generator = torch.Generator(device=device).manual_seed(args.seed)

    val_store = None
    if args.val:
        val_store = GpuImageStore(args.val, args.imgsz, 2000, device).start()
        val_store.finished.wait(600)
        val_store.wait_for(10**9, timeout_s=60)
        print(f"validation images: {val_store.count}")
    shares = args.share or [1.0] * len(args.data)
    if len(shares) != len(args.data):
        parser.error(f"--share: {len(shares)} values for {len(args.data)} --data folders")
    store = MixedStore(args.data, shares, args.imgsz, args.capacity, device).start()
    t_wait = time.perf_counter()
    store.wait_for(min(args.min_images, args.capacity))
    print(f"first {store.count} training images on the GPU after {time.perf_counter() - t_wait:.1f} s "
          f"(per folder {store.counts()}, batch shares {store.quotas(args.batch)})", flush=True)
    if args.init_onnx:
        reproduce_onnx(model, args.init_onnx, store, args.imgsz, "model")
        ema = ModelEMA(model)
        if val_store is not None:
            before = validate(model, val_store, points, strides)
            print("validation before fine-tuning: " + "  ".join(f"{k} {v:.4f}" for k, v in before.items()), flush=True)

    distiller = None
    if args.distill:
        from training.model.distill import DistillLoss

        teacher = copy.deepcopy(model)
        if args.distill_from:
            from training.model.onnx_init import load_onnx_weights

            teacher = HTDet(len(CLASS_NAMES), tuple(args.widths), tuple(args.depths), args.activation)
            load_onnx_weights(teacher, args.distill_from)
            teacher = teacher.to(device).to(memory_format=torch.channels_last)
            reproduce_onnx(teacher, args.distill_from, store, args.imgsz, "teacher")
        distiller = DistillLoss(teacher.eval(), points, strides, iou=args.distill_iou, teacher_box_gain=args.distill_box)
        print(f"distilling from {args.distill_from or 'the starting model'} (IoU >= {args.distill_iou}, "
              f"teacher box gain {args.distill_box})", flush=True)

    started = time.perf_counter()
    last_save = last_log = started
    step, seen = 0, 0
    running = torch.zeros(5, device=device)
    model.train()
    while True:
        elapsed = time.perf_counter() - started
        progress = step / args.steps if args.steps else elapsed / (args.minutes * 60)
        if progress >= 1:
            break
        store.absorb()
        lr = args.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * progress)))
        if step < args.warmup:
            lr *= (step + 1) / args.warmup
        for g in optimizer.param_groups:
            g["lr"] = lr
        images, gt = store.sample(args.batch, generator)
        x, gt = augment(images, gt, generator)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
            raw, logits = model(x)
        if distiller is not None:
            loss, parts = distiller(raw, logits, gt, *distiller.teacher_targets(x, gt))
        else:
            loss, parts = loss_fn(raw, logits, gt)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        ema.update(model)
        running += torch.cat((loss.detach()[None], parts))
        step += 1
        seen += args.batch
        if step % args.log_every == 0:
            r = (running / args.log_every).tolist()
            running.zero_()
            now = time.perf_counter()
            print(f"step {step} {100 * progress:5.1f}% lr {lr:.2e} loss {r[0]:.3f} box {r[1]:.3f} cls {r[2]:.3f} "
                  f"l1 {r[3]:.3f} pos {r[4]:.0f} | {args.log_every * args.batch / (now - last_log):.0f} img/s "
                  f"| {store.count} images {store.counts()} | {now - started:.0f} s", flush=True)
            last_log = now
        if time.perf_counter() - last_save > args.save_every_s:
            _save(model, ema, step, args)
            last_save = time.perf_counter()

    train_s = time.perf_counter() - started
    print(f"trained {step} steps ({seen} images, {seen / max(store.count, 1):.1f} passes over {store.count} "
          f"{store.counts()}) "
          f"in {train_s:.0f} s", flush=True)
    store.stop()
    _save(model, ema, step, args)
    if val_store is not None:
        metrics = validate(ema.module, val_store, points, strides)
        print("validation (EMA): " + "  ".join(f"{k} {v:.4f}" for k, v in metrics.items()), flush=True)
    if args.export:
        from training.model.export import export_onnx
        onnx_path = export_onnx(copy.deepcopy(ema.module).float(), args.imgsz, args.export / "hangtag_det.onnx")
        print(f"exported {onnx_path}", flush=True)
    return 0


def _save(model: HTDet, ema: ModelEMA, step: int, args: argparse.Namespace) -> None:
    torch.save(checkpoint(model, ema, step, args), args.out / "last.pt")
    if args.export:  # half precision: both weight sets fit one file the lease hands back
        torch.save(checkpoint(model, ema, step, args, half=True), args.export / "last.pt")
        print(f"saved step {step}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
