"""Build INT8 (Q/DQ) copies of the PP-OCR det and rec models, calibrated on real reader inputs.

Precision lives in the ONNX graph (QuantizeLinear/DequantizeLinear pairs), so ONNX Runtime runs
the same file with its INT8 kernels and TensorRT can build a strongly typed engine from it.
Calibration tensors are recorded from the FP32 reader itself while it reads calibration images,
so the ranges are those of upright tag crops and line batches, not of random data.

    python -m inference.reading.ocr.quantize            # calibrates on the shipped calibration set
    python -m inference.reading.ocr.quantize --images DIR   # or on photos (whole image = one tag)

The shipped set (resources/calibration/ocr/: images and their tag/code boxes) was drawn once by
the training generator (`python -m training.make_ocr_calibration`); the station never imports it.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from inference.detections import Detections
from inference.errors import BackendUnavailableError, ModelError
from inference.reading.ocr.models import base_models, int8_dir, int8_path, sha256, sidecar_path

# Op types left in FP32 in the recognizer: its classifier head over 18 710 characters and the
# normalizations around attention lose the most when squeezed into 8 bits.
REC_KEEP_FP32 = ("Softmax", "ReduceMean", "Pow", "Sqrt", "Div", "Erf")


class _Recorder:
    """Wraps an engine; keeps a copy of every input it is given."""

    def __init__(self, engine, limit: int) -> None:
        self.engine = engine
        self.feeds: list[dict[str, np.ndarray]] = []
        self.limit = limit

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        if len(self.feeds) < self.limit:
            self.feeds.append({k: v.copy() for k, v in feeds.items()})
        return self.engine.infer(feeds)

    def __getattr__(self, name: str):
        return getattr(self.engine, name)


def record_inputs(samples: Iterable[tuple[np.ndarray, Detections | None]], limit: int = 64) -> tuple[list[dict], list[dict]]:
    """Det and rec feeds of the FP32 reader over the samples."""
    from inference.reading.reader import TagReader

    reader = TagReader.open(precision="fp32")
    det = _Recorder(reader.detector.engine, limit)
    rec = _Recorder(reader.recognizer.engine, limit)
    reader.detector.engine = det
    reader.recognizer.engine = rec
    try:
        for image, detections in samples:
            reader.read(image, detections)
            if len(det.feeds) >= limit and len(rec.feeds) >= limit:
                break
    finally:
        reader.close()
    return det.feeds, rec.feeds


def _opset13(source: Path, out: Path) -> Path:
    """rapidocr's exports are opset 11; per-channel DequantizeLinear needs 13."""
    import onnx
    from onnx import version_converter

    model = onnx.load(str(source))
    if max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) < 13:
        model = version_converter.convert_version(model, 13)
    onnx.save(model, str(out))
    return out


def quantize_model(source: Path, feeds: list[dict], out: Path, exclude_ops: tuple[str, ...] = ()) -> Path:
    try:
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:
        raise BackendUnavailableError("onnxruntime.quantization is missing", expected="onnxruntime with its quantization tools", found=str(exc), hint="pip install onnxruntime onnx") from exc

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter(feeds)

        def get_next(self):
            return next(self._it, None)

    with tempfile.TemporaryDirectory() as tmp:
        base = _opset13(source, Path(tmp) / "opset13.onnx")
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(base), str(pre), skip_symbolic_shape=True)
        ops = None
        if exclude_ops:
            import onnx

            ops = sorted({n.op_type for n in onnx.load(str(pre)).graph.node} - set(exclude_ops))
        quantize_static(
            str(pre),
            str(out),
            Reader(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            # 7-bit weights: without VNNI, u8 x s8 products saturate in the 16-bit accumulate of
            # onnxruntime's CPU kernels (per-channel det masks agreed 41 % with FP32; 98 % with it)
            reduce_range=True,
            op_types_to_quantize=ops,
        )
    return out


def build_int8(samples: Iterable[tuple[np.ndarray, Detections | None]], folder: Path | None = None, calibration: str = "", limit: int = 64) -> list[Path]:
    import onnxruntime

    folder = folder or int8_dir()
    models = base_models("gb2312", folder)
    det_feeds, rec_feeds = record_inputs(samples, limit)
    built = []
    for source, feeds, exclude in ((models.det, det_feeds, ()), (models.rec, rec_feeds, REC_KEEP_FP32)):
        out = int8_path(source, folder)
        start = time.perf_counter()
        quantize_model(source, feeds, out, exclude)
        sidecar_path(out).write_text(
            json.dumps(
                {
                    "source": source.name,
                    "source_sha256": sha256(source),
                    "sha256": sha256(out),
                    "precision": "int8 (Q/DQ, per-channel weights, uint8 activations, MinMax calibration)",
                    "kept_fp32": list(exclude),
                    "calibration": f"{len(feeds)} recorded {'det' if source == models.det else 'rec'} inputs; {calibration}",
                    "onnxruntime": onnxruntime.__version__,
                    "machine": platform.machine(),
                    "build_seconds": round(time.perf_counter() - start, 1),
                    "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
        built.append(out)
    return built


def calibration_dir() -> Path:
    from inference.resources import resource_path

    return resource_path("calibration", "ocr")


def shipped_samples(folder: Path) -> tuple[list[tuple[np.ndarray, Detections]], str]:
    """The shipped calibration images with their true tag and code boxes, and what they are."""
    from inference.imageio import read_image

    index = folder / "boxes.json"
    try:
        table = json.loads(index.read_text(encoding="utf-8"))
        names = tuple(table["class_names"])
        samples = [(read_image(folder / row["file_name"]),
                    Detections(np.asarray(row["boxes"], np.float32).reshape(-1, 4), np.ones(len(row["boxes"]), np.float32),
                               np.asarray(row["class_id"], np.int32), names))
                   for row in table["images"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError("the OCR calibration set cannot be read", expected=f"{index} listing images and boxes",
                         found=f"{type(exc).__name__}: {exc}",
                         hint="reinstall the station, or calibrate on photos: python -m inference.reading.ocr.quantize --images DIR") from exc
    seeds = [row.get("seed") for row in table["images"]]
    return samples, f"{len(samples)} shipped calibration images ({folder.name}/, generator seeds {min(seeds)}..{max(seeds)}, cards and scenes cut to their tags)"


def folder_samples(folder: Path):
    from inference.imageio import list_images, read_image

    for path in list_images(folder):
        yield read_image(path), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=Path, default=None, help="calibrate on these images (whole image = one tag)")
    parser.add_argument("--calibration", type=Path, default=None,
                        help="a calibration set (images + boxes.json) other than the shipped one")
    parser.add_argument("--out", type=Path, default=None, help=f"output folder (default {int8_dir()})")
    args = parser.parse_args(argv)
    if args.images:
        samples, what = folder_samples(args.images), f"images in {args.images}"
    else:
        samples, what = shipped_samples(args.calibration or calibration_dir())
    for path in build_int8(samples, args.out, what):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
