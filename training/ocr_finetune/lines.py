"""Write synthetic text-line crops as the station's reader cuts them (render.py), for training or inspection.

    python -m training.ocr_finetune.lines --out DIR --count N --seed S [--fonts .cand/ocr/fonts] [--test-fonts]

DIR/images/NNNNNN.png and DIR/labels.jsonl (text, glyph_px, squeeze, font, enlarged, file). `--test-fonts`
renders with the test sets' fonts: for evaluation only, never for training (train.py refuses them).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

from training.ocr_finetune.fonts import REPO, TEST_FONTS, training_fonts
from training.ocr_finetune.render import Line, render_many

CHUNK = 200


def font_paths(folder: Path | None, test: bool) -> list[str]:
    if test:
        return [path for path, _index in TEST_FONTS]
    return [str(p) for p in training_fonts(folder)]


def generate(count: int, seed: int, fonts: list[str], workers: int = 1, glyph_px: float | None = None) -> list[Line]:
    """`count` lines; chunk k is drawn from seed * 1000003 + k, so the same arguments make the same lines."""
    chunks = [(seed * 1_000_003 + k, min(CHUNK, count - k * CHUNK)) for k in range((count + CHUNK - 1) // CHUNK)]
    if workers <= 1:
        parts = [render_many(s, n, fonts, glyph_px) for s, n in chunks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(render_many, [s for s, _ in chunks], [n for _, n in chunks], [fonts] * len(chunks),
                                  [glyph_px] * len(chunks)))
    return [line for part in parts for line in part]


def write(lines: list[Line], out: Path) -> Path:
    (out / "images").mkdir(parents=True, exist_ok=True)
    with open(out / "labels.jsonl", "w", encoding="utf-8") as f:
        for i, line in enumerate(lines):
            name = f"images/{i:06d}.png"
            cv2.imwrite(str(out / name), line.crop)
            f.write(json.dumps({"file": name, "text": line.text, "glyph_px": round(line.glyph_px, 2), "squeeze": line.squeeze,
                                "font": line.font, "enlarged": line.enlarged}, ensure_ascii=False) + "\n")
    return out / "labels.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--fonts", type=Path, default=REPO / ".cand/ocr/fonts", help="GB 2312 cuts of the training fonts (fonts.py)")
    parser.add_argument("--test-fonts", action="store_true", help="the test sets' fonts: evaluation only")
    parser.add_argument("--glyph-px", type=float, default=None, help="one glyph height for every line")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    fonts = font_paths(args.fonts if args.fonts.exists() else None, args.test_fonts)
    labels = write(generate(args.count, args.seed, fonts, args.workers, args.glyph_px), args.out)
    print(f"{args.count} lines -> {labels}")


if __name__ == "__main__":
    main()
