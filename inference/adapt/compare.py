"""Candidate against the model in use, on the held-out frames and the bundled golden set.

Per set: AP50 per class, recall / precision and false tags per 100 frames at the station's confidence,
the frames whose number of shown tags would change, and the verdicts each model leads to on a capped
sample (verdicts.py): on the held-out frames under the job's recipe (reads only without one), on the
golden frames under what their truth says is printed, so those are good frames and any NG is false.
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
from inference.adapt.golden_recipes import golden_recipes
from inference.adapt.scoring import FrameDetections, LabelledFrame, Score, score
from inference.adapt.verdicts import DEFAULT_CAP, JudgedFrame, VerdictChange, VerdictSample, box_disagreement, judge_sample
from inference.postprocess import Thresholds
from inference.resources import samples_dir

AP_FLOOR = 0.001


@dataclass(frozen=True)
class EvalFrame:
    name: str
    image_bgr: np.ndarray
    truth: LabelledFrame
    recipe: object | None = None  # the frame's own recipe (golden frames); else the job's applies
    good: bool = False  # its tag is known to be what the recipe asks for
    judged: bool = True  # False where no recipe can describe it (several golden tags, a back side)


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
    changes: list[Change] = field(default_factory=list)  # tags shown per frame, every frame of the set
    verdicts: VerdictSample | None = None


@dataclass(frozen=True)
class Comparison:
    current_model: str
    candidate_model: str
    sets: list[SetComparison]

    @property
    def ok_to_ng(self) -> list[tuple[str, VerdictChange]]:
        """(set, change) for every judged frame the model in use passed and the candidate fails."""
        return [(s.name, c) for s in self.sets if s.verdicts is not None for c in s.verdicts.ok_to_ng]

    def to_json(self) -> dict:
        return {"current_model": self.current_model, "candidate_model": self.candidate_model,
                "sets": [{"name": s.name, "current": s.current.to_json(), "candidate": s.candidate.to_json(),
                          "changes": [vars(c) for c in s.changes],
                          "verdicts": s.verdicts.to_json() if s.verdicts is not None else None} for s in self.sets]}

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
    """The golden set; a frame with one front tag carries the recipe its truth implies and counts as good."""
    recipes = golden_recipes(samples_dir())
    return [EvalFrame(f.name, f.image_bgr, f.truth, recipes.get(f.name), f.name in recipes, f.name in recipes)
            for f in coco_frames(samples_dir())]


def _detect(model: Path, frames: list[EvalFrame], backend: str | None,
            should_stop: Callable[[], bool] | None, progress: Callable[[int], None] | None) -> list[FrameDetections]:
    """Every detection above the AP floor per frame (AP needs the whole ranking)."""
    from inference.pipeline import Pipeline

    found = []
    with Pipeline.open(model, backend, thresholds=Thresholds(confidence=AP_FLOOR, max_detections=300)) as floor:
        for f in frames:
            if should_stop is not None and should_stop():
                raise FineTuneCancelled("the comparison was stopped")
            d = floor.process(f.image_bgr, source_name=f.name).detections
            found.append(FrameDetections(d.xyxy, d.confidence, d.class_id))
            if progress is not None:
                progress(1)
    return found


def _shown_tags(det: FrameDetections, confidence: float) -> np.ndarray:
    return det.xyxy[(det.class_id == 0) & (det.score >= confidence)]


def compare(current: Path, candidate: Path, sets: dict[str, list[EvalFrame]], class_names: tuple[str, ...], *,
            backend: str | None = None, recipe=None, confidence: float = 0.25, verdict_cap: int | None = DEFAULT_CAP,
            should_stop: Callable[[], bool] | None = None,
            progress: Callable[[int], None] | None = None) -> Comparison:
    """`recipe` is the job's, for frames without their own; `verdict_cap` frames judged per set (None: all)."""
    results = []
    for name, frames in sets.items():
        if not frames:
            continue
        runs = [_detect(m, frames, backend, should_stop, progress) for m in (current, candidate)]
        truths = [f.truth for f in frames]
        scores = [score(truths, found, class_names, confidence) for found in runs]
        shown = [[_shown_tags(d, confidence) for d in found] for found in runs]
        changes = [Change(f.name, f"{len(a)} tag(s)", f"{len(b)} tag(s)")
                   for f, a, b in zip(frames, *shown) if len(a) != len(b)]
        judged = [JudgedFrame(f.name, f.image_bgr, f.recipe if f.recipe is not None else recipe, f.good)
                  for f in frames if f.judged]
        verdicts = None
        if judged and verdict_cap != 0:
            disagreement = {f.name: box_disagreement(a, b) for f, a, b in zip(frames, *shown)}
            verdicts = judge_sample(current, candidate, judged, disagreement, verdict_cap or 0, backend=backend,
                                    confidence=confidence, should_stop=should_stop, progress=progress)
        results.append(SetComparison(name, scores[0], scores[1], changes, verdicts))
    if not results:
        raise AdaptError("nothing to compare on", expected="held-out frames or the golden set", found="no frames",
                         hint="fine-tune first: it holds out part of the corrected frames")
    return Comparison(str(current), str(candidate), results)


def frames_to_run(sets: dict[str, list[EvalFrame]], verdict_cap: int | None = DEFAULT_CAP) -> int:
    """Inferences a comparison will make (for a progress bar): every frame detected, a sample judged, by each model."""
    total = 0
    for frames in sets.values():
        judged = sum(f.judged for f in frames)
        total += len(frames) + (0 if verdict_cap == 0 else judged if verdict_cap is None else min(judged, verdict_cap))
    return 2 * total
