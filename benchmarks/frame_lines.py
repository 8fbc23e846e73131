"""Why a frame of a training.tagsets set got its verdict: fields read against what was printed, every OCR line,
and a crop with the tag box (red), the true outline (green) and the reader's line boxes (blue).

    python benchmarks/frame_lines.py SET 000007,000080 OUT

Reads each frame as verdict-bench does (the shipped detector, the image's job recipe). Prints one block per frame
and writes OUT/NNNNNN.jpg. Used for the failure classes of the fresh designs (BENCHMARKS.md, issue 14).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from inference.imageio import read_image
from inference.inspection import Inspector
from inference.reading.recipe import load_recipe
from inference.resources import default_model_path


def describe(data: Path, names: list[str], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    truth = {Path(row["image"]).stem: row for row in rows}
    with Inspector.open(default_model_path(), None, read=True) as inspector:
        for name in names:
            row = truth[name]
            inspector.recipe = load_recipe(data / row["recipe"])
            image = read_image(data / row["image"])
            result = inspector.inspect_image(image, source_name=row["image"], source_path=str(data / row["image"]), index=0)
            defect = row["defect"]["kind"] if row["defect"] else "none"
            print(f"=== {name} {row['design']} {row['bucket']} defect={defect} verdict={result.verdict.verdict.value}")
            for reason in result.verdict.reasons:
                print(f"  reason: {reason}")
            printed = row["tags"][0]["fields"] if row["tags"] else {}
            canvas = image.copy()
            for tag in row["tags"]:
                cv2.polylines(canvas, [np.int32(tag["quad"])], True, (0, 200, 0), 1)
            for tag in result.readings:
                x1, y1, x2, y2 = (int(v) for v in tag.xyxy)
                cv2.rectangle(canvas, (x1, y1), (x2, y2), (0, 0, 255), 2)
                print(f"  tag box {[x1, y1, x2, y2]}, turned {tag.rotation:.1f} deg, line height {tag.text_px}")
                for field, reading in tag.fields.items():
                    differs = "" if printed.get(field) == reading.value else f"   <- printed {printed.get(field)!r}"
                    print(f"    {field:16s} {reading.value!r} from {reading.raw!r} ({reading.source}, {reading.confidence:.2f}){differs}")
                for field in printed.keys() - tag.fields.keys():
                    print(f"    {field:16s} not read (printed {printed[field]!r})")
                for line in tag.ocr_lines:
                    box = [int(v) for v in line.box]
                    print(f"    | {line.text!r} {line.confidence:.2f} {box}")
                    cv2.rectangle(canvas, (box[0], box[1]), (box[2], box[3]), (255, 0, 0), 1)
            xs = [v for tag in row["tags"] for v in tag["xyxy"][0::2]] or [0, image.shape[1]]
            ys = [v for tag in row["tags"] for v in tag["xyxy"][1::2]] or [0, image.shape[0]]
            crop = canvas[max(0, int(min(ys)) - 20):int(max(ys)) + 20, max(0, int(min(xs)) - 20):int(max(xs)) + 20]
            cv2.imwrite(str(out / f"{name}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    describe(Path(sys.argv[1]), sys.argv[2].split(","), Path(sys.argv[3]))
