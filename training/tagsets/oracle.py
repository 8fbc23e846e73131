"""How hard a set's barcodes are: zxing-cpp on each tag rectified from its TRUE outline (at 1x and 2x).

    python -m training.tagsets.oracle DIR

A reference for verdict-bench's barcode column: what a plain decoder reads when the tag is found and
levelled perfectly. Codes this misses are too fine or too blurred for the camera condition, which is
for the verdict to call REVIEW with a focus reason, not for the decoder to guess.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import zxingcpp


def upright(image: np.ndarray, quad: list) -> np.ndarray:
    q = np.float32(quad)
    w, h = int(np.linalg.norm(q[1] - q[0])), int(np.linalg.norm(q[3] - q[0]))
    target = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(q, target), (w, h))


def decoded_on_true_outline(image: np.ndarray, quad: list) -> set[str]:
    tag = upright(image, quad)
    texts = {b.text for b in zxingcpp.read_barcodes(tag)}
    larger = cv2.resize(tag, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    return texts | {b.text for b in zxingcpp.read_barcodes(larger)}


def oracle(data: Path) -> dict:
    rows = [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    out: dict[str, dict] = {}
    for row in rows:
        if not row["tags"]:
            continue
        stats = out.setdefault(row["bucket"], {"decoded": 0, "codes": 0, "module_px": []})
        stats["module_px"].append(row["condition"].get("barcode_module_px", 0.0))
        image = cv2.imread(str(data / row["image"]))
        for tag in row["tags"]:
            texts = decoded_on_true_outline(image, tag["quad"])
            for code in tag["barcodes"]:
                stats["codes"] += 1
                stats["decoded"] += code["text"] in texts
    for stats in out.values():
        modules = np.asarray(stats.pop("module_px"), np.float64)
        stats["rate"] = round(stats["decoded"] / stats["codes"], 3) if stats["codes"] else None
        stats["module_px_p10_p50_p90"] = [round(float(v), 2) for v in np.percentile(modules, [10, 50, 90])]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not (Path(args[0]) / "truth.jsonl").is_file():
        print("error: usage: python -m training.tagsets.oracle DIR (a folder with truth.jsonl)", file=sys.stderr)
        return 2
    for bucket, stats in sorted(oracle(Path(args[0])).items()):
        print(f"{bucket:<8} barcodes decoded on the true outline {stats['decoded']}/{stats['codes']} ({stats['rate']}), "
              f"module width px p10/p50/p90 {stats['module_px_p10_p50_p90']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
