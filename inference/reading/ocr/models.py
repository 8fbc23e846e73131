"""Which PP-OCR ONNX files to run: the FP32 ones inside the rapidocr wheel, or INT8 Q/DQ copies.

rapidocr 3.x ships PP-OCRv6 *small* det/rec (Chinese + English, 18 708 characters) and the
PP-OCR mobile v2.0 direction classifier. Importing rapidocr itself pulls in its config machinery;
we only need the files, so the package directory is found through importlib.

INT8 copies are built once from those files (ocr/quantize.py) into the user cache, each with a
sidecar JSON naming the FP32 file's hash; a copy whose source changed is ignored.

A bundle ships neither rapidocr nor its FP32 files, only the default pair already prepared (INT8 det,
FP32 rec cut to GB 2312) in resources/ocr/ with a manifest (packaging/ocr_models.py writes it): smaller,
and nothing to build on the operator's machine.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import re
from dataclasses import dataclass, replace
from pathlib import Path

from inference.errors import ModelError

PRECISIONS = ("auto", "fp32", "int8", "int8-det")
CHARSETS = ("gb2312", "full")


@dataclass(frozen=True)
class OcrModels:
    det: Path
    rec: Path
    version: str  # e.g. "PP-OCRv6 small"
    det_precision: str = "fp32"
    rec_precision: str = "fp32"
    charset: str = "full"
    # the recognizer of the second read (fields still in doubt): the small-print fine-tune where shipped
    reread: Path | None = None

    def describe(self) -> str:
        second = SECOND_READ_NOTE if self.reread is not None else ""
        return f"{self.version} det {self.det_precision} / rec {self.rec_precision}, {self.charset} charset{second}"


def _rapidocr_models_dir() -> Path:
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            "PP-OCR models not found: the rapidocr package is not installed",
            expected="rapidocr (it carries the PP-OCR ONNX files)",
            found="no rapidocr package",
            hint="pip install rapidocr, or pass explicit det/rec model paths",
        )
    return Path(next(iter(spec.submodule_search_locations))) / "models"


def find_ppocr_models(models_dir: Path | None = None) -> OcrModels:
    """The FP32 det/rec pair shipped with rapidocr (newest version if several)."""
    folder = models_dir or _rapidocr_models_dir()
    dets = sorted(folder.glob("*det*.onnx"))
    recs = sorted(folder.glob("*rec*.onnx"))
    if not dets or not recs:
        raise ModelError(
            "PP-OCR det/rec ONNX files not found",
            expected=f"*det*.onnx and *rec*.onnx in {folder}",
            found=", ".join(p.name for p in folder.glob("*.onnx")) or "no .onnx files",
            hint="reinstall rapidocr; its wheel carries the models",
        )
    det, rec = dets[-1], recs[-1]
    match = re.match(r"(PP-OCRv\d+)_rec_(\w+)", rec.stem)
    version = f"{match.group(1)} {match.group(2)}" if match else rec.stem
    return OcrModels(det=det, rec=rec, version=version)


SHIPPED_MANIFEST = "manifest.json"


def shipped_models(folder: Path | None = None) -> OcrModels | None:
    """The prepared default pair a bundle ships in resources/ocr/, or None where there is none."""
    if folder is None:
        from inference.resources import resource_path

        folder = resource_path("ocr")
    manifest = folder / SHIPPED_MANIFEST
    if not manifest.is_file():
        return None
    try:
        meta = json.loads(manifest.read_text(encoding="utf-8"))
        models = OcrModels(det=folder / meta["det"]["file"], rec=folder / meta["rec"]["file"], version=meta["version"],
                           det_precision=meta["det"]["precision"], rec_precision=meta["rec"]["precision"],
                           charset=meta["rec"]["charset"],
                           reread=folder / meta["reread"]["file"] if meta.get("reread") else None)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError("the shipped OCR model manifest is unreadable", expected="det/rec entries with file, "
                         "precision and charset", found=f"{manifest}: {exc}", hint="reinstall the station") from exc
    missing = [p.name for p in (models.det, models.rec, models.reread) if p is not None and not p.is_file()]
    if missing:
        raise ModelError("shipped OCR models are missing", expected=f"{models.det.name} and {models.rec.name} in "
                         f"{folder}", found=f"{', '.join(missing)} absent", hint="reinstall the station")
    return models


def int8_dir() -> Path:
    """Derived OCR models (GB 2312 head, INT8 copies), each with its sidecar JSON."""
    from inference.resources import cache_dir

    path = cache_dir() / "ocr"
    path.mkdir(parents=True, exist_ok=True)
    return path


def int8_path(source: Path, folder: Path | None = None) -> Path:
    return (folder or int8_dir()) / f"{source.stem}.int8.onnx"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sidecar_path(model: Path) -> Path:
    return model.with_suffix(".json")


def valid_int8(source: Path, folder: Path | None = None) -> Path | None:
    """The INT8 copy of `source` if it exists and was built from exactly this file."""
    model = int8_path(source, folder)
    return model if cached_copy_ok(model, sha256(source)) else None


def cached_copy_ok(model: Path, source_sha256: str) -> bool:
    """Whether a derived model in the cache is intact and built from the file whose hash is `source_sha256`.

    Its sidecar must be a JSON object whose `source_sha256` and `sha256` are hex text, and the file must
    still hash to `sha256`. A copy that fails any of these (random bytes, a torn write, a hand-edited
    sidecar) is deleted with its sidecar, so the caller builds it again instead of failing every start."""
    side = sidecar_path(model)
    if not model.is_file() or not side.is_file():
        return False
    try:
        meta = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = None
    if isinstance(meta, dict) and meta.get("source_sha256") != source_sha256 and _is_hex(meta.get("source_sha256")):
        return False  # built from another version of the source: rebuilt over, nothing corrupt
    intact = isinstance(meta, dict) and _is_hex(meta.get("source_sha256")) and _is_hex(meta.get("sha256")) \
        and meta["sha256"] == sha256(model)
    if not intact:
        logging.getLogger(__name__).warning("cached OCR model %s is corrupt; it will be rebuilt", model)
        for path in (model, side):
            path.unlink(missing_ok=True)
    return intact


def _is_hex(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def base_models(charset: str = "gb2312", folder: Path | None = None) -> OcrModels:
    """The FP32 pair, the recognizer cut to `charset` (built into the cache on first use)."""
    if charset not in CHARSETS:
        raise ModelError("unknown OCR charset", expected=" | ".join(CHARSETS), found=charset)
    base = find_ppocr_models()
    if charset == "full":
        return base
    from inference.reading.ocr.charset import restricted_rec

    return OcrModels(base.det, restricted_rec(base.rec, folder or int8_dir()), base.version, charset=charset)


# The recognizer of the second read: PP-OCRv6 small's GB 2312 cut, fine-tuned for small print (a glyph 6-14 px high
# under blur and JPEG) on fonts the test sets never use (training/ocr_finetune; resources/models/OCR_REC_CARD.md).
# It reads the lines of fields the first read left in doubt; the first read stays the stock recognizer's, so a
# difference (NG) still needs the stock read to show it, and the fine-tune can settle a doubt but not make one.
TUNED_REC = "ocr_rec_small_print.onnx"
SMALL_PRINT_NAME = "PP-OCRv6 small rec fine-tuned for small print"
SECOND_READ_NOTE = f"; second read: {SMALL_PRINT_NAME}"  # how a description names it (describe(), the About box)


def tuned_rec(folder: Path | None = None) -> Path | None:
    """The shipped small-print recognizer, or None where this install has none. Its sidecar names its hash; a
    file that does not hash to it (a torn copy) is refused with what to do, never read from silently."""
    if folder is None:
        from inference.resources import resource_path

        folder = resource_path("models")
    path = folder / TUNED_REC
    if not path.is_file():
        return None
    try:
        meta = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
        expected = meta["sha256"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError("the small-print recognizer's sidecar is unreadable", expected=f"{sidecar_path(path).name} "
                         "with its sha256", found=str(exc), hint="reinstall the station (or restore resources/models)") from exc
    if sha256(path) != expected:
        raise ModelError("the small-print recognizer is damaged", expected=f"{path.name} with sha256 {expected[:12]}…",
                         found=f"sha256 {sha256(path)[:12]}…", hint="reinstall the station (or restore resources/models)")
    return path


def station_models(charset: str = "gb2312", folder: Path | None = None) -> OcrModels:
    """The FP32 pair the station reads with (base_models), and the small-print recognizer for the second read where
    shipped. `charset="full"` has none (the fine-tune keeps the GB 2312 head only)."""
    base = base_models(charset, folder)
    reread = tuned_rec() if charset == "gb2312" else None
    return replace(base, reread=reread) if reread is not None else base


def find_ocr_models(precision: str = "auto", charset: str = "gb2312", folder: Path | None = None) -> OcrModels:
    """`auto` is what the station's verdicts are measured with: the FP32 pair from source, or the pair a bundle
    ships. `int8-det` runs the text detector quantized, `int8` both, only on request: the INT8 detector takes a
    third off the text detector's time (about 3 % of a frame's CPU) but read worse where verdicts were compared
    (good tags OK 142 → 137 of 211 on s6001, sixteenth_b, nineteenth_b; BENCHMARKS.md, twenty-fifth session), and
    INT8 rec loses ~0.7 points of field accuracy. Before, `auto` took the INT8 detector wherever a copy had been
    built, so a station read otherwise than every table said."""
    if precision not in PRECISIONS:
        raise ModelError("unknown OCR precision", expected=" | ".join(PRECISIONS), found=precision)
    shipped = shipped_models() if folder is None else None
    if shipped is not None and charset == shipped.charset and precision in ("auto", _precision_name(shipped)):
        return shipped
    if shipped is not None and importlib.util.find_spec("rapidocr") is None:
        raise ModelError("this build ships only the default OCR models", expected=f"precision auto or "
                         f"{_precision_name(shipped)}, charset {shipped.charset}",
                         found=f"precision {precision}, charset {charset}",
                         hint="other OCR precisions need the Python install (pip install hangtag-station)")
    base = station_models(charset, folder)
    if precision in ("fp32", "auto"):
        return base
    det8 = valid_int8(base.det, folder)
    rec8 = valid_int8(base.rec, folder) if precision == "int8" else None
    if precision in ("int8", "int8-det") and (det8 is None or (precision == "int8" and rec8 is None)):
        raise ModelError(
            "INT8 OCR models have not been built",
            expected=f"Q/DQ copies of {base.det.name} and {base.rec.name} in {folder or int8_dir()}",
            found="none, or built from different FP32 files",
            hint="run: python -m inference.reading.ocr.quantize",
        )
    return OcrModels(
        det=det8 or base.det,
        rec=rec8 or base.rec,
        version=base.version,
        det_precision="int8" if det8 else "fp32",
        rec_precision="int8" if rec8 else "fp32",
        charset=base.charset,
        reread=base.reread,
    )


def _precision_name(models: OcrModels) -> str:
    """The `precision` argument that asks for this pair: fp32, int8-det or int8."""
    if models.det_precision == "int8":
        return "int8" if models.rec_precision == "int8" else "int8-det"
    return "fp32"
