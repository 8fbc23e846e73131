"""Adapt on a design the shipped model finds hardest: 30 corrected frames, a CPU fine-tune, before/after.

    python -m training.tagsets --out D/collect --count 30 --seed 1701 --designs wide_price_block --defect-share 0
    python -m training.tagsets --out D/heldout --count 60 --seed 1702 --designs wide_price_block --defect-share 0
    nice .venv/bin/python benchmarks/adapt_design.py --collect D/collect --heldout D/heldout --work D/adapt --epochs 10

The engineer's corrections are the sets' truth boxes (tag, its barcodes and QR codes): what a careful
engineer would draw. The fine-tune holds out 20 % of the 30 (never trained on); a second, larger set of
the same design from another seed is held out as well, and the golden set (resources/samples) checks
that nothing else got worse. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inference.adapt.compare import EvalFrame, compare, golden_frames, held_out_frames  # noqa: E402
from inference.adapt.finetune import FineTuneSettings, fine_tune  # noqa: E402
from inference.adapt.folder import AdaptFolder, Box  # noqa: E402
from inference.adapt.scoring import LabelledFrame  # noqa: E402
from inference.imageio import read_image  # noqa: E402
from inference.resources import default_model_path  # noqa: E402


def truth_rows(data: Path) -> list[dict]:
    return [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines() if line]


def boxes_of(row: dict) -> list[Box]:
    out = []
    for tag in row["tags"]:
        out.append(Box(tuple(tag["xyxy"]), 0))
        out += [Box(tuple(b["xyxy"]), 1) for b in tag.get("barcodes", [])]
        out += [Box(tuple(q["xyxy"]), 2) for q in tag.get("qr", [])]
    return out


def eval_frames(data: Path) -> list[EvalFrame]:
    frames = []
    for row in truth_rows(data):
        boxes = boxes_of(row)
        truth = LabelledFrame(np.array([b.xyxy for b in boxes], float).reshape(-1, 4),
                              np.array([b.class_id for b in boxes], int))
        frames.append(EvalFrame(row["image"], read_image(data / row["image"]), truth))
    return frames


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--collect", type=Path, required=True)
    parser.add_argument("--heldout", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=FineTuneSettings.lr)
    parser.add_argument("--imgsz", type=int, default=0)
    parser.add_argument("--freeze-backbone", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    folder = AdaptFolder(args.work)
    if not folder.frames():
        for row in truth_rows(args.collect):
            kept = folder.keep_file(args.collect / row["image"], reason=row["design"])
            folder.set_boxes(kept.id, boxes_of(row), corrected=True)
    base = default_model_path()

    def show(r) -> None:
        print(f"epoch {r.epoch}: loss {r.loss:.3f} held-out AP50 "
              + " ".join(f"{k} {v:.3f}" for k, v in r.held_out_ap50.items() if v == v) + f" {r.elapsed_s:.0f} s",
              file=sys.stderr, flush=True)

    settings = FineTuneSettings(epochs=args.epochs, lr=args.lr, imgsz=args.imgsz, freeze_backbone=args.freeze_backbone)
    candidate = fine_tune(folder, base, settings, on_epoch=show)
    started = time.perf_counter()
    result = compare(base, candidate.model_path, {"held-out (of the 30)": held_out_frames(folder),
                                                  "held-out (60, another seed)": eval_frames(args.heldout),
                                                  "golden": golden_frames()}, folder.class_names)
    import onnxruntime
    import torch

    doc = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": platform.processor() or platform.machine(),
           "cores": __import__("os").cpu_count(), "torch": torch.__version__, "onnxruntime": onnxruntime.__version__,
           "settings": vars(settings), "train_frames": candidate.train_frames,
           "held_out_frames": candidate.held_out_frames, "fine_tune_s": round(candidate.seconds, 1),
           "compare_s": round(time.perf_counter() - started, 1), "candidate": str(candidate.model_path),
           "epochs": candidate.epochs, "comparison": result.to_json()}
    text = json.dumps(doc, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
