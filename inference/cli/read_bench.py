"""`hangtag-inspect read-bench`: read held-out synthetic hangtags, time each step, score the fields.

The scenes are a folder the training generator wrote beforehand (images/ and truth/, seeds the
detector and the INT8 calibration never saw), since the station does not carry the generator:

    python -m training.synth --cards --out datasets/read-cards --count 500 --seed 9000000 --quality 95
    python -m training.synth --out datasets/read-scenes --count 400 --seed 9000000 --imgsz 1600
    hangtag-inspect read-bench --data datasets/read-cards

The reader gets the true hangtag and barcode boxes as its detections, so this measures reading
alone (add the detector's own time from `hangtag-inspect bench`), unless --detect is given.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from inference.detections import centre_inside, iou
from inference.errors import HangtagError


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("read-bench", help="read held-out synthetic hangtags: per-step latency, field and barcode accuracy")
    parser.add_argument("--data", type=Path, required=True,
                        help="a folder written by `python -m training.synth` (images/ + truth/): cards (--cards) or scenes")
    parser.add_argument("--count", type=int, default=500, help="front-side tags to read, at most")
    parser.add_argument("--min-tag-px", type=int, default=400, help="skip tags whose long side is smaller (text below ~7 px)")
    parser.add_argument("--precision", choices=("auto", "fp32", "int8", "int8-det"), default="auto", help="OCR model precision")
    parser.add_argument("--ocr-models", type=Path, default=None,
                        help="a folder of prepared OCR models with manifest.json (a bundle's resources/ocr)")
    parser.add_argument("--det-limit", type=int, default=448, help="long side of the text detector's input, px")
    parser.add_argument("--squeeze", type=float, default=0.7, help="horizontal squeeze of text lines before recognition")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for ONNX Runtime")
    parser.add_argument("--detect", action="store_true",
                        help="run the shipped detector first and read its boxes (else the true boxes); adds detect and detect+read")
    parser.add_argument("--model", type=Path, default=None, help="detector ONNX for --detect (default: the shipped one)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed tags first")
    parser.add_argument("--json", type=Path, default=None, help="write the result here")
    parser.add_argument("--misses", type=int, default=0, help="print this many misread fields")
    parser.set_defaults(func=read_bench)


def _percentiles(values: list[float]) -> dict[str, float]:
    arr = np.asarray(values, np.float64)
    return {"p50": round(float(np.percentile(arr, 50)), 2), "p95": round(float(np.percentile(arr, 95)), 2), "mean": round(float(arr.mean()), 2)}


@dataclass(frozen=True)
class _Sample:
    seed: int
    index: int
    image: np.ndarray
    tag_box: tuple[float, float, float, float]
    barcode_boxes: list
    qr_boxes: list
    fields: dict
    codes: list  # texts of the linear barcodes printed on the tag


def _truth_files(data: Path) -> list[Path]:
    files = sorted((data / "truth").glob("*.json")) if (data / "truth").is_dir() else []
    if not files:
        raise HangtagError("read-bench found no generated scenes", expected=f"{data}/truth/*.json beside {data}/images/",
                           found=f"{data} has none" if data.is_dir() else f"no folder {data}",
                           hint="write them first from a source checkout: python -m training.synth --cards --out DIR "
                                "--count 500 --seed 9000000 --quality 95 (or whole scenes: --imgsz 1600)")
    return files


def _folder_tags(data: Path, min_px: int):
    """Each qualifying front-side tag of the folder's scenes, in file order."""
    from inference.imageio import read_image

    for path in _truth_files(data):
        truth = json.loads(path.read_text(encoding="utf-8"))
        image = None
        for index, tag in enumerate(truth["tags"]):
            x1, y1, x2, y2 = tag["xyxy"]
            if tag["side"] != "front" or max(x2 - x1, y2 - y1) < min_px:
                continue
            if image is None:
                folder = data / "images" if (data / "images").is_dir() else data
                image = read_image(folder / truth["file_name"])
            symbols = tag["symbols"]
            yield _Sample(
                truth["seed"], index, image, tuple(tag["xyxy"]),
                [tuple(s["xyxy"]) for s in symbols if s["class_id"] == 1], [tuple(s["xyxy"]) for s in symbols if s["class_id"] == 2],
                tag["fields"], [s["text"] for s in symbols if s["class_id"] == 1],
            )


def read_bench(args: argparse.Namespace) -> int:
    from inference.reading.normalize import same_value
    from inference.reading.reader import TagReader

    steps: dict[str, list[float]] = {}
    hits: dict[str, int] = {}
    totals: dict[str, int] = {}
    codes_ok = codes_total = 0
    missed_tags = 0
    confidences: list[tuple[bool, float]] = []
    misses: list[str] = []
    models = None
    if args.ocr_models is not None:
        from inference.errors import ModelError
        from inference.reading.ocr.models import SHIPPED_MANIFEST, shipped_models

        models = shipped_models(args.ocr_models)
        if models is None:
            raise ModelError("no prepared OCR models there", expected=f"{SHIPPED_MANIFEST} in {args.ocr_models}",
                             found="no manifest", hint="python packaging/ocr_models.py prepares them")
    reader = TagReader.open(threads=args.threads, precision=args.precision, det_limit=args.det_limit,
                            squeeze=args.squeeze, models=models)
    pipeline = None
    if args.detect:
        from inference.pipeline import Pipeline
        from inference.resources import default_model_path

        options = {"threads": args.threads} if args.threads else {}
        pipeline = Pipeline.open(args.model or default_model_path(), "onnxruntime-cpu", **options)
    source = _folder_tags(args.data, args.min_tag_px)
    read = 0
    first_seed = last_seed = None
    start = time.perf_counter()
    with reader:
        for i in range(args.count + args.warmup):
            sample = next(source, None)
            if sample is None:
                break
            first_seed = sample.seed if first_seed is None else first_seed
            last_seed = sample.seed
            if pipeline is not None:
                t0 = time.perf_counter()
                frame = pipeline.process(sample.image)
                detect_ms = (time.perf_counter() - t0) * 1000
                tags = [t for t in frame.detections.of_class("hangtag").xyxy if iou(t, sample.tag_box) > 0.5]
                others = frame.detections[np.array([lbl != "hangtag" for lbl in frame.detections.labels], bool)] if len(frame.detections) else frame.detections
                if tags:
                    tag_box = tuple(float(v) for v in tags[0])
                    inside = [tuple(map(float, b)) for b, lbl in zip(others.xyxy, others.labels) if centre_inside(b, tag_box)]
                    labels = [lbl for b, lbl in zip(others.xyxy, others.labels) if centre_inside(b, tag_box)]
                    bars = [b for b, lbl in zip(inside, labels) if lbl == "barcode"]
                    qrs = [b for b, lbl in zip(inside, labels) if lbl == "qr_code"]
                else:
                    missed_tags += i >= args.warmup
                    tag_box, bars, qrs = sample.tag_box, [], []
                reading = reader.read_tag(sample.image, tag_box, bars, qrs)
            else:
                detect_ms = 0.0
                reading = reader.read_tag(sample.image, sample.tag_box, sample.barcode_boxes, sample.qr_boxes)
            if i < args.warmup:
                continue
            read += 1
            for step, ms in reading.timings_ms.items():
                steps.setdefault(step, []).append(ms)
            steps.setdefault("ocr", []).append(reading.timings_ms["ocr_det"] + reading.timings_ms["ocr_rec"])
            if pipeline is not None:
                steps.setdefault("detect", []).append(detect_ms)
                steps.setdefault("detect+read", []).append(detect_ms + reading.timings_ms["total"])
            for name, truth in sample.fields.items():
                if truth is None:
                    continue
                got = reading.fields.get(name)
                ok = got is not None and same_value(name, got.value, truth)
                if got is not None:
                    confidences.append((ok, got.confidence))
                totals[name] = totals.get(name, 0) + 1
                hits[name] = hits.get(name, 0) + ok
                if not ok and len(misses) < args.misses:
                    misses.append(f"seed {sample.seed} tag {sample.index} {name}: {truth!r} → {got.value if got else None!r} ({got.raw if got else ''!r})")
            decoded = {b.text for b in reading.barcodes}
            codes_total += len(sample.codes)
            codes_ok += sum(text in decoded for text in sample.codes)
    elapsed = time.perf_counter() - start
    field_total = sum(totals.values())
    result = {
        "tags": read,
        "source": f"{args.data}: seeds {first_seed}..{last_seed}, front-side tags with long side >= {args.min_tag_px} px",
        "models": reader.models,
        "det_limit": args.det_limit,
        "squeeze": args.squeeze,
        "steps_ms": {step: _percentiles(v) for step, v in steps.items()},
        "field_accuracy": round(sum(hits.values()) / field_total, 4) if field_total else None,
        "fields": {name: {"hit": hits[name], "total": totals[name], "accuracy": round(hits[name] / totals[name], 4)} for name in totals},
        "confidence_at_0.80": _confidence_split(confidences, 0.80),
        "barcode_decode": round(codes_ok / codes_total, 4) if codes_total else None,
        "barcodes": {"decoded": codes_ok, "total": codes_total},
        "detector": str(args.model or "shipped") if args.detect else "true boxes",
        "detector_missed_tags": missed_tags if args.detect else None,
        "wall_s": round(elapsed, 1),
        "environment": _environment(),
        "date": time.strftime("%Y-%m-%d"),
    }
    if pipeline is not None:
        pipeline.close()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _print(result, misses)
    return 0


def _confidence_split(confidences: list[tuple[bool, float]], threshold: float) -> dict:
    """How the recipe's default minimum confidence sorts the fields that were read: right ones
    sent to REVIEW for nothing, and wrong ones confident enough to be judged (NG, never OK)."""
    right = [c for ok, c in confidences if ok]
    wrong = [c for ok, c in confidences if not ok]
    return {
        "right_fields_below": round(sum(c < threshold for c in right) / len(right), 4) if right else None,
        "wrong_fields": len(wrong),
        "wrong_fields_at_or_above": sum(c >= threshold for c in wrong),
    }



def _environment() -> dict:
    import os

    from importlib.metadata import PackageNotFoundError, version

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "absent"

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "load_average": [round(v, 2) for v in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        **{name: installed(name) for name in ("onnxruntime", "opencv-python-headless", "zxing-cpp", "rapidocr", "numpy")},
    }


def _print(result: dict, misses: list[str]) -> None:
    print(f"{result['tags']} tags ({result['source']}); {result['models']}")
    print(f"{'step':<10} {'p50':>9} {'p95':>9}   ms per tag")
    for step, row in result["steps_ms"].items():
        print(f"{step:<10} {row['p50']:>9.2f} {row['p95']:>9.2f}")
    print("field accuracy " + (f"{result['field_accuracy']:.2%}" if result["field_accuracy"] is not None else "n/a"))
    for name, row in result["fields"].items():
        print(f"  {name:<16} {row['hit']:>5}/{row['total']:<5} {row['accuracy']:.2%}")
    split = result["confidence_at_0.80"]
    if split["right_fields_below"] is not None:
        print(f"confidence < 0.80 on {split['right_fields_below']:.1%} of right fields (REVIEW for nothing); "
              f"{split['wrong_fields_at_or_above']} of {split['wrong_fields']} wrong fields at >= 0.80")
    if result["barcode_decode"] is not None:
        print(f"barcode decode {result['barcode_decode']:.2%} ({result['barcodes']['decoded']}/{result['barcodes']['total']})")
    for line in misses:
        print("  miss: " + line)
