"""Export one journaled session as a report folder: HTML (+ PDF from app/), CSV, JSON, COCO, images.

    <out>/report_s00012_<job>_<start>/
        report.html  report.pdf  frames.csv  frames.json  detections.csv  fields.csv
        coco.json  coco_results.json  manifest.json  charts/*.svg  images/*.jpg  thumbs/*.jpg  fonts/

Built in a hidden staging folder and renamed into place (see staging.py). Images come from the
archive when it has them, else from the source file if its content hash still matches the journal:
a report never shows a picture other than the one that was judged.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from inference.records.annotate import annotate_frame
from inference.records.convert import file_hash
from inference.records.html_report import FONT_FILE, charts, render_html
from inference.records.journal import Journal
from inference.records.report import FlaggedFrame, ReportData, summarize
from inference.records.staging import ExportCancelled, StagedFolder, safe_name
from inference.records.tables import coco, detections_csv, fields_csv, frames_csv, frames_json, tags_csv, tags_json
from inference.resources import font_path, resource_path

IMAGE_MODES = ("flagged", "all", "none")
THUMB_WIDTH = 320

# (report, staging folder, pdf path) → None. app.report_pdf.render_pdf fits; inference/ never imports Qt.
PdfRenderer = Callable[[ReportData, Path, Path], None]
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class ExportResult:
    path: Path
    session_id: int
    frames: int
    flagged: int
    images_written: int
    images_missing: int
    seconds: float
    marked_exported: bool
    files: tuple[str, ...]
    unit: str = "frames"  # what `frames`' sibling `flagged` counts: NG/REVIEW frames, or a moving line's tags


@dataclass(frozen=True)
class _Images:
    image: str = ""
    thumb: str = ""
    thumb_wh: tuple[int, int] = (0, 0)
    note: str = ""


def report_name(journal: Journal, session_id: int) -> str:
    s = journal.session(session_id)
    label = safe_name(s.job or s.recipe_name or "session", max_len=40)
    return f"report_s{s.id:05d}_{label}_{time.strftime('%Y%m%d-%H%M', time.localtime(s.started_at))}"


def export_session(journal: Journal, session_id: int, out_dir: Path | str, *, images: str = "flagged",
                   pdf: PdfRenderer | None = None, progress: Progress | None = None,
                   cancel: Callable[[], bool] | None = None, mark_exported: bool = True,
                   workers: int | None = None, durable: bool = True) -> ExportResult:
    """Write the report folder under `out_dir` and return where it went. Raises ExportError (nothing left)."""
    if images not in IMAGE_MODES:
        raise ValueError(f"images must be one of {IMAGE_MODES}, not {images!r}")
    started = time.perf_counter()
    session = journal.session(session_id)
    frames = journal.frames(session_id)
    tags = journal.tags(session_id)  # a moving line's one row per tag: the report counts those
    events = journal.events(session_id)  # e.g. a Triton server that went down during the session
    report_progress = progress or (lambda stage, done, total: None)
    cancelled = cancel or (lambda: False)
    with StagedFolder(out_dir, report_name(journal, session_id), durable=durable) as staged:
        wanted = [f for f in frames if images == "all" or (images == "flagged" and f.flagged)]
        made = _write_images(staged, wanted, report_progress, cancelled, workers or min(4, os.cpu_count() or 1))
        flagged = [FlaggedFrame(f, **vars(made.get(f.id, _Images(note="images not exported")))) for f in frames
                   if f.flagged]
        report = summarize(session, frames, flagged=flagged, tags=tags)
        report = replace(report, tag_thumbs=_tag_thumbs(staged, [t for t in tags if t.flagged]),
                         acknowledged=acknowledged_tags(events))
        report_progress("tables", 0, 1)
        staged.write_text("frames.csv", frames_csv(session, frames))
        staged.write_text("frames.json", frames_json(session, frames))
        staged.write_text("detections.csv", detections_csv(frames))
        staged.write_text("fields.csv", fields_csv(frames))
        if tags:
            staged.write_text("tags.csv", tags_csv(tags))
            staged.write_text("tags.json", tags_json(session, tags))
        if events:
            staged.write_text("events.json", json.dumps([e.to_dict() for e in events], ensure_ascii=False,
                                                        indent=1) + "\n")
        dataset, results = coco(session, frames, {fid: m.image for fid, m in made.items() if m.image})
        staged.write_text("coco.json", json.dumps(dataset, ensure_ascii=False) + "\n")
        staged.write_text("coco_results.json", json.dumps(results) + "\n")
        _check(cancelled)
        svgs = charts(report)
        for name, svg in svgs.items():
            staged.write_text(f"charts/{name}.svg", svg)
        staged.copy_file(FONT_FILE, font_path())
        staged.copy_file("fonts/OFL.txt", resource_path("fonts", "OFL.txt"))
        listed = ("report.html", *(("report.pdf",) if pdf else ()), *(("tags.csv", "tags.json") if tags else ()),
                  "frames.csv", "frames.json", "detections.csv",
                  "fields.csv", *(("events.json",) if events else ()), "coco.json", "coco_results.json",
                  "manifest.json", "charts/",
                  *(("images/",) if any(m.image for m in made.values()) else ()),
                  *(("thumbs/",) if report.tag_thumbs or any(m.thumb for m in made.values()) else ()))
        report = replace(report, files=listed)
        report_progress("html", 0, 1)
        staged.write_text("report.html", render_html(report, chart_svgs=svgs))
        if pdf is not None:
            _check(cancelled)
            report_progress("pdf", 0, 1)
            pdf(report, staged.root, staged.path("report.pdf"))
        staged.write_text("manifest.json", _manifest(staged.root, session_id))
        _check(cancelled)
        final = staged.commit()
    marked = False
    if mark_exported and not journal.read_only:
        journal.mark_exported(session_id, str(final))
        marked = True
    report_progress("done", 1, 1)
    missing = sum(1 for m in made.values() if not m.image)
    flagged_count = sum(t.flagged for t in tags) if tags else len(flagged)  # a line's frames are only tracked
    return ExportResult(final, session_id, len(frames), flagged_count, len(made) - missing, missing,
                        time.perf_counter() - started, marked, tuple(sorted(_files(final))),
                        "tags" if tags else "frames")


def _check(cancelled: Callable[[], bool]) -> None:
    if cancelled():
        raise ExportCancelled("export cancelled", hint="nothing was written under the report's name")


def _write_images(staged: StagedFolder, frames: list, progress: Progress, cancelled: Callable[[], bool],
                  workers: int) -> dict[int, _Images]:
    """Annotated image (+ thumbnail for NG/REVIEW) per frame; OpenCV releases the GIL, so threads overlap."""
    out: dict[int, _Images] = {}
    if not frames:
        return out
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = set()
        queue = iter(frames)
        for frame in queue:
            pending.add(pool.submit(_frame_images, staged, frame))
            if len(pending) >= workers * 4:
                break
        done_count = 0
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                frame_id, images = future.result()
                out[frame_id] = images
                done_count += 1
            if cancelled():
                for future in pending:
                    future.cancel()
                raise ExportCancelled("export cancelled", hint="nothing was written under the report's name")
            progress("images", done_count, len(frames))
            for frame in queue:
                pending.add(pool.submit(_frame_images, staged, frame))
                if len(pending) >= workers * 4:
                    break
    return out


def _frame_images(staged: StagedFolder, frame) -> tuple[int, _Images]:
    stem = f"f{frame.id:07d}_{safe_name(Path(frame.source_name).stem, max_len=60)}"
    image_rel, thumb_rel = f"images/{stem}.jpg", f"thumbs/{stem}.jpg"
    want_thumb = frame.flagged
    if frame.archive_annotated and os.path.isfile(frame.archive_annotated):
        staged.copy_file(image_rel, frame.archive_annotated)
        if not want_thumb:
            return frame.id, _Images(image=image_rel)
        annotated = _decode(frame.archive_annotated, frame.image_hw[1])
    else:
        original, note = _original_for(frame)
        if original is None:
            return frame.id, _Images(note=note)
        image = _decode(original, 0)
        if image is None:
            return frame.id, _Images(note=f"image {Path(original).name} could not be decoded")
        annotated = annotate_frame(image, frame.detections, frame.verdict, tags=frame.tags, checks=frame.checks)
        _write_jpeg(staged, image_rel, annotated, 90)
        if not want_thumb:
            return frame.id, _Images(image=image_rel)
    if annotated is None:
        return frame.id, _Images(image=image_rel, note="annotated image could not be decoded for a thumbnail")
    thumb = _thumbnail(annotated, THUMB_WIDTH)
    _write_jpeg(staged, thumb_rel, thumb, 82)
    return frame.id, _Images(image=image_rel, thumb=thumb_rel, thumb_wh=(thumb.shape[1], thumb.shape[0]))


def acknowledged_tags(events) -> dict[str, float]:
    """Tag label → when an operator acknowledged it (the station journals "acknowledged", subject "tag #7")."""
    return {ev.subject.removeprefix("tag "): ev.at for ev in events
            if ev.kind == "acknowledged" and ev.subject.startswith("tag ")}


def _tag_thumbs(staged: StagedFolder, tags: list) -> dict[int, tuple[str, tuple[int, int]]]:
    """The archived crop of each NG/REVIEW tag of a moving line as a thumbnail: its row in the report showed text
    only, and a line manager could not see the tag that failed. A crop not archived (never read) has none."""
    out = {}
    for tag in tags:
        crop = tag.archive_annotated or tag.archive_crop
        image = cv2.imdecode(np.fromfile(crop, np.uint8), cv2.IMREAD_COLOR) if crop and os.path.isfile(crop) else None
        if image is None:
            continue
        thumb = _thumbnail(image, THUMB_WIDTH)
        relative = f"thumbs/t{tag.id:07d}_tag{tag.tag_id}.jpg"
        _write_jpeg(staged, relative, thumb, 82)
        out[tag.id] = (relative, (thumb.shape[1], thumb.shape[0]))
    return out


def _original_for(frame) -> tuple[str | None, str]:
    for candidate in (frame.archive_original, frame.image_path):
        if not candidate or not os.path.isfile(candidate):
            continue
        if frame.image_hash and file_hash(candidate) != frame.image_hash:
            return None, f"{Path(candidate).name} changed since it was inspected (hash differs): not shown"
        return candidate, ""
    return None, "image not available: not archived and the source file is gone"


def _decode(path: str, full_width: int) -> np.ndarray | None:
    """Decode at reduced size when only a thumbnail is needed: JPEG's DCT scaling is 4–8× faster."""
    flag = cv2.IMREAD_COLOR
    if full_width:
        for factor, reduced in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                                (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if full_width // factor >= THUMB_WIDTH:
                flag = reduced
                break
    return cv2.imdecode(np.fromfile(path, np.uint8), flag)


def _thumbnail(image: np.ndarray, width: int) -> np.ndarray:
    h, w = image.shape[:2]
    if w <= width:
        return image
    return cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)


def _write_jpeg(staged: StagedFolder, relative: str, image: np.ndarray, quality: int) -> None:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"could not encode {relative}")
    staged.write_bytes(relative, data.tobytes())


def _files(root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]


def _manifest(root: Path, session_id: int) -> str:
    """sha256 of every file: an auditor can prove a report was not edited after export."""
    entries = {}
    for rel in sorted(_files(root)):
        digest = hashlib.sha256()
        with open(root / rel, "rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
        entries[rel] = digest.hexdigest()
    return json.dumps({"session_id": session_id, "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                       "sha256": entries}, indent=1) + "\n"
