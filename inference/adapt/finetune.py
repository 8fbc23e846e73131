"""Fine-tune the model in use on the corrected frames of an Adapt folder; write a candidate.

The trainer is part of the product (inference/adapt/htdet/), not a call into training/: the station
and `hangtag-inspect adapt` must fine-tune where only the wheel is installed, and training/ is not
shipped. PyTorch stays optional: nothing here imports it until a fine-tune starts, and then a missing
torch is a TrainerMissingError that names the extra to install.

A candidate is a folder, DIR/candidates/<stamp>/: hangtag_det.onnx, MODEL_CARD.md, training.json.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from inference.adapt.errors import AdaptError, require_torch
from inference.adapt.folder import HELD_OUT, TRAIN, AdaptFolder, KeptFrame
from inference.adapt.models import spec_of
from inference.records.convert import file_hash

MIN_CORRECTED = 3  # two to learn from and one to judge by; the benchmark uses 30


@dataclass(frozen=True)
class FineTuneSettings:
    epochs: int = 20
    batch: int = 4
    lr: float = 2e-4
    held_out_fraction: float = 0.2
    seed: int = 0
    device: str = "auto"  # "cuda" where PyTorch sees a GPU, else "cpu"
    imgsz: int = 0  # training size; 0: the model's own input size
    threads: int = 0  # PyTorch CPU threads; 0: all cores but one, so the station keeps inspecting
    freeze_backbone: bool = False  # train only the neck and heads


@dataclass(frozen=True)
class Candidate:
    directory: Path
    model_path: Path
    base_model: Path
    base_hash: str
    model_hash: str
    train_frames: int
    held_out_frames: int
    device: str
    seconds: float
    epochs: list[dict] = field(default_factory=list)
    trained_classes: tuple[str, ...] = ()  # classes whose scores the frames trained; others kept as they were

    @classmethod
    def load(cls, directory: Path) -> Candidate:
        doc = json.loads((Path(directory) / "training.json").read_text(encoding="utf-8"))
        return cls(Path(directory), Path(directory) / "hangtag_det.onnx", Path(doc["base_model"]), doc["base_hash"],
                   doc["model_hash"], doc["train_frames"], doc["held_out_frames"], doc["device"], doc["seconds"],
                   doc["epochs"], tuple(doc.get("trained_classes", ())))


def pick_device(requested: str = "auto") -> str:
    torch = require_torch()
    if requested == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise AdaptError("no GPU for fine-tuning", expected="a CUDA GPU PyTorch can use", found="none",
                         hint="fine-tune on the CPU (device auto or cpu)")
    return requested


def _examples(folder: AdaptFolder, frames: list[KeptFrame]):
    from inference.adapt.htdet.trainer import Example

    out = []
    for f in frames:
        xyxy = np.array([b.xyxy for b in f.boxes], np.float32).reshape(-1, 4)
        out.append(Example(folder.image(f.id), xyxy, np.array([b.class_id for b in f.boxes], np.int64)))
    return out


def fine_tune(folder: AdaptFolder, base_model: Path, settings: FineTuneSettings = FineTuneSettings(), *,
              on_epoch: Callable[[object], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> Candidate:
    torch = require_torch()
    corrected = folder.corrected()
    if len(corrected) < MIN_CORRECTED:
        raise AdaptError("too few corrected frames to fine-tune", expected=f"at least {MIN_CORRECTED} (30 or more is "
                         "better)", found=str(len(corrected)), hint="keep and correct more frames (steps 1 and 2)")
    spec = spec_of(base_model)
    if tuple(spec.class_names) != folder.class_names:
        raise AdaptError("the model in use detects other classes than the Adapt folder holds",
                         expected=", ".join(folder.class_names), found=", ".join(spec.class_names),
                         hint="use a new data folder for this model")
    folder.assign_split(settings.held_out_fraction, settings.seed)
    export_size = (spec.input_hw or (640, 640))[0]
    device = pick_device(settings.device)
    threads = settings.threads or max(1, (os.cpu_count() or 2) - 1)
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    directory = folder.root / "candidates" / stamp
    directory.mkdir(parents=True, exist_ok=False)
    model_path = directory / "hangtag_det.onnx"
    from inference.adapt.htdet.trainer import fine_tune as train_loop

    started = time.perf_counter()
    try:
        reports, trained = train_loop(Path(base_model), _examples(folder, folder.corrected(TRAIN)),
                             _examples(folder, folder.corrected(HELD_OUT)), class_names=folder.class_names,
                             out_path=model_path, imgsz=settings.imgsz or export_size, export_imgsz=export_size,
                             epochs=settings.epochs, batch=settings.batch, lr=settings.lr, seed=settings.seed,
                             device=device, on_epoch=on_epoch, should_stop=should_stop,
                             freeze_backbone=settings.freeze_backbone,
                             description=f"HTDet fine-tuned at the station on {len(corrected)} corrected frames "
                                         f"(Adapt), from {Path(base_model).name}")
    except BaseException:
        for leftover in directory.iterdir():
            leftover.unlink()
        directory.rmdir()
        raise
    finally:
        torch.set_num_threads(previous_threads)
    seconds = time.perf_counter() - started
    candidate = Candidate(directory, model_path, Path(base_model), file_hash(base_model), file_hash(model_path),
                          len(folder.corrected(TRAIN)), len(folder.corrected(HELD_OUT)), device, seconds,
                          [_plain(asdict(r)) for r in reports], trained)
    record = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(candidate).items()}
    record.update(settings=asdict(settings), torch=torch.__version__, data=str(folder.root))
    (directory / "training.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    (directory / "MODEL_CARD.md").write_text(model_card(candidate, settings, torch.__version__), encoding="utf-8")
    return candidate


def _plain(d: dict) -> dict:
    return {k: ({n: (None if v != v else round(v, 4)) for n, v in val.items()} if isinstance(val, dict) else
                (round(val, 4) if isinstance(val, float) else val)) for k, val in d.items()}


def model_card(c: Candidate, s: FineTuneSettings, torch_version: str) -> str:
    lines = [f"# HTDet fine-tuned at the station ({c.directory.name})", "",
             f"- Started from `{c.base_model.name}` ({c.base_hash})",
             f"- This model: {c.model_hash}",
             f"- Frames: {c.train_frames} to train on, {c.held_out_frames} held out (never trained on)",
             f"- {len(c.epochs)} epochs, batch {s.batch}, learning rate {s.lr}, seed {s.seed}, on {c.device}, "
             f"{c.seconds:.0f} s, PyTorch {torch_version}",
             f"- Class scores trained: {', '.join(c.trained_classes) or 'none'} (a class with no box in the frames, "
             "that the model did not show there either, keeps the scores it had)",
             "", "| epoch | loss | held-out AP50 |", "|---:|---:|---|"]
    for e in c.epochs:
        ap = ", ".join(f"{k} {'—' if v is None else f'{v:.3f}'}" for k, v in e["held_out_ap50"].items())
        lines.append(f"| {e['epoch']} | {e['loss']:.3f} | {ap} |")
    lines += ["", "Compare it with the model in use before adopting it (Adapt → Compare, or "
              "`hangtag-inspect adapt --data DIR`, which compares after training).", ""]
    return "\n".join(lines)
