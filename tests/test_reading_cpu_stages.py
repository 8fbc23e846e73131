"""The reader's CPU stages made cheaper (issues 19, 14) give exactly what the loops they replace gave.

Each reference below is the replaced code as it stood, kept here as the definition of the right answer; the new
code runs on real inputs (tagset cards through the shipped OCR models) and on random ones built to reach the edges
(ties, thresholds, classes past the charset)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.ocr.buckets import ctc_from_top
from inference.reading.ocr.detector import DbParams, boxes_from_map
from inference.reading.ocr.recognizer import ALTERNATIVES, MIN_ALTERNATIVE_P, Recognized, collapse
from inference.reading.seals import SEAL_RED, _red_share, _reddish
from tests.factories import skip_without_tag_scenes, tagset_card


def _boxes_from_map_loop(prob, params, sx, sy, size_hw):
    binary = (prob > params.thresh).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=4)
    if n <= 1:
        return []
    sums = np.bincount(labels.ravel(), weights=prob.ravel(), minlength=n)
    out = []
    h, w = size_hw
    for k in range(1, n):
        x, y, bw, bh, area = stats[k]
        if min(bw, bh) < params.min_size:
            continue
        score = sums[k] / area
        if score < params.box_thresh:
            continue
        d = bw * bh * params.unclip_ratio / (2.0 * (bw + bh))
        x1 = max(0.0, (x - d) * sx)
        y1 = max(0.0, (y - d) * sy)
        x2 = min(float(w), (x + bw + d) * sx)
        y2 = min(float(h), (y + bh + d) * sy)
        out.append(((x1, y1, x2, y2), float(score)))
    out.sort(key=lambda item: (item[0][1] + item[0][3]) / 2)
    return out


def _bits(found) -> list:
    """Boxes and scores as the exact doubles (repr keeps every bit, and the sign of a zero)."""
    return [(tuple(repr(float(v)) for v in box), repr(float(score))) for box, score in found]


def _random_map(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    noise = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), float(rng.uniform(1.0, 4.0)))
    noise = (noise - noise.min()) / max(1e-6, float(noise.max() - noise.min()))
    if rng.random() < 0.3:  # regions with equal centres: the sort's order among ties
        noise[:, : w // 3] = noise[:, 2 * w // 3 : 2 * w // 3 + w // 3][:, : w // 3]
    return noise.astype(np.float32)


def test_regions_filtered_as_arrays_are_the_loops_regions_on_random_maps() -> None:
    rng = np.random.default_rng(19)
    regions = 0
    for trial in range(60):
        h, w = (int(v) * 32 for v in rng.integers(1, 15, 2))
        prob = _random_map(rng, h, w)
        params = DbParams(thresh=float(rng.uniform(0.2, 0.7)), box_thresh=float(rng.uniform(0.3, 0.8)), min_size=int(rng.integers(1, 5)))
        sx, sy = float(rng.uniform(0.5, 3.0)), float(rng.uniform(0.5, 3.0))
        size = (int(h * sy) - int(rng.integers(0, 3)), int(w * sx) - int(rng.integers(0, 3)))
        expected = _boxes_from_map_loop(prob, params, sx, sy, size)
        assert _bits(boxes_from_map(prob, params, sx, sy, size)) == _bits(expected), f"map {trial}"
        regions += len(expected)
    assert regions > 100, f"only {regions} regions: the maps did not test the filtering"
    assert boxes_from_map(np.zeros((64, 64), np.float32), DbParams(), 1.0, 1.0, (64, 64)) == []


@pytest.fixture(scope="module")
def ocr_models():
    from inference.reading.ocr.models import find_ocr_models

    return find_ocr_models("fp32", "gb2312")


def test_regions_of_real_tags_are_the_loops_regions(ocr_models) -> None:
    from inference.reading.ocr.detector import TextDetector, prepare

    skip_without_tag_scenes()
    params = DbParams(limit_side=448)
    detector = TextDetector.open(ocr_models.det, params=params)
    regions = 0
    try:
        for seed, design in enumerate(("price_sticker", "vertical_classic", "tear_slip", "hairline_rows"), start=11):
            frame, _detections, _recipe = tagset_card(design, seed, 6.0, ())
            for crop in (frame, cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE)):
                _blob, sx, sy = prepare(crop, params.limit_side)
                prob = detector.probability(crop)
                expected = _boxes_from_map_loop(prob, params, sx, sy, crop.shape[:2])
                assert _bits(boxes_from_map(prob, params, sx, sy, crop.shape[:2])) == _bits(expected), design
                regions += len(expected)
    finally:
        detector.close()
    assert regions > 20, f"only {regions} text regions on four tags: the detector did not run as expected"


def _ctc_from_top_loop(top_p, top_i, charset, steps):
    out = []
    for b, n in enumerate(steps):
        keep, text, confs = collapse(top_i[b, :n, 0], top_p[b, :n, 0], charset)
        aligned = len(text) == len(confs)
        alternatives = _runners_up_loop(top_p[b, :n][keep], top_i[b, :n][keep], charset) if aligned and confs else ()
        out.append(Recognized(text, float(np.mean(confs)) if confs else 0.0, confs if aligned else (), alternatives))
    return out


def _runners_up_loop(top_p, top_i, charset):
    out = []
    for ps, indices in zip(top_p[:, 1 : ALTERNATIVES + 1], top_i[:, 1 : ALTERNATIVES + 1]):
        picked = [charset[int(i)] for p, i in zip(ps, indices) if p >= MIN_ALTERNATIVE_P and 0 < int(i) < len(charset)]
        out.append("".join(c for c in picked if len(c) == 1))
    return tuple(out)


def test_ctc_over_the_whole_batch_is_the_per_line_ctc_at_its_edges() -> None:
    """Classes past the charset (read as nothing: a line's text then shorter than its confidences), charset entries
    of two characters or none (never runners-up), runners-up exactly at MIN_ALTERNATIVE_P in float32 and just under,
    repeated and blank steps, lines of one step and lines with no kept step."""
    rng = np.random.default_rng(14)
    charset = ("", "甲", "乙", "ab", "", "1", "2", " ")
    at = np.float32(MIN_ALTERNATIVE_P)
    edge_ps = np.array([at, np.nextafter(at, np.float32(0)), np.nextafter(at, np.float32(1)), 0.5, 0.0], np.float32)
    checked = 0
    for _ in range(300):
        n, t, k = int(rng.integers(1, 9)), int(rng.integers(1, 30)), ALTERNATIVES + 1
        top_i = rng.integers(0, len(charset) + 3, (n, t, k)).astype(np.int64)
        top_i[:, :, 0] = np.where(rng.random((n, t)) < 0.4, 0, top_i[:, :, 0])
        top_i[:, 1:, 0] = np.where(rng.random((n, t - 1)) < 0.3, top_i[:, :-1, 0], top_i[:, 1:, 0])
        top_p = rng.choice(edge_ps, (n, t, k)).astype(np.float32)
        top_p[:, :, 0] = rng.uniform(0.3, 1.0, (n, t)).astype(np.float32)
        steps = [int(rng.integers(1, t + 1)) for _ in range(n)]
        lines = int(rng.integers(1, n + 1))  # a padded batch: rows past the lines are ignored
        got = ctc_from_top(top_p, top_i, charset, steps[:lines])
        assert got == _ctc_from_top_loop(top_p, top_i, charset, steps[:lines])
        checked += sum(bool(r.alternatives) for r in got)
    assert checked > 100
    assert ctc_from_top(np.zeros((2, 3, 3), np.float32), np.zeros((2, 3, 3), np.int64), charset, []) == []


def _reddish_signed(image: np.ndarray) -> np.ndarray:
    b, g, r = (image[:, :, k].astype(np.int16) for k in range(3))
    lift = r - np.maximum(g, b)
    return (lift > SEAL_RED) & (2 * np.abs(g - b) < lift)


def test_red_ink_in_saturating_arithmetic_is_red_ink_in_signed_arithmetic_for_every_colour() -> None:
    """All 2^24 colours, once each: the uint8 version decides every one as the int16 version did."""
    values = np.arange(1 << 24, dtype=np.uint32)
    every = np.stack([values & 255, (values >> 8) & 255, values >> 16], axis=1).astype(np.uint8).reshape(4096, 4096, 3)
    expected = _reddish_signed(every)
    assert 0 < int(expected.sum()) < expected.size
    assert np.array_equal(_reddish(every), expected)


def test_seal_areas_share_of_red_is_the_mean_of_the_mask() -> None:
    rng = np.random.default_rng(5)
    for _ in range(200):
        mask = (rng.random((int(rng.integers(1, 90)), int(rng.integers(1, 90)))) < rng.random()).astype(np.uint8)
        assert _red_share(mask) == mask.mean()


def _orientation_loop(gray, barcode_boxes, bars_down_angle, turn_from_down_angle, min_strength):
    best = None
    for x1, y1, x2, y2 in barcode_boxes:
        patch = gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1]
        if patch.size < 64:
            continue
        down, strength = bars_down_angle(patch)
        if strength >= min_strength and (best is None or patch.size > best[1]):
            best = (down, patch.size)
    return None if best is None else turn_from_down_angle(best[0])


def test_the_angle_from_the_largest_strong_bars_is_the_loops_and_measures_fewer_patches(monkeypatch) -> None:
    """Each patch's (angle, strength) is measured once and looked up after, so the test compares which patch
    sets the angle: boxes over bars, text and paper of real cards, in random orders and sizes, ties included."""
    from inference.reading import symbols
    from inference.reading.rectify import bars_down_angle, turn_from_down_angle

    skip_without_tag_scenes()
    measured: dict = {}
    calls = []

    def looked_up(patch):
        key = (patch.__array_interface__["data"][0], patch.shape, patch.strides)
        calls.append(key)
        if key not in measured:
            measured[key] = bars_down_angle(patch)
        return measured[key]

    monkeypatch.setattr(symbols, "bars_down_angle", looked_up)
    rng = np.random.default_rng(23)
    saved = compared = 0
    for seed, design in enumerate(("price_sticker", "vertical_classic", "tear_slip", "hairline_rows"), start=31):
        frame, detections, _recipe = tagset_card(design, seed, 6.0, ())
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        symbol_boxes = [tuple(float(v) for v in b) for b, label in zip(detections.xyxy, detections.labels) if label != "hangtag"]
        h, w = gray.shape
        for _ in range(40):
            boxes = list(symbol_boxes)
            for _k in range(int(rng.integers(0, 4))):  # other patches: text, paper, slivers, a copy (a tie)
                if boxes and rng.random() < 0.3:
                    boxes.append(boxes[int(rng.integers(len(boxes)))])
                    continue
                x1, y1 = float(rng.uniform(0, w - 20)), float(rng.uniform(0, h - 20))
                boxes.append((x1, y1, x1 + float(rng.uniform(2, w / 2)), y1 + float(rng.uniform(2, h / 3))))
            boxes = [boxes[i] for i in rng.permutation(len(boxes))]
            calls.clear()
            expected = _orientation_loop(gray, boxes, looked_up, turn_from_down_angle, symbols.MIN_BAR_STRENGTH)
            loop_calls = len(calls)
            calls.clear()
            turn, sure, _codes = symbols._orientation(gray, boxes, [])
            if expected is not None:
                assert (turn, sure) == (expected, False)
                compared += 1
                saved += loop_calls - len(calls)
    assert compared > 100 and saved > 0, f"{compared} angles compared, {saved} measurements saved"
