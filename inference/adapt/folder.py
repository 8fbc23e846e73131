"""The Adapt data folder: frames an engineer kept, their boxes as a COCO dataset, and the split.

    DIR/frames/000001.jpg ...      the kept frames, bytes as the camera or file gave them
    DIR/annotations.json           COCO; each image also carries origin, reason, corrected and split
    DIR/candidates/<stamp>/        fine-tuned models with their card and comparison (see finetune.py)

One file holds the truth (annotations.json), written whole and atomically, so a crash mid-save leaves
the previous version and a labelling tool (CVAT, Label Studio) can read the folder as it is.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from inference.adapt.errors import AdaptError

TRAIN, HELD_OUT = "train", "held_out"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")


@dataclass(frozen=True)
class Box:
    xyxy: tuple[float, float, float, float]
    class_id: int
    source: str = "engineer"  # "model" for a pre-label nobody has looked at yet

    def __post_init__(self) -> None:
        x1, y1, x2, y2 = (float(v) for v in self.xyxy)
        object.__setattr__(self, "xyxy", (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)))


@dataclass(frozen=True)
class KeptFrame:
    id: int
    file_name: str  # relative to the folder
    width: int
    height: int
    origin: str  # where it came from: a file path, "live view", "results table"
    reason: str = ""  # why it was kept: "engineer", "unsure: tag score 0.31 near 0.25", "REVIEW verdict"
    corrected: bool = False  # an engineer has checked (and fixed) its boxes
    split: str = ""  # TRAIN, HELD_OUT, or "" until the first fine-tune assigns one
    boxes: tuple[Box, ...] = field(default=())
    added_at: float = 0.0


class AdaptFolder:
    def __init__(self, root: Path | str, class_names: tuple[str, ...] = ("hangtag", "barcode", "qr_code")) -> None:
        self.root = Path(root)
        self.class_names = tuple(class_names)
        try:
            (self.root / "frames").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AdaptError("the Adapt data folder cannot be created", expected="a writable folder",
                             found=f"{self.root}: {exc.strerror or exc}", hint="pick another folder") from exc
        self._frames: dict[int, KeptFrame] = {}
        self._lock = threading.RLock()  # the window edits while a job pre-labels or fine-tunes
        self._load()

    # -- reading ---------------------------------------------------------------------------------
    @property
    def annotations_path(self) -> Path:
        return self.root / "annotations.json"

    def frames(self) -> list[KeptFrame]:
        with self._lock:
            return [self._frames[k] for k in sorted(self._frames)]

    def frame(self, frame_id: int) -> KeptFrame:
        return self._frames[frame_id]

    def image(self, frame_id: int) -> np.ndarray:
        path = self.root / self._frames[frame_id].file_name
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise AdaptError("a kept frame cannot be read", expected="an image file", found=str(path),
                             hint="remove the frame from the Adapt list or restore the file")
        return image

    def corrected(self, split: str | None = None) -> list[KeptFrame]:
        return [f for f in self.frames() if f.corrected and (split is None or f.split == split)]

    def _load(self) -> None:
        if not self.annotations_path.exists():
            return
        try:
            doc = json.loads(self.annotations_path.read_text(encoding="utf-8"))
            names = tuple(c["name"] for c in sorted(doc.get("categories", []), key=lambda c: c["id"]))
            if names:
                self.class_names = names
            boxes: dict[int, list[Box]] = {}
            for a in doc.get("annotations", []):
                x, y, w, h = (float(v) for v in a["bbox"])
                boxes.setdefault(int(a["image_id"]), []).append(
                    Box((x, y, x + w, y + h), int(a["category_id"]), str(a.get("source", "engineer"))))
            for im in doc.get("images", []):
                fid = int(im["id"])
                self._frames[fid] = KeptFrame(fid, str(im["file_name"]), int(im["width"]), int(im["height"]),
                                              str(im.get("origin", "")), str(im.get("reason", "")),
                                              bool(im.get("corrected", False)), str(im.get("split", "")),
                                              tuple(boxes.get(fid, ())), float(im.get("added_at", 0.0)))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise AdaptError("the Adapt annotations cannot be read", expected="a COCO annotations.json",
                             found=f"{self.annotations_path}: {exc}",
                             hint="restore the file, or move it away to start the folder afresh") from exc

    # -- collecting ------------------------------------------------------------------------------
    def keep_file(self, path: Path | str, *, origin: str = "", reason: str = "engineer") -> KeptFrame:
        path = Path(path)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise AdaptError("this file is not an image the station can read", expected="JPEG, PNG, BMP or TIFF",
                             found=str(path), hint="pick image files")
        with self._lock:
            fid = self._next_id()
            name = f"frames/{fid:06d}{path.suffix.lower()}"
            shutil.copyfile(path, self.root / name)
            return self._add(KeptFrame(fid, name, image.shape[1], image.shape[0], origin or str(path), reason,
                                       added_at=time.time()))

    def keep_image(self, image_bgr: np.ndarray, *, origin: str, reason: str = "engineer") -> KeptFrame:
        """A frame that exists only in memory (a camera's): stored lossless, so nothing is lost twice."""
        with self._lock:
            fid = self._next_id()
            name = f"frames/{fid:06d}.png"
            if not cv2.imwrite(str(self.root / name), image_bgr):
                raise AdaptError("the frame could not be written", expected="a writable data folder",
                                 found=str(self.root / name), hint="free disk space or pick another folder")
            return self._add(KeptFrame(fid, name, image_bgr.shape[1], image_bgr.shape[0], origin, reason,
                                       added_at=time.time()))

    def keep_folder(self, folder: Path | str, *, reason: str = "engineer") -> list[KeptFrame]:
        folder = Path(folder)
        if not folder.is_dir():
            raise AdaptError("not a folder", expected="a folder of images", found=str(folder))
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        kept, skipped = [], []
        for p in files:
            try:
                kept.append(self.keep_file(p, reason=reason, origin=str(p)))
            except AdaptError:
                skipped.append(p.name)
        if not kept and skipped:
            raise AdaptError("no image in the folder could be read", expected="JPEG, PNG, BMP or TIFF files",
                             found=f"{len(skipped)} unreadable: {', '.join(skipped[:3])}")
        return kept

    def remove(self, frame_id: int) -> None:
        with self._lock:
            frame = self._frames.pop(frame_id)
            self.save()
        (self.root / frame.file_name).unlink(missing_ok=True)

    def _next_id(self) -> int:
        return max(self._frames, default=0) + 1

    def _add(self, frame: KeptFrame) -> KeptFrame:
        with self._lock:
            self._frames[frame.id] = frame
            self.save()
        return frame

    # -- correcting ------------------------------------------------------------------------------
    def set_boxes(self, frame_id: int, boxes: list[Box] | tuple[Box, ...], *, corrected: bool) -> KeptFrame:
        for b in boxes:
            if not 0 <= b.class_id < len(self.class_names):
                raise AdaptError("a box has an unknown class", expected=f"0 … {len(self.class_names) - 1}",
                                 found=str(b.class_id))
        with self._lock:
            frame = replace(self._frames[frame_id], boxes=tuple(boxes), corrected=corrected)
            self._frames[frame_id] = frame
            self.save()
        return frame

    # -- split -----------------------------------------------------------------------------------
    def assign_split(self, held_out_fraction: float = 0.2, seed: int = 0) -> tuple[int, int]:
        """Corrected frames without a split get one; frames that have one keep it, so a held-out
        frame never drifts into training when more frames arrive. Returns (train, held out)."""
        with self._lock:
            return self._assign_split(held_out_fraction, seed)

    def _assign_split(self, held_out_fraction: float, seed: int) -> tuple[int, int]:
        frames = self.corrected()
        if len(frames) < 2:
            raise AdaptError("too few corrected frames to hold some out", expected="at least 2 (30 or more is better)",
                             found=str(len(frames)), hint="correct more frames in step 2")
        target = max(1, round(held_out_fraction * len(frames)))
        have = sum(f.split == HELD_OUT for f in frames)
        fresh = [f for f in frames if not f.split]
        order = np.random.default_rng(seed + len(frames)).permutation(len(fresh))
        for rank, i in enumerate(order):
            split = HELD_OUT if have + rank < target else TRAIN
            self._frames[fresh[i].id] = replace(fresh[i], split=split)
        if not any(f.split == TRAIN for f in self.corrected()):
            raise AdaptError("every corrected frame is held out", expected="some frames to train on",
                             found=f"{len(frames)} held out", hint="correct more frames")
        self.save()
        return len(self.corrected(TRAIN)), len(self.corrected(HELD_OUT))

    # -- writing ---------------------------------------------------------------------------------
    def to_coco(self) -> dict:
        images, annotations = [], []
        with self._lock:
            frames = self.frames()
        for f in frames:
            images.append({"id": f.id, "file_name": f.file_name, "width": f.width, "height": f.height,
                           "origin": f.origin, "reason": f.reason, "corrected": f.corrected, "split": f.split,
                           "added_at": f.added_at})
            for b in f.boxes:
                x1, y1, x2, y2 = b.xyxy
                annotations.append({"id": len(annotations) + 1, "image_id": f.id, "category_id": b.class_id,
                                    "bbox": [round(x1, 2), round(y1, 2), round(x2 - x1, 2), round(y2 - y1, 2)],
                                    "area": round((x2 - x1) * (y2 - y1), 2), "iscrowd": 0, "source": b.source})
        categories = [{"id": i, "name": n} for i, n in enumerate(self.class_names)]
        return {"info": {"description": "Hangtag Station Adapt: frames kept and corrected at the station"},
                "images": images, "annotations": annotations, "categories": categories}

    def save(self) -> None:
        with self._lock:
            self._save()

    def _save(self) -> None:
        text = json.dumps(self.to_coco(), indent=1, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".annotations.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(tmp, self.annotations_path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise AdaptError("the Adapt annotations could not be saved", expected="a writable data folder",
                             found=f"{self.root}: {exc.strerror or exc}", hint="free disk space") from exc
