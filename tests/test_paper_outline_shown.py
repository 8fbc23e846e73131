"""The tag's paper outline as a reading says it and as the live view and the report images show it (issue 14)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.reading.types import TagReading
from inference.reading.verdict import Check, FrameVerdict, Verdict
from inference.records.annotate import VERDICT_BGR, annotate_frame, paper_outlines, tag_verdict
from tests.tagset_photos import generated_photos

# a tag turned about 20 degrees: its paper's corners in frame pixels (top-left, top-right, bottom-right, bottom-left)
TURNED = ((120.0, 60.0), (236.0, 18.0), (290.0, 168.0), (174.0, 210.0))
DETS = [{"class_id": 0, "class_name": "hangtag", "confidence": 0.9, "xyxy": [110, 10, 300, 220]}]


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance over the quad's diagonal, the corners paired as best they go round."""
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4)) / math.dist(truth[0], truth[2])


def _edge_points(corners, per_side: int = 5) -> list[tuple[float, float]]:
    """Points along each side away from the corners (where the detector's box may cross)."""
    c = np.asarray(corners, np.float64)
    return [tuple(c[k] + t * (c[(k + 1) % 4] - c[k])) for k in range(4) for t in np.linspace(0.2, 0.8, per_side)]


def _near(image_rgb: np.ndarray, point: tuple[float, float], rgb: tuple[int, int, int], tolerance: int = 40) -> bool:
    """Whether a pixel within 2 px of `point` has the colour `rgb`."""
    x, y = (int(round(v)) for v in point)
    patch = image_rgb[max(0, y - 2):y + 3, max(0, x - 2):x + 3].reshape(-1, 3).astype(int)
    return bool((np.abs(patch - np.array(rgb)).max(axis=1) <= tolerance).any())


def _reddish_near(image_rgb: np.ndarray, point: tuple[float, float]) -> bool:
    """Whether a pixel within 2 px of `point` is clearly red: a 1-px line through JPEG keeps its hue, not its value."""
    x, y = (int(round(v)) for v in point)
    patch = image_rgb[max(0, y - 2):y + 3, max(0, x - 2):x + 3].reshape(-1, 3).astype(int)
    return bool((patch[:, 0] - patch[:, 1:].max(axis=1) >= 50).any())


def _bgr_to_rgb(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return bgr[2], bgr[1], bgr[0]


def _textured(h: int = 240, w: int = 320) -> np.ndarray:
    """A wood-like grey grain, none of it the verdict colours."""
    rng = np.random.default_rng(7)
    grain = (100 + 40 * np.sin(np.arange(w) / 5.0))[None, :] + rng.normal(0, 8, (h, w))
    return np.repeat(np.clip(grain, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


# -- what a reading says -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def turned_photos(tmp_path_factory) -> Path:
    return generated_photos(tmp_path_factory.mktemp("paper"), 6, 4242, ["dense_tag", "handwritten_price", "dark_bilingual"])


def test_a_turned_tag_read_by_the_station_says_where_its_paper_is(turned_photos: Path) -> None:
    """Generated photos of tags turned 11-28 degrees on wood and a gradient: the reading carries the four corners
    of the paper, each within 3 % of the tag's diagonal of the generator's truth, and they survive JSON."""
    from inference.imageio import read_image
    from inference.reading.reader import TagReader

    reader = TagReader.open(precision="fp32")
    rows = [json.loads(line) for line in (turned_photos / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    turned = [r for r in rows if r["bucket"] == "nominal" and len(r["tags"]) == 1 and abs(r["condition"]["rotation_deg"]) >= 10]
    assert len(turned) >= 3, [r["condition"]["rotation_deg"] for r in rows]
    for row in turned:
        tag = row["tags"][0]
        truth = np.array(tag["quad"], np.float64)
        reading = reader.read_tag(read_image(turned_photos / row["image"]), tuple(tag["xyxy"]),
                                  [tuple(b["xyxy"]) for b in tag["barcodes"]], [tuple(q["xyxy"]) for q in tag.get("qr", [])])
        if row["condition"]["background"] == "paper":  # a white card on white paper may show no edge: then none
            continue
        assert len(reading.paper) == 4, f"{row['image']} ({row['design']} on {row['condition']['background']}): no outline"
        error = _corner_error(np.array(reading.paper), truth)
        assert error < 0.03, f"{row['image']}: a corner {error:.1%} of the diagonal off the truth"
        restored = json.loads(json.dumps(reading.to_record(), ensure_ascii=False))["paper"]
        assert np.abs(np.array(restored) - np.array(reading.paper)).max() <= 0.005


def test_a_reading_without_an_outline_says_so_and_old_records_draw_nothing() -> None:
    plain = TagReading(0, (110, 10, 300, 220))
    assert plain.paper == () and plain.to_record()["paper"] == []
    frame = _textured()
    before = annotate_frame(frame, DETS, "NG")
    old_row = {k: v for k, v in plain.to_record().items() if k != "paper"}  # a journal written before outlines
    assert np.array_equal(annotate_frame(frame, DETS, "NG", tags=[old_row]), before)
    assert np.array_equal(annotate_frame(frame, DETS, "NG", tags=[plain.to_record()]), before)


def test_a_tag_read_from_a_grown_box_without_an_outline_is_drawn_round_that_box() -> None:
    """p20 000047: the detector boxed the right third of a wide card, the reader grew the box over the whole card and
    judged it OK; the view showed only the detector's third. Where no paper outline was found, the grown box the tag
    was read from is drawn in its verdict's colour; a tag read from the detector's own box draws nothing more."""
    grown = replace(TagReading(0, (20.0, 30.0, 300.0, 220.0)), notes=("tag box grown: printed lines ran into its edge",))
    ((corners, verdict),) = paper_outlines([grown.to_record()], [], "OK")
    assert verdict == "OK" and corners.tolist() == [[20, 30], [300, 30], [300, 220], [20, 220]]
    assert paper_outlines([TagReading(0, (20.0, 30.0, 300.0, 220.0)).to_record()], [], "OK") == []
    outlined = replace(grown, paper=TURNED)  # an outline found: it is drawn, not the box
    assert paper_outlines([outlined.to_record()], [], "OK")[0][0].tolist() == [list(p) for p in TURNED]


@pytest.mark.parametrize("checks, frame, expected", [
    ([], "", ""),  # no recipe: nothing judged
    ([], "OK", "OK"),
    ([("price", 0, "NG"), ("size", 1, "OK")], "NG", "NG"),
    ([("price", 1, "NG"), ("size", 0, "OK")], "NG", "OK"),  # the other tag failed: this one's own checks passed
    ([("size", 0, "OK"), ("count:qr_code", None, "REVIEW")], "REVIEW", "REVIEW"),  # a frame's count is every tag's
    ([("color", 0, "REVIEW"), ("price", 0, "NG")], "NG", "NG"),
    ([("price", 1, "NG")], "NG", "NG"),  # nothing checked on this tag: the frame's verdict
])
def test_an_outline_takes_the_worst_verdict_of_its_tag_and_of_the_frame(checks, frame, expected) -> None:
    records = [{"subject": s, "tag_index": i, "verdict": v} for s, i, v in checks]
    assert tag_verdict(0, records, frame) == expected


# -- the report images ---------------------------------------------------------------------------------------------
def test_the_report_image_draws_the_paper_thin_in_the_verdict_colour_beside_the_box() -> None:
    frame = _textured()
    tags = [replace(TagReading(0, (110, 10, 300, 220)), paper=TURNED).to_record()]
    out = annotate_frame(frame, DETS, "NG", tags=tags, checks=[{"tag_index": 0, "verdict": "NG"}])
    rgb = out[:, :, ::-1]
    red = _bgr_to_rgb(VERDICT_BGR["NG"])
    missing = [p for p in _edge_points(TURNED) if not _near(rgb, p, red)]
    assert not missing, f"no NG-red outline pixel near {missing}"
    box_blue = _bgr_to_rgb((255, 140, 30))  # the hangtag box keeps its class colour
    assert _near(rgb, (110, 120), box_blue) and _near(rgb, (300, 120), box_blue)
    inside = (203, 115)  # the paper's middle: nothing drawn over the tag
    assert np.array_equal(out[inside[1], inside[0]], frame[inside[1], inside[0]])
    green = annotate_frame(frame, DETS, "OK", tags=tags)[:, :, ::-1]
    assert all(_near(green, p, _bgr_to_rgb(VERDICT_BGR["OK"])) for p in _edge_points(TURNED))


def test_the_outline_travels_through_the_journal_into_the_archive_and_the_exported_report(tmp_path) -> None:
    """A flagged frame recorded by the station: its journal row keeps the corners, and both the archived copy and
    the report drawn from the source (nothing archived) show the outline in the frame's verdict colour."""
    from inference.records import Archive, Journal
    from inference.records.export import export_session
    from inference.records.recorder import Recorder, SessionKey
    from inference.records.synthetic import synthetic_result

    frame = _textured()
    source = tmp_path / "turned.png"
    cv2.imwrite(str(source), frame)
    result = synthetic_result(0, np.random.default_rng(3), flagged=True, image_hw=(240, 320), source_name="turned.png",
                              source_path=str(source), timestamp=1_790_000_000.0)
    result = result.with_(readings=(replace(result.readings[0], paper=TURNED),),
                          verdict=FrameVerdict(Verdict.NG, ("price 199.00 ≠ expected 299.00",),
                                               (Check("price", 0, "299.00", "199.00", 0.95, "ocr", Verdict.NG, "price"),)))
    key = SessionKey(source="line-3", recipe_name="K2291", recipe_path="", model_path="m.onnx",
                     backend="onnxruntime-cpu", precision="fp32")
    for archived in (True, False):
        folder = tmp_path / ("archived" if archived else "from_source")
        with Journal.open(folder / "journal.sqlite3") as journal:
            recorder = Recorder(journal, Archive(folder / "archive") if archived else None)
            recorder.use(key)
            recorder.record(result, frame)
            session = recorder.session_id
            recorder.end()
            row = journal.frames(session)[0]
            assert row.tags[0]["paper"] == [list(p) for p in TURNED]
            report = export_session(journal, session, folder / "out")
        assert bool(row.archive_annotated) is archived
        images = list((report.path / "images").glob("*.jpg"))
        assert len(images) == 1
        shown = cv2.imread(str(images[0]))[:, :, ::-1]
        missing = [p for p in _edge_points(TURNED) if not _reddish_near(shown, p)]
        assert not missing, f"{'archived' if archived else 'drawn'} report image: no red outline near {missing}"
        assert not _reddish_near(shown, (205, 114))  # nothing red inside the paper


# -- the live view -------------------------------------------------------------------------------------------------
def _render(view) -> np.ndarray:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    rect = view.scene().sceneRect()
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_RGB888)
    painter = QPainter(image)
    view.scene().render(painter, QRectF(image.rect()), rect)
    painter.end()
    bits = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).reshape(image.height(), image.bytesPerLine())
    return bits[:, :3 * image.width()].reshape(image.height(), image.width(), 3).copy()


def test_the_live_view_draws_each_tags_paper_in_its_verdict_colour_and_nothing_where_none_was_found(qtbot) -> None:
    from PySide6.QtGui import QColor

    from app.theme import CLASS_COLORS, VERDICT_COLORS
    from app.widgets.image_view import ImageView, tag_papers
    from inference.detections import Detections

    tag = replace(TagReading(0, (110, 10, 300, 220)), paper=TURNED)
    coin = replace(TagReading(1, (10, 150, 60, 200), rejected="no text and no barcode in the box"), paper=((10, 150), (60, 150), (60, 200), (10, 200)))

    class Shown:
        readings = (tag, coin)
        verdict = FrameVerdict(Verdict.REVIEW, ("color uncertain",), (Check("color", 0, "藏青", "藏害", 0.6, "ocr", Verdict.REVIEW),))

    papers = tag_papers(Shown())
    assert [(np.asarray(c).tolist(), v) for c, v in papers] == [([list(p) for p in TURNED], "REVIEW")]  # not the coin's
    view = ImageView()
    qtbot.addWidget(view)
    detections = Detections(np.array([[110, 10, 300, 220]], np.float32), np.array([0.9], np.float32),
                            np.zeros(1, np.int32), ("hangtag",))
    frame = _textured()
    view.show_frame(frame, detections, (), papers)
    shown = _render(view)
    amber = QColor(VERDICT_COLORS["REVIEW"]).getRgb()[:3]
    missing = [p for p in _edge_points(TURNED) if not _near(shown, p, amber, tolerance=10)]
    assert not missing, f"no REVIEW-amber outline pixel near {missing}"
    blue = QColor(CLASS_COLORS["hangtag"]).getRgb()[:3]
    assert _near(shown, (110, 120), blue, tolerance=10)  # the detector's box as before
    view.show_frame(frame, detections)  # a frame whose tag showed no outline
    assert not any(_near(_render(view), p, amber, tolerance=10) for p in _edge_points(TURNED))
