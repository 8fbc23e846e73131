"""Candidate against the model in use, on the held-out frames and the bundled golden set.

Per set: AP50 per class, recall / precision and false tags per 100 frames at the station's
confidence, and the frames whose outcome would change: with the job's recipe, the verdict (the tags
are read and judged by each model's boxes); without one, the number of tags the operator would see.
No candidate is adopted blind: the Adopt step needs one of these.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from inference.adapt.errors import AdaptError, FineTuneCancelled
from inference.adapt.folder import HELD_OUT, AdaptFolder
from inference.adapt.scoring import FrameDetections, LabelledFrame, Score, score
from inference.postprocess import Thresholds
from inference.resources import samples_dir

AP_FLOOR = 0.001


@dataclass(frozen=True)
class EvalFrame:
    name: str
    image_bgr: np.ndarray
    truth: LabelledFrame


@dataclass(frozen=True)
class Change:
    frame: str
    current: str
    candidate: str


@dataclass(frozen=True)
class SetComparison:
    name: str
    current: Score
    candidate: Score
    changes: list[Change] = field(default_factory=list)
    changes_are_verdicts: bool = False


@dataclass(frozen=True)
class Comparison:
    current_model: str
    candidate_model: str
    sets: list[SetComparison]

    def to_json(self) -> dict:
        return {"current_model": self.current_model, "candidate_model": self.candidate_model,
                "sets": [{"name": s.name, "current": s.current.to_json(), "candidate": s.candidate.to_json(),
                          "changes_are_verdicts": s.changes_are_verdicts,
                          "changes": [vars(c) for c in s.changes]} for s in self.sets]}

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False), encoding="utf-8")


def held_out_frames(folder: AdaptFolder) -> list[EvalFrame]:
    out = []
    for f in folder.corrected(HELD_OUT):
        truth = LabelledFrame(np.array([b.xyxy for b in f.boxes], np.float64).reshape(-1, 4),
                              np.array([b.class_id for b in f.boxes], int))
        out.append(EvalFrame(Path(f.file_name).name, folder.image(f.id), truth))
    return out


def coco_frames(root: Path) -> list[EvalFrame]:
    """A folder with a COCO annotations.json (the bundled golden set, resources/samples)."""
    path = Path(root) / "annotations.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AdaptError("the golden set cannot be read", expected="a COCO annotations.json", found=f"{path}: {exc}",
                         hint="reinstall the station: resources/samples ships with it") from None
    boxes: dict[int, list] = {}
    for a in doc["annotations"]:
        x, y, w, h = a["bbox"]
        boxes.setdefault(a["image_id"], []).append((x, y, x + w, y + h, a["category_id"]))
    out = []
    for im in sorted(doc["images"], key=lambda i: i["id"]):
        image = cv2.imread(str(Path(root) / im["file_name"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        rows = np.array(boxes.get(im["id"], []), np.float64).reshape(-1, 5)
        out.append(EvalFrame(Path(im["file_name"]).name, image, LabelledFrame(rows[:, :4], rows[:, 4].astype(int))))
    return out


def golden_frames() -> list[EvalFrame]:
    return coco_frames(samples_dir())


def _run(model: Path, frames: list[EvalFrame], backend: str | None, recipe, confidence: float,
         should_stop: Callable[[], bool] | None, progress: Callable[[int], None] | None):
    """Detections above the AP floor per frame, and each frame's outcome at the station's confidence."""
    from inference.inspection import Inspector
    from inference.pipeline import Pipeline

    found, outcomes = [], []
    with Pipeline.open(model, backend, thresholds=Thresholds(confidence=AP_FLOOR, max_detections=300)) as floor:
        for f in frames:
            if should_stop is not None and should_stop():
                raise FineTuneCancelled("the comparison was stopped")
            d = floor.process(f.image_bgr, source_name=f.name).detections
            found.append(FrameDetections(d.xyxy, d.confidence, d.class_id))
            if progress is not None:
                progress(1)
    if recipe is None:
        for det in found:
            outcomes.append(f"{int(((det.class_id == 0) & (det.score >= confidence)).sum())} tag(s)")
        return found, outcomes
    with Inspector.open(model, backend, read=True, thresholds=Thresholds(confidence=confidence)) as inspector:
        inspector.recipe = recipe
        for f in frames:
            if should_stop is not None and should_stop():
                raise FineTuneCancelled("the comparison was stopped")
            outcomes.append(Inspector.verdict_text(inspector.inspect_image(f.image_bgr, source_name=f.name)))
            if progress is not None:
                progress(1)
    return found, outcomes


def compare(current: Path, candidate: Path, sets: dict[str, list[EvalFrame]], class_names: tuple[str, ...], *,
            backend: str | None = None, recipe=None, confidence: float = 0.25,
            should_stop: Callable[[], bool] | None = None,
            progress: Callable[[int], None] | None = None) -> Comparison:
    results = []
    for name, frames in sets.items():
        if not frames:
            continue
        runs = [_run(m, frames, backend, recipe, confidence, should_stop, progress) for m in (current, candidate)]
        truths = [f.truth for f in frames]
        scores = [score(truths, found, class_names, confidence) for found, _ in runs]
        changes = [Change(f.name, a, b) for f, a, b in zip(frames, runs[0][1], runs[1][1]) if a != b]
        results.append(SetComparison(name, scores[0], scores[1], changes, recipe is not None))
    if not results:
        raise AdaptError("nothing to compare on", expected="held-out frames or the golden set", found="no frames",
                         hint="fine-tune first: it holds out part of the corrected frames")
    return Comparison(str(current), str(candidate), results)


def frames_to_run(sets: dict[str, list[EvalFrame]], recipe) -> int:
    """Inferences a comparison will make (for a progress bar)."""
    per_model = sum(len(v) for v in sets.values()) * (2 if recipe is not None else 1)
    return 2 * per_model
