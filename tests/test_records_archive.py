"""The NG/REVIEW archive: dated folders, originals byte-identical, oldest-first pruning that spares unexported sessions."""

from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.records.annotate import annotate_frame
from inference.records.archive import Archive, ArchiveError
from inference.records.convert import file_hash

DETS = [{"class_id": 0, "class_name": "hangtag", "confidence": 0.91, "xyxy": [10, 12, 60, 90]},
        {"class_id": 1, "class_name": "吊牌", "confidence": 0.5, "xyxy": [20, 40, 50, 70]}]


def make_frame(value: int = 120, hw: tuple[int, int] = (100, 140)) -> np.ndarray:
    image = np.full((*hw, 3), value, np.uint8)
    image[::7] = 255 - value  # stripes: JPEG sizes differ from frame to frame
    return image


def save(archive: Archive, tmp_path: Path, index: int, *, session: int = 1, mtime: float | None = None) -> tuple[str, ...]:
    source = tmp_path / f"src_{index}.png"
    cv2.imwrite(str(source), make_frame(index * 10 % 255))
    saved = archive.save(session_id=session, frame_index=index, verdict="NG", source_name=f"../../{index}.png",
                         detections=DETS, source_file=source, timestamp=1_790_000_000 + index * 86_400)
    for path in (saved.original, saved.annotated):
        if mtime is not None:
            os.utime(path, (mtime + index, mtime + index))
    return saved.original, saved.annotated


def test_save_keeps_the_source_bytes_and_an_annotated_copy_in_a_dated_folder(tmp_path):
    archive = Archive(tmp_path / "archive")
    original, annotated = save(archive, tmp_path, 3)
    rel = Path(original).relative_to(tmp_path / "archive")
    day = time.localtime(1_790_000_000 + 3 * 86_400)
    assert rel.parts[:3] == (f"{day.tm_year:04d}", f"{day.tm_mon:02d}", f"{day.tm_mday:02d}") and len(rel.parts) == 5
    assert rel.parts[3] == "s000001" and ".." not in rel.parts and rel.name.endswith(".orig.png")
    assert file_hash(original) == file_hash(tmp_path / "src_3.png")
    image = cv2.imread(annotated)
    assert image.shape == (100, 140, 3) and not np.array_equal(image, cv2.imread(original))
    assert archive.used_bytes() == os.path.getsize(original) + os.path.getsize(annotated)


def test_pixels_without_a_file_are_archived_losslessly(tmp_path):
    archive = Archive(tmp_path / "a")
    frame = make_frame(77)
    saved = archive.save(session_id=2, frame_index=0, verdict="REVIEW", source_name="camera", detections=[],
                         image_bgr=frame)
    assert np.array_equal(cv2.imread(saved.original), frame)


def test_annotation_draws_boxes_labels_and_a_cjk_label_without_crashing():
    frame = make_frame(120, (240, 320))
    out = annotate_frame(frame, DETS, "NG")
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    assert np.array_equal(frame, make_frame(120, (240, 320)))  # the input is left alone
    red = out[:20, :40].reshape(-1, 3)
    assert (red[:, 2] > 150).any()  # the NG stamp is red in the top-left corner


def test_prune_deletes_oldest_unprotected_first_and_asks_before_touching_unexported(tmp_path):
    archive = Archive(tmp_path / "archive", cap_bytes=0)
    units = [save(archive, tmp_path, i, mtime=1_700_000_000) for i in range(4)]
    sizes = [sum(os.path.getsize(p) for p in u) for u in units]
    archive.cap_bytes = sum(sizes) - sizes[0] - sizes[1] // 2  # must free unit 0 and part of another
    protected = set(units[1])
    result = archive.prune(protected)
    assert set(result.deleted_files) == set(units[0]) | set(units[2])
    assert all(os.path.exists(p) for p in units[1] + units[3])
    assert not result.needs_confirmation and result.used_bytes <= archive.cap_bytes

    archive.cap_bytes = sizes[3] - 1  # only the protected unit 1 and unit 3 are left
    result = archive.prune(protected)
    assert set(result.deleted_files) == set(units[3]) and result.needs_confirmation
    assert all(os.path.exists(p) for p in units[1]) and result.protected_bytes == sizes[1]
    result = archive.prune(protected, confirm=True)
    assert set(result.deleted_files) == set(units[1]) and not result.needs_confirmation
    assert not any((tmp_path / "archive").rglob("*"))  # empty day folders are removed too


def test_an_unwritable_archive_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ArchiveError, match="cannot write to the image archive"):
        Archive(blocker / "archive").save(session_id=1, frame_index=0, verdict="NG", source_name="a",
                                          detections=[], image_bgr=make_frame())
