"""What the distilled fine-tune teaches about tags cut by the frame's edge (issue 17 / issue 18's edge-riding tags).

    PYTHONPATH=. python benchmarks/edge_cut_targets.py --teacher OLD.onnx [--scenes 48 --draws 8] [--json J]

Scenes are drawn as training/gpu_distill.sh draws them (classic seeds 0+, wide seeds 100 000 000+ with
PANEL_SHARE 0.5, tag-free 113 000 000+), letterboxed as the trainer loads them (`training.model.data.load_item`
without the JPEG round trip) and passed through the trainer's own `augment` with a seeded generator, `--draws`
times each. The affine draw of every batch is read back with a probe box (the same generator state, a 20 px box
at the centre), so every tag truth's *unclipped* box after augmentation is known:

- before augmentation: tag boxes touching the image's border (the generators keep every tag inside);
- after augmentation: tag truths cut by the canvas edge, by the share of their box area left inside, and whether
  `augment` kept them (clipped box, a positive) or dropped them (no truth: the visible part is a negative);
- the teacher (the starting model, ONNX Runtime CPU, FP32) on the same augmented batch, as `DistillLoss` uses it:
  for a kept cut tag, whether any anchor's teacher box overlaps its clipped truth at IoU >= 0.6 (the teacher's
  score is kept as a soft target) and the teacher's best tag score among anchors overlapping it at IoU >= 0.3;
  for a dropped cut tag, the teacher's best tag score among anchors overlapping the visible part at IoU >= 0.5
  (what the rule overwrites with 0).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HTS_SYNTH_PANEL_SHARE", "0.5")  # as gpu_distill.sh's wide generator (PANEL default)

import torch  # noqa: E402

from inference.adapt.htdet.data import MAX_OBJECTS, augment, letterbox  # noqa: E402

IMGSZ = 640
PROBE = 20.0


def scene_items(domain: str, count: int) -> tuple[list[np.ndarray], list[np.ndarray], int]:
    """Letterboxed RGB canvases and (MAX_OBJECTS, 5) truths; also the number of tag boxes touching the border."""
    if domain == "classic":
        from training.synth.scene import generate_scene

        scenes = [generate_scene(s, IMGSZ) for s in range(count)]
    else:
        from training.synth.wide_scene import generate_wide_scene

        base = 100_000_000 if domain == "wide" else 113_000_000
        scenes = [generate_wide_scene(base + i, IMGSZ, no_tags=domain == "tag-free") for i in range(count)]
    images, truths, touching = [], [], 0
    for scene in scenes:
        h, w = scene.image.shape[:2]
        canvas, scale, left, top = letterbox(scene.image, IMGSZ)
        gt = np.full((MAX_OBJECTS, 5), -1, np.float32)
        n = min(len(scene.xyxy), MAX_OBJECTS)
        gt[:n, 0] = scene.class_id[:n]
        gt[:n, 1:] = scene.xyxy[:n] * scale + np.float32([left, top, left, top])
        for t in scene.tags:
            x1, y1, x2, y2 = t.xyxy
            touching += x1 <= 0.5 or y1 <= 0.5 or x2 >= w - 0.5 or y2 >= h - 0.5
        images.append(canvas)
        truths.append(gt)
    return images, truths, touching


def affine_of(images: torch.Tensor, generator: torch.Generator, state: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
    """(scale (B,), shift (B, 2)) of the augment draw made from `state`, read back with a centred probe box."""
    generator.set_state(state)
    b, s = images.shape[0], images.shape[1]
    probe = torch.full((b, MAX_OBJECTS, 5), -1.0)
    probe[:, 0] = torch.tensor([0, s / 2 - PROBE / 2, s / 2 - PROBE / 2, s / 2 + PROBE / 2, s / 2 + PROBE / 2])
    _, out = augment(images, probe, generator)
    box = out[:, 0, 1:].numpy()
    if (out[:, 0, 0] < 0).any():
        raise RuntimeError("a probe box was dropped: expected every draw to keep a centred 20 px box")
    scale = (box[:, 2] - box[:, 0]) / PROBE
    shift = ((box[:, 0] + box[:, 2]) / 2) / s * 2 - 1, ((box[:, 1] + box[:, 3]) / 2) / s * 2 - 1
    return scale, np.stack(shift, 1)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of one box a (4,) with boxes b (N, 4)."""
    ix = np.clip(np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]), 0, None)
    iy = np.clip(np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]), 0, None)
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter
    return inter / np.maximum(union, 1e-9)


def run(domain: str, count: int, draws: int, session, batch: int = 16) -> dict:
    images, truths, touching = scene_items(domain, count)
    generator = torch.Generator().manual_seed(0)
    rows = []
    for draw in range(draws):
        for start in range(0, len(images), batch):
            imgs = torch.from_numpy(np.stack(images[start:start + batch]))
            gt = torch.from_numpy(np.stack(truths[start:start + batch]))
            state = generator.get_state()
            x, out = augment(imgs, gt, generator)
            after = generator.get_state()
            scale, shift = affine_of(imgs, generator, state)
            generator.set_state(after)
            teacher = None
            if session is not None and (gt[..., 0] == 0).any():
                pred = session.run(None, {"images": x.contiguous().numpy()})[0]  # (B, 4 + C, A)
                cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
                teacher = (np.stack((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), -1), pred[:, 4])
            for i in range(len(imgs)):
                for k in range(MAX_OBJECTS):
                    if gt[i, k, 0] != 0:
                        continue
                    box = gt[i, k, 1:].numpy().copy()
                    for j, axis in ((0, 0), (1, 1), (2, 0), (3, 1)):
                        box[j] = ((box[j] / IMGSZ * 2 - 1) * scale[i] + shift[i, axis] + 1) / 2 * IMGSZ
                    clipped = np.clip(box, 0, IMGSZ)
                    area = (box[2] - box[0]) * (box[3] - box[1])
                    inside = max(0.0, clipped[2] - clipped[0]) * max(0.0, clipped[3] - clipped[1]) / max(area, 1e-9)
                    if inside >= 0.999:
                        rows.append({"cut": False})
                        continue
                    kept = bool(out[i, k, 0] >= 0)
                    row = {"cut": True, "inside": round(float(inside), 3), "kept": kept}
                    if teacher is not None and inside > 0:
                        boxes_t, score_t = teacher[0][i], teacher[1][i]
                        o = box_iou(clipped, boxes_t)
                        row["teacher_matched_06"] = bool((o >= 0.6).any())
                        row["teacher_soft_max"] = round(float((score_t * (o >= 0.6)).max()), 3)
                        row["teacher_score_iou03"] = round(float((score_t * (o >= 0.3)).max()), 3)
                        row["teacher_score_iou05"] = round(float((score_t * (o >= 0.5)).max()), 3)
                        best = int(score_t.argmax() if (o >= 0.3).sum() == 0 else np.where(o >= 0.3, score_t, 0).argmax())
                        row["teacher_best_iou_clipped"] = round(float(o[best]), 3)
                        row["teacher_best_iou_full"] = round(float(box_iou(box, boxes_t[best:best + 1])[0]), 3)
                    rows.append(row)
    return {"scenes": count, "draws": draws, "tags_touching_border_before_augment": int(touching),
            "summary": summarize(rows), "rows": [r for r in rows if r["cut"]]}


def summarize(rows: list[dict]) -> dict:
    cut = [r for r in rows if r["cut"]]
    out = {"tag_truths": len(rows), "cut": len(cut)}
    bins = (("inside 0.9-1", 0.9, 1.0), ("inside 0.6-0.9", 0.6, 0.9), ("inside 0.3-0.6", 0.3, 0.6), ("inside 0-0.3", 0.0, 0.3))
    for label, lo, hi in bins:
        sel = [r for r in cut if lo <= r["inside"] < hi or (hi == 1.0 and r["inside"] >= 0.9)]
        if not sel:
            continue
        entry = {"n": len(sel), "kept": sum(r["kept"] for r in sel)}
        with_t = [r for r in sel if "teacher_soft_max" in r]
        if with_t:
            kept_t = [r for r in with_t if r["kept"]]
            dropped_t = [r for r in with_t if not r["kept"]]
            if kept_t:
                entry["kept: teacher soft target >= 0.25"] = sum(r["teacher_soft_max"] >= 0.25 for r in kept_t)
                entry["kept: teacher scores >= 0.25 at IoU >= 0.3 but no soft target"] = sum(
                    r["teacher_score_iou03"] >= 0.25 and r["teacher_soft_max"] < 0.25 for r in kept_t)
            if dropped_t:
                entry["dropped: teacher scores >= 0.25 at IoU >= 0.5 (target 0)"] = sum(
                    r["teacher_score_iou05"] >= 0.25 for r in dropped_t)
                entry["dropped: teacher score p50 at IoU >= 0.5"] = round(statistics.median(
                    r["teacher_score_iou05"] for r in dropped_t), 3)
            both = [r for r in with_t if r["teacher_score_iou03"] >= 0.25]
            if both:
                entry["teacher's box IoU p50 with clipped / full truth"] = (
                    round(statistics.median(r["teacher_best_iou_clipped"] for r in both), 3),
                    round(statistics.median(r["teacher_best_iou_full"] for r in both), 3))
        out[label] = entry
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teacher", type=Path, help="the distillation teacher's ONNX (the starting model)")
    parser.add_argument("--domains", nargs="+", default=["classic", "wide"], choices=("classic", "wide", "tag-free"))
    parser.add_argument("--scenes", type=int, default=48)
    parser.add_argument("--draws", type=int, default=8, help="augment draws per scene")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    session = None
    if args.teacher:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(str(args.teacher), options, providers=["CPUExecutionProvider"])
    torch.set_num_threads(1)
    report = {"teacher": str(args.teacher), "domains": {}}
    for domain in args.domains:
        result = run(domain, args.scenes, args.draws, session)
        report["domains"][domain] = result
        print(f"{domain}: {args.scenes} scenes x {args.draws} draws; tag boxes touching the border before augment: "
              f"{result['tags_touching_border_before_augment']}", flush=True)
        for key, value in result["summary"].items():
            print(f"  {key}: {value}", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
