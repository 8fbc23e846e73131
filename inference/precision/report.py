"""Run one model at FP32, FP16 and INT8 over a labelled folder: accuracy, agreement, latency, size.

Qt-free and callable from a worker: the CLI `precision-report` prints it, the GUI can show it.
"""

from __future__ import annotations

import platform
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from inference.imageio import read_image
from inference.postprocess import CANDIDATE_FLOOR, Thresholds
from inference.precision.calibration import find_images
from inference.precision.errors import CalibrationError
from inference.precision.evaluate import AP50Evaluator, agreement, label_path_for, read_yolo_labels
from inference.precision.prepare import prepare_model

# mAP is computed over every candidate (COCO-style: a low floor, NMS at 0.7, up to 300 boxes);
# agreement with FP32 over what the operator sees (the station's default thresholds).
EVAL_THRESHOLDS = Thresholds(confidence=CANDIDATE_FLOOR, iou=0.7, max_detections=300)
AGREEMENT_IOU = 0.9


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, np.float64), q)) if values else 0.0


def evaluate_precision(model_path: Path, backend: str, images: Sequence[Path], *, operator: Thresholds,
                       reference: dict[str, list] | None = None, threads: int | None = None,
                       warmup: int = 3) -> tuple[dict[str, Any], dict[str, list]]:
    """Metrics of one converted model; returns (metrics, per-image detections for agreement)."""
    from inference.pipeline import Pipeline

    options: dict[str, Any] = {"thresholds": operator}
    if threads:
        options["threads"] = threads
    infer_ms: list[float] = []
    total_ms: list[float] = []
    shown: dict[str, list] = {}
    with Pipeline.open(model_path, backend, **options) as pipe:
        names = pipe.class_names
        ev = AP50Evaluator(len(names))
        labelled = 0
        first = read_image(images[0])
        for _ in range(warmup):
            pipe.process(first)
        matched = ref_total = this_total = 0
        for path in images:
            image = read_image(path)
            result = pipe.process(image, source_name=path.name)
            infer_ms.append(result.timings.get("infer"))
            total_ms.append(result.timings.total_ms)
            dets = result.refiltered(EVAL_THRESHOLDS)
            label = label_path_for(path)
            if label is not None:
                labelled += 1
                gt_xyxy, gt_cls = read_yolo_labels(label, image.shape[:2])
                ev.add(dets.xyxy, dets.confidence, dets.class_id, gt_xyxy, gt_cls)
            shown[path.name] = [result.detections.xyxy, result.detections.class_id]
            if reference is not None:
                ref_xyxy, ref_cls = reference[path.name]
                m, a, b = agreement(ref_xyxy, ref_cls, result.detections.xyxy, result.detections.class_id,
                                    AGREEMENT_IOU)
                matched, ref_total, this_total = matched + m, ref_total + a, this_total + b
        backend_used, device = pipe.backend, pipe.engine.device_name
    per_class = ev.result() if labelled else {}
    metrics: dict[str, Any] = {
        "model_path": str(model_path),
        "size_mb": round(model_path.stat().st_size / 2**20, 3),
        "backend": backend_used,
        "device": device,
        "latency_ms": {"infer_p50": round(_percentile(infer_ms, 50), 3),
                       "infer_p95": round(_percentile(infer_ms, 95), 3),
                       "total_p50": round(_percentile(total_ms, 50), 3)},
        "labelled_images": labelled,
        "map50": None if not labelled else AP50Evaluator.mean(per_class),
        "ap50": {names[c]: ap for c, ap in per_class.items()},
    }
    if reference is not None:
        metrics["agreement"] = {"iou": AGREEMENT_IOU, "matched": matched, "fp32_boxes": ref_total,
                                "boxes": this_total,
                                "rate": round(2 * matched / (ref_total + this_total), 4) if ref_total + this_total else 1.0}
    return metrics, shown


def precision_report(model_path: Path | str, data_dir: Path | str, *, precisions: Sequence[str] = ("fp32", "fp16", "int8"),
                     backend: str | None = None, calibration_dir: Path | str | None = None, method: str = "minmax",
                     limit: int = 0, threads: int | None = None, operator: Thresholds | None = None,
                     progress: Callable[[str, float], None] | None = None,
                     cancel: Callable[[], bool] | None = None, cache_root: Path | None = None,
                     latency_rounds: int = 30, recipe: Any = None, verdict_images: int = 24) -> dict[str, Any]:
    """With a `recipe`, the first `verdict_images` images are also inspected end to end (read and
    judged) at every precision, and each precision's verdicts are compared with FP32's."""
    from inference.engines import default_backend

    model_path, data_dir = Path(model_path), Path(data_dir)
    images = find_images(data_dir)
    if not images:
        raise CalibrationError("no images to evaluate on", expected="a folder of images (YOLO labels optional)",
                               found=str(data_dir), hint="generate one: python -m training.synth --out DIR --count 200")
    if limit > 0:
        images = images[:limit]
    backend = backend or default_backend()
    operator = operator or Thresholds()
    order = ["fp32"] + [p for p in precisions if p != "fp32"]  # agreement needs FP32 first
    report: dict[str, Any] = {"model": str(model_path), "data": str(data_dir), "images": len(images),
                              "backend": backend, "method": method,
                              "calibration": str(calibration_dir) if calibration_dir else "bundled samples",
                              "thresholds": {"map": EVAL_THRESHOLDS.to_dict(), "agreement": operator.to_dict()},
                              "environment": _environment(), "date": time.strftime("%Y-%m-%d"), "precisions": {}}
    reference = None
    converted_paths: dict[str, Path] = {}
    for i, precision in enumerate(order):
        step = lambda name, f, i=i: progress and progress(f"{precision}: {name}", (i + f) / len(order))  # noqa: E731
        started = time.perf_counter()
        converted = prepare_model(model_path, precision, backend, calibration_dir, method, step, cancel,
                                  cache_root=cache_root)
        prepare_s = time.perf_counter() - started
        step("evaluating", 0.5)
        metrics, shown = evaluate_precision(converted, backend, images, operator=operator, reference=reference,
                                            threads=threads)
        metrics["prepare_s"] = round(prepare_s, 2)
        converted_paths[precision] = converted
        if precision == "fp32":
            reference = shown
        if precision in precisions:
            report["precisions"][precision] = metrics
    if progress:
        progress("timing (round-robin)", 0.99)
    times = interleaved_latency({p: converted_paths[p] for p in report["precisions"]}, backend,
                                read_image(images[0]), rounds=latency_rounds, threads=threads)
    for name, values in times.items():
        latency = report["precisions"][name]["latency_ms"]
        latency["eval_infer_p50"] = latency.pop("infer_p50")
        latency.update(infer_p50=round(_percentile(values, 50), 3), infer_p95=round(_percentile(values, 95), 3),
                       rounds=len(values))
    if recipe is not None:
        if progress:
            progress("verdicts (read and judged at each precision)", 0.995)
        from inference.precision.verdicts import agreement_with_fp32, verdicts_by_precision

        verdicts = verdicts_by_precision({p: converted_paths[p] for p in report["precisions"]}, backend,
                                         images[:verdict_images], recipe, threads=threads)
        for name, agreement_ in agreement_with_fp32(verdicts).items():
            report["precisions"][name]["verdict_agreement"] = agreement_
        report["recipe"] = getattr(recipe, "name", "")
    _add_deltas(report)
    return report


def interleaved_latency(models: dict[str, Path], backend: str, image: np.ndarray, *, rounds: int = 30,
                        threads: int | None = None) -> dict[str, list[float]]:
    """Engine-call milliseconds per model, measured round-robin on one letterboxed frame.

    Round-robin puts every precision under the same background load, so the ratios hold on a
    shared machine even when absolute times drift.
    """
    from inference.engines import create_engine
    from inference.preprocess import Letterboxer

    engines = {}
    feeds: dict[str, dict[str, np.ndarray]] = {}
    times: dict[str, list[float]] = {name: [] for name in models}
    try:
        for name, path in models.items():
            options = {"threads": threads} if threads else {}
            engine = engines[name] = create_engine(backend, path, **options).load()
            spec = engine.inputs[0]
            letterbox = Letterboxer((spec.shape[2], spec.shape[3]), dtype=spec.dtype)
            letterbox(image)
            feeds[name] = {spec.name: letterbox.tensor.copy()}
            for _ in range(3):
                engine.infer(feeds[name])
        for _ in range(rounds):
            for name, engine in engines.items():
                started = time.perf_counter_ns()
                engine.infer(feeds[name])
                times[name].append((time.perf_counter_ns() - started) / 1e6)
    finally:
        for engine in engines.values():
            engine.close()
    return times


def _add_deltas(report: dict[str, Any]) -> None:
    base = report["precisions"].get("fp32")
    if not base:
        return
    for metrics in report["precisions"].values():
        if base["map50"] is not None and metrics["map50"] is not None:
            metrics["map50_drop_points"] = round(100 * (base["map50"] - metrics["map50"]), 3)
        if base["latency_ms"]["infer_p50"] > 0:
            metrics["latency_ratio"] = round(metrics["latency_ms"]["infer_p50"] / base["latency_ms"]["infer_p50"], 3)


def _environment() -> dict[str, Any]:
    import os

    import onnx
    import onnxruntime

    return {"python": platform.python_version(), "platform": platform.platform(), "cpu": platform.processor(),
            "cores": os.cpu_count(), "onnxruntime": onnxruntime.__version__, "onnx": onnx.__version__}


def format_table(report: dict[str, Any]) -> str:
    rows = report["precisions"]
    class_names = list(next(iter(rows.values()))["ap50"]) if rows else []
    verdicts = any("verdict_agreement" in m for m in rows.values())
    head = ["precision", "size MB", "infer p50 ms", "× FP32", "mAP50", "Δ pts", *[f"AP50 {c}" for c in class_names],
            "agree@0.9", *(["verdict = FP32", "OK/NG/REVIEW"] if verdicts else [])]
    lines = []
    for name, m in rows.items():
        agree = m.get("agreement")
        lines.append([name.upper(), f"{m['size_mb']:.2f}", f"{m['latency_ms']['infer_p50']:.1f}",
                      f"{m.get('latency_ratio', 1.0):.2f}", _pct(m["map50"]),
                      "—" if "map50_drop_points" not in m else f"{m['map50_drop_points']:+.2f}",
                      *[_pct(m["ap50"].get(c)) for c in class_names],
                      "ref" if agree is None else f"{100 * agree['rate']:.1f}%",
                      *(_verdict_cells(m.get("verdict_agreement")) if verdicts else [])])
    widths = [max(len(str(r[i])) for r in [head, *lines]) for i in range(len(head))]
    fmt = lambda row: "  ".join(str(v).rjust(w) for v, w in zip(row, widths))  # noqa: E731
    title = (f"{report['model']} on {report['backend']}, {report['images']} images from {report['data']} "
             f"(INT8 calibration: {report['method']}, {report['calibration']})")
    return "\n".join([title, fmt(head), *(fmt(r) for r in lines)])


def _verdict_cells(agreement: dict[str, Any] | None) -> list[str]:
    if agreement is None:
        return ["—", "—"]
    counts = agreement["verdicts"]
    return [f"{agreement['same_as_fp32']}/{agreement['images']}",
            "/".join(str(counts.get(v, 0)) for v in ("OK", "NG", "REVIEW"))]


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.2f}"
