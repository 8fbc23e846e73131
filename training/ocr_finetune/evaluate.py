"""Exact reads of held-out synthetic lines by recognizer ONNX files, run as the station runs them.

    python -m training.ocr_finetune.evaluate --models A.onnx B.onnx [--count 1500 --seed 424242] [--test-fonts] [--json OUT]

Lines are rendered as for training (render.py) but from their own seed; with `--test-fonts` in the test sets'
fonts (WenQuanYi, AR PL UKai/UMing), which no training run may use: the number that says whether a recognizer
learnt small print or the training fonts. Each model reads through the station's `TextRecognizer` on ONNX
Runtime's CPU, each line at its squeeze; exact means the same characters, spaces ignored.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from training.ocr_finetune.lines import font_paths, generate
from training.ocr_finetune.render import FIRST_SQUEEZE, SECOND_SQUEEZE, Line
from training.ocr_finetune.train import HEIGHT_BINS


def exact_reads(model: Path, lines: list[Line], threads: int = 1) -> dict:
    from inference.reading.ocr.recognizer import TextRecognizer

    recognizer = TextRecognizer.open(model, "onnxruntime-cpu", threads)
    hits = np.zeros(len(lines), bool)
    for squeeze in (FIRST_SQUEEZE, SECOND_SQUEEZE):
        idx = [i for i, line in enumerate(lines) if line.squeeze == squeeze]
        read = recognizer.recognize([lines[i].crop for i in idx], squeeze=squeeze)
        for i, rec in zip(idx, read):
            hits[i] = rec.text.replace(" ", "") == lines[i].text.replace(" ", "")
    recognizer.close()
    out = {"all": round(float(hits.mean()), 4), "n": len(lines)}
    for lo, hi in HEIGHT_BINS:
        sel = [i for i, line in enumerate(lines) if lo <= line.glyph_px < hi]
        if sel:
            out[f"{lo}-{hi}px"] = f"{int(hits[sel].sum())}/{len(sel)} = {hits[sel].mean():.3f}"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=Path, nargs="+", required=True)
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=424242)
    parser.add_argument("--fonts", type=Path, default=None, help="training-font cuts (without --test-fonts)")
    parser.add_argument("--test-fonts", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    lines = generate(args.count, args.seed, font_paths(args.fonts, args.test_fonts))
    results = {"fonts": "test sets' (evaluation only)" if args.test_fonts else "training", "seed": args.seed,
               "models": {str(m): exact_reads(m, lines, args.threads) for m in args.models}}
    print(json.dumps(results, indent=1, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
