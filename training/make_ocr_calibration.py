"""Write the OCR INT8 calibration set that ships under resources/calibration/ocr/.

The station builds its INT8 OCR models at run time (`python -m inference.reading.ocr.quantize`),
where the generator is absent; so the calibration images are drawn once here and shipped as data:
the same seeds as before (cards and whole scenes, alternately), each scene cut to the box around
its tags, since the reader only ever sees what lies inside a tag.

    python -m training.make_ocr_calibration --out resources/calibration/ocr
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from training.synth import CLASS_NAMES, generate_scene, render_tag
from training.synth.labels import encode_jpeg

CALIBRATION_SEED0 = 7_000_000
MARGIN_PX = 24


def _crop_to_tags(image: np.ndarray, xyxy: np.ndarray, class_id: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    tags = xyxy[class_id == 0]
    if not len(tags):
        return image, xyxy
    h, w = image.shape[:2]
    x1, y1 = np.maximum(tags[:, :2].min(0) - MARGIN_PX, 0).astype(int)
    x2, y2 = np.minimum(tags[:, 2:].max(0) + MARGIN_PX, [w, h]).astype(int)
    return image[y1:y2, x1:x2], xyxy - np.array([x1, y1, x1, y1], np.float32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.make_ocr_calibration", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--imgsz", type=int, default=1600, help="long side of the generated scenes")
    parser.add_argument("--quality", type=int, default=85)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    records = []
    for k in range(args.count):
        seed = CALIBRATION_SEED0 + k
        if k % 2:
            scene = generate_scene(seed=seed, imgsz=args.imgsz)
            image, xyxy = _crop_to_tags(scene.image, scene.xyxy.astype(np.float32), scene.class_id)
            class_id, kind = scene.class_id, "scene, cut to its tags"
        else:
            tag = render_tag(seed, px_per_mm=float(np.random.default_rng(seed).uniform(4.5, 8.0)), back_side=False)
            image, xyxy, class_id, kind = tag.image, tag.xyxy, tag.class_id, "card"
        name = f"{seed:09d}.jpg"
        (args.out / name).write_bytes(encode_jpeg(image, args.quality))
        records.append({"file_name": name, "seed": seed, "kind": kind,
                        "boxes": [[round(float(v), 1) for v in box] for box in xyxy],
                        "class_id": [int(c) for c in class_id]})
    (args.out / "boxes.json").write_text(json.dumps(
        {"class_names": list(CLASS_NAMES), "made_by": "python -m training.make_ocr_calibration", "images": records},
        ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} images to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
