"""What ONNX Runtime's memory pattern costs and buys the CPU OCR sessions (issue 15, the soak's drift).

    nice .venv/bin/python benchmarks/ocr_mem_pattern.py --json /tmp/ocr_mem_pattern.json

Memory: each network gets every input shape of a range once (widest first, so the arena reaches its peak at
the first call and what follows is per-shape memory), then the same shapes again; RSS after each pass, one
process per setting. Speed: the reader on the sample images, two readers in one process (pattern on / off)
taking turns on each image, so both see the same machine load; the ratio is of the per-image median times.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_mib() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def shapes_of(network: str) -> list[tuple[int, int, int, int]]:
    if network == "rec":  # one text line, every width the recognizer is given (multiples of 8 up to 1600)
        return [(1, 3, 48, w) for w in range(1600, 0, -8)]
    sides = range(448, 31, -32)  # text detection: both sides multiples of 32 up to the 448 limit
    return sorted(((1, 3, h, w) for h in sides for w in sides), key=lambda s: -s[2] * s[3])


def memory_child(network: str, varying: bool) -> dict:
    import numpy as np

    from inference.engines.onnxrt import OnnxRuntimeEngine
    from inference.reading.ocr.models import find_ocr_models

    models = find_ocr_models()
    engine = OnnxRuntimeEngine(models.rec if network == "rec" else models.det, threads=1, varying_shapes=varying).load()
    name = engine.inputs[0].name
    shapes = shapes_of(network)
    engine.infer({name: np.zeros(shapes[0], np.float32)})
    after_peak = rss_mib()
    for shape in shapes:
        engine.infer({name: np.zeros(shape, np.float32)})
    once = rss_mib()
    for shape in shapes:
        engine.infer({name: np.zeros(shape, np.float32)})
    again = rss_mib()
    return {"network": network, "memory_pattern": not varying, "shapes": len(shapes), "after_widest_mib": round(after_peak, 1),
            "first_pass_growth_mib": round(once - after_peak, 1), "second_pass_growth_mib": round(again - once, 1)}


def speed(images: int) -> dict:
    from inference.engines.onnxrt import OnnxRuntimeEngine
    from inference.imageio import list_images, read_image
    from inference.pipeline import Pipeline
    from inference.reading import TagReader
    from inference.reading.ocr.detector import DbParams, TextDetector
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.recognizer import TextRecognizer
    from inference.resources import default_model_path

    models = find_ocr_models()

    def reader(varying: bool) -> TagReader:  # as TagReader.open builds it (det limit 448, squeeze 0.7)
        return TagReader(TextDetector(OnnxRuntimeEngine(models.det, varying_shapes=varying), DbParams(limit_side=448)),
                         TextRecognizer(OnnxRuntimeEngine(models.rec, varying_shapes=varying), squeeze=0.7))

    readers = {"pattern on": reader(False), "pattern off": reader(True)}
    pipeline = Pipeline.open(default_model_path(), "onnxruntime-cpu")
    times: dict[str, list[float]] = {k: [] for k in readers}
    paths = list_images(ROOT / "resources" / "samples")[:images]
    for turn, path in enumerate(paths * 2):  # the first round warms both up and is not counted
        image = read_image(path)
        detections = pipeline.process(image).detections
        order = list(readers) if turn % 2 == 0 else list(readers)[::-1]
        for key in order:
            start = time.perf_counter()
            readers[key].read(image, detections)
            if turn >= len(paths):
                times[key].append(time.perf_counter() - start)
    medians = {k: statistics.median(v) * 1000 for k, v in times.items()}
    return {"images": len(paths), "median_ms": {k: round(v, 1) for k, v in medians.items()},
            "off_over_on": round(medians["pattern off"] / medians["pattern on"], 3)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--images", type=int, default=24)
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(memory_child(args.child[0], args.child[1] == "off")))
        return 0
    memory = []
    for network in ("rec", "det"):
        for setting in ("on", "off"):
            out = subprocess.run([sys.executable, __file__, "--child", network, setting], capture_output=True, text=True,
                                 check=True).stdout
            memory.append(json.loads(out.strip().splitlines()[-1]))
            print(memory[-1], flush=True)
    result = {"memory": memory, "speed": speed(args.images), "date": time.strftime("%Y-%m-%d %H:%M")}
    print(json.dumps(result["speed"]))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
