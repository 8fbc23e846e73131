"""The reader's default OCR models, prepared at build time for the bundle.

From source the station derives them on first use from rapidocr's FP32 files: the recognizer cut to
GB 2312 (inference/reading/ocr/charset.py) beside the FP32 text detector. A bundle ships those two
networks with their large weights stored as FP16 (each read through a Cast: they compute in FP32),
about 13 MB instead of rapidocr's 31 MB, with a manifest the reader finds (`shipped_models`), so an
operator's machine neither builds models nor needs the onnx tooling for it. Prepared once per
rapidocr model pair and kept under build/ between builds. (Recipe 2 shipped an INT8 text detector,
which read worse than the FP32 one the verdict benches measure: BENCHMARKS.md, twenty-fifth session.)

    python packaging/ocr_models.py [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECIPE = 3  # bump when the preparation below changes, so cached copies are rebuilt


def prepare(cache_root: Path = ROOT / "build" / "ocr-models") -> Path:
    """A folder with the prepared det/rec pair, the second read's recognizer where the tree ships one, and
    manifest.json (built now unless cached)."""
    sys.path.insert(0, str(ROOT))
    from inference.reading.ocr.models import SHIPPED_MANIFEST, find_ppocr_models, sha256, shipped_models, tuned_rec

    source = find_ppocr_models()
    reread = tuned_rec()  # the second read's small-print recognizer, where the tree ships one
    key = f"r{RECIPE}-{sha256(source.det)[:12]}-{sha256(source.rec)[:12]}" + (f"-{sha256(reread)[:12]}" if reread else "")
    folder = cache_root / key
    if (folder / SHIPPED_MANIFEST).is_file():
        shipped_models(folder)  # raises if the cached copy is damaged
        return folder
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ocr-models-", dir=_mkdir(cache_root)) as tmp:
        work = Path(tmp)
        det, rec = _build(work)
        files = [det, rec]
        manifest = {"version": source.version, "recipe": RECIPE,
                    "build_seconds": round(time.perf_counter() - started, 1),
                    "det": {"file": det.name, "precision": "fp32", "weights": "fp16 (FP32 compute)",
                            "source": source.det.name, "source_sha256": sha256(source.det), "sha256": sha256(det)},
                    "rec": {"file": rec.name, "precision": "fp32", "charset": "gb2312", "weights": "fp16 (FP32 compute)",
                            "source": source.rec.name,
                            "source_sha256": sha256(source.rec), "sha256": sha256(rec)}}
        if reread is not None:  # shipped already with FP16 weights (training/ship_ocr_rec.py): copied as it is
            manifest["reread"] = {"file": reread.name, "precision": "fp32", "charset": "gb2312", "weights": "fp16 (FP32 compute)",
                                  "sha256": sha256(reread)}
            files.append(reread)
        staged = work / "out"
        staged.mkdir()
        for path in files:
            shutil.copyfile(path, staged / path.name)
        (staged / SHIPPED_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        staged.rename(folder)
    shipped_models(folder)
    return folder


def _build(work: Path) -> tuple[Path, Path]:
    from inference.reading.ocr.models import base_models

    models = base_models("gb2312", work)  # the GB 2312 recognizer, FP32
    det = store_fp16(models.det, work / f"{models.det.stem}.w16.onnx")
    rec = store_fp16(models.rec, work / f"{models.rec.stem}.w16.onnx")
    return det, rec


def store_fp16(source: Path, out: Path, min_elements: int = 1024) -> Path:
    """The same FP32 network with its large weights stored as FP16, each read through a Cast to FP32.

    ONNX Runtime folds those Casts when it creates the session, so the model computes in FP32 exactly as
    before, with weights rounded to FP16 (11 significant bits): half the file. Weights beyond FP16's
    range stay FP32."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    casts, kept = [], []
    for init in graph.initializer:
        weights = numpy_helper.to_array(init) if init.data_type == onnx.TensorProto.FLOAT else None
        if weights is None or weights.size < min_elements or np.abs(weights).max() > 65504:
            kept.append(init)
            continue
        stored = init.name + "__fp16"
        kept.append(numpy_helper.from_array(weights.astype(np.float16), stored))
        casts.append(helper.make_node("Cast", [stored], [init.name], to=onnx.TensorProto.FLOAT,
                                      name=f"{init.name}__to_fp32"))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))
    return out


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "ocr-models", help="cache folder")
    args = parser.parse_args(argv)
    print(prepare(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
