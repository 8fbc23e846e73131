"""Real line crops for checking a converted recognizer: the station reads its bundled sample photos and every
batch its recognizer is handed is kept (`--out FILE.npz`: batch_0, batch_1, ... as prepare_batch made them).
The recording wraps the recognizer module's prepare_batch for this process only; nothing is changed on disk."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from training.ocr_finetune.fonts import REPO


def record(images: list[Path], out: Path, limit: int = 24) -> int:
    from inference.cli import main as station
    from inference.reading.ocr import recognizer

    kept: list[np.ndarray] = []
    original = recognizer.prepare_batch

    def keeping(*args, **kwargs):
        batch, widths = original(*args, **kwargs)
        if len(kept) < limit:
            kept.append(batch.copy())
        return batch, widths

    recognizer.prepare_batch = keeping
    try:
        for image in images:
            station(["run", "--source", str(image), "--read", "--out", str(out.parent / "real_lines_run")])
    finally:
        recognizer.prepare_batch = original
    np.savez_compressed(out, **{f"batch_{i}": b for i, b in enumerate(kept)})
    return len(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / ".cand/ocr/carry/real_lines.npz")
    parser.add_argument("--images", type=int, default=3)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    images = sorted((REPO / "resources/samples").glob("*.jpg"))[: args.images]
    print(f"{record(images, args.out)} batches -> {args.out}")


if __name__ == "__main__":
    main()
