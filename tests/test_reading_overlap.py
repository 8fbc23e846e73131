"""The reader's CPU stages made faster or run side by side (issue 19) read exactly what they read before."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np
import pytest

from inference.reading import tag_extent
from inference.reading.overlap import GPU_OVERLAP_THREADS, OVERLAP_ENV, OVERLAP_PARTS, overlap_threads_for, parse_setting
from inference.reading.tag_extent import median_over_boxes, paper_sides
from tests.factories import skip_without_tag_scenes, tagset_card


def _median_by_sorting(lab: np.ndarray, boxes) -> np.ndarray:
    """What paper_sides took before: np.median over the boxes' pixels put end to end."""
    return np.median(np.concatenate([lab[y1:y2, x1:x2].reshape(-1, 3) for x1, y1, x2, y2 in boxes]), axis=0)


def _paper_sides_whole_crop(image_bgr: np.ndarray, boxes) -> set[str]:
    """paper_sides as it was: every pixel of the crop compared with the paper's colour, the median by sorting."""
    h, w = image_bgr.shape[:2]
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.int16)
    paper = _median_by_sorting(lab, boxes)
    is_paper = np.abs(lab - paper.astype(np.int16)).sum(axis=2) <= tag_extent.PAPER_DISTANCE
    band_x, band_y = max(2, int(tag_extent.PAPER_BAND_SHARE * w)), max(2, int(tag_extent.PAPER_BAND_SHARE * h))
    share = {"left": is_paper[:, :band_x].mean(), "right": is_paper[:, w - band_x :].mean(),
             "top": is_paper[:band_y].mean(), "bottom": is_paper[h - band_y :].mean()}
    if min(share.values()) > tag_extent.GROUND_EDGE_SHARE:
        return set()
    return {side for side, value in share.items() if value >= tag_extent.PAPER_EDGE_SHARE}


def _random_crop(rng: np.random.Generator, k: int) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    h, w = (int(v) for v in rng.integers(16, 240, 2))
    if k % 3 == 0:  # one colour: every median an exact pixel value
        image = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    else:
        image = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
    if k % 4 == 0:  # a light paper over half the crop, so some sides are paper and some are not
        image[:, : w // 2] = (235, 240, 238)
    boxes = []
    for _ in range(int(rng.integers(3, 9))):
        x1, y1 = int(rng.integers(0, w - 2)), int(rng.integers(0, h - 2))
        boxes.append((x1, y1, int(rng.integers(x1 + 2, w + 1)), int(rng.integers(y1 + 2, h + 1))))
    return image, boxes


def test_the_median_from_histograms_is_numpys_median_over_the_boxes() -> None:
    rng = np.random.default_rng(19)
    for k in range(200):  # odd and even pixel counts, overlapping boxes (a pixel counted once per box)
        image, boxes = _random_crop(rng, k)
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        expected = _median_by_sorting(lab.astype(np.int16), boxes)
        found = median_over_boxes(lab, boxes)
        assert np.array_equal(found, expected), f"crop {k}: expected {expected}, found {found}"


def test_paper_sides_says_what_it_said_when_it_compared_the_whole_crop() -> None:
    rng = np.random.default_rng(20)
    said = set()
    for k in range(200):
        image, boxes = _random_crop(rng, k)
        expected = _paper_sides_whole_crop(image, boxes)
        assert paper_sides(image, boxes) == expected, f"crop {k}"
        said |= expected
    assert said, "the random crops never showed paper at an edge: the comparison proved nothing"


def test_only_a_gpu_reader_asked_to_overlaps_its_stages(monkeypatch) -> None:
    monkeypatch.delenv(OVERLAP_ENV, raising=False)
    assert overlap_threads_for("torch-cuda") == overlap_threads_for("onnxruntime-cuda") == 0
    monkeypatch.setenv(OVERLAP_ENV, str(GPU_OVERLAP_THREADS))
    assert overlap_threads_for("torch-cuda") == overlap_threads_for("onnxruntime-cuda") == GPU_OVERLAP_THREADS
    assert overlap_threads_for("onnxruntime-cpu") == 0
    monkeypatch.setenv(OVERLAP_ENV, "0")
    assert overlap_threads_for("torch-cuda") == 0
    monkeypatch.setenv(OVERLAP_ENV, "two")
    with pytest.raises(ValueError, match="whole number"):
        overlap_threads_for("torch-cuda")


def test_a_benchmark_setting_names_threads_and_parts() -> None:
    assert parse_setting("0") == (0, OVERLAP_PARTS)
    assert parse_setting("8:ahead+decode") == (8, frozenset({"ahead", "decode"}))
    with pytest.raises(ValueError, match="part"):
        parse_setting("8:sideways")


def _cards(designs=("price_sticker", "vertical_classic", "tear_slip")):
    skip_without_tag_scenes()
    return [tagset_card(design, seed, 6.0, ()) for seed, design in enumerate(designs, start=3)]


def _codes(codes) -> list[tuple]:
    return [(c.format, c.text, c.valid_checksum, c.quad, c.orientation) for c in codes]


def test_symbols_decoded_side_by_side_are_the_codes_decoded_one_after_another() -> None:
    from inference.reading.barcodes import decode_symbols

    decoded = 0
    with ThreadPoolExecutor(4) as pool:
        for frame, detections, _recipe in _cards():
            gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            boxes = [tuple(float(v) for v in b) for b, label in zip(detections.xyxy, detections.labels) if label != "hangtag"]
            for turn in (0.0, 90.0):
                for search in ((1.0,), (1.0, 1.5), ()):
                    alone = decode_symbols(gray, boxes, turn, matrix_search=search)
                    assert _codes(decode_symbols(gray, boxes, turn, matrix_search=search, pool=pool)) == _codes(alone)
                    decoded += len(alone)
    assert decoded, "no card's symbols decoded: the comparison proved nothing"


def _reading(readings) -> list[tuple]:
    return [({k: (f.value if f is not None else None) for k, f in r.fields.items()}, [line.text for line in r.ocr_lines],
             [(b.format, b.text) for b in r.barcodes], round(r.rotation, 6), r.notes) for r in readings]


@pytest.fixture(scope="module")
def ocr_models():
    from inference.reading.ocr.models import find_ocr_models

    return find_ocr_models("fp32", "gb2312")


def test_the_gpu_readers_overlapped_stages_read_what_they_read_one_after_another(ocr_models) -> None:
    """The GPU reader's classes on the CPU provider: symbols decoded side by side, the tag warped both ways and its
    lines detected ahead in the crop it is likeliest read in, against the same reader with none of that."""
    from inference.reading.ocr.detector import DbParams
    from inference.reading.ocr.gpu import BucketedTextDetector, BucketedTextRecognizer
    from inference.reading.reader import TagReader

    cards = _cards()
    detector = BucketedTextDetector.open(ocr_models.det, "onnxruntime-cuda", device="cpu", params=DbParams(limit_side=448))
    recognizer = BucketedTextRecognizer.open(ocr_models.rec, "onnxruntime-cuda", device="cpu", warm=[], squeeze=0.7)
    with TagReader(detector, recognizer) as reader:
        alone = [_reading(reader.read(frame, detections)) for frame, detections, _recipe in cards]
        reader.overlap_threads, reader.overlap_parts = parse_setting("4")  # every part, not only the default's
        side_by_side = [_reading(reader.read(frame, detections)) for frame, detections, _recipe in cards]
    assert side_by_side == alone
    assert any(fields for card in alone for fields, *_rest in card), "nothing was read: the comparison proved nothing"
    assert detector.ahead_used >= 1, f"no tag was read in the crop detected ahead ({detector.ahead_runs} detected ahead)"


def test_lines_detected_ahead_are_given_only_for_that_very_crop(ocr_models) -> None:
    from inference.reading.ocr.detector import DbParams
    from inference.reading.ocr.gpu import BucketedTextDetector

    frame = _cards(("vertical_classic",))[0][0]
    detector = BucketedTextDetector.open(ocr_models.det, "onnxruntime-cuda", device="cpu", params=DbParams(limit_side=448))
    with ThreadPoolExecutor(1) as pool:
        detector.detect_ahead(frame, pool)
        fresh = detector.detect(frame.copy())  # equal pixels, another array: detected again
        assert detector.ahead_used == 0
        assert detector.detect(frame) == fresh
    assert (detector.ahead_runs, detector.ahead_used) == (1, 1)
    assert fresh, "no lines found on the card"
    detector.close()


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
