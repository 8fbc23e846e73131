"""Work the reader leaves out must change nothing it reads: lines read on their own read as in their
batch, and a grown read recognizes only the lines its merge with the first read keeps."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from inference.detections import Detections

synth = pytest.importorskip("training.synth", reason="the generator lives in a source checkout, not in a bundle")
cv2 = pytest.importorskip("cv2")

CLASSES = ("hangtag", "barcode", "qr_code")


@functools.lru_cache(maxsize=None)
def reader():
    from inference.reading.reader import TagReader

    return TagReader.open(precision="fp32")


def _card(seed: int) -> tuple[np.ndarray, Detections]:
    tag = synth.render_tag(seed, px_per_mm=6.0, back_side=False)
    return tag.image, Detections(tag.xyxy.astype(np.float64), np.ones(len(tag.xyxy)), tag.class_id, CLASSES)


def _line_crops(image: np.ndarray) -> list[np.ndarray]:
    """Crops of printed lines of many widths, as the reader cuts them."""
    from inference.reading.rectify import make_upright

    h, w = image.shape[:2]
    upright = make_upright(image, (0.0, 0.0, float(w), float(h)), 0.0, margin=0.0)
    boxes = [box for box, _score in reader().detector.detect(upright.image)]
    return [upright.line_crop(b, 32) for b in boxes if b[2] - b[0] >= 4 and b[3] - b[1] >= 4]


def test_lines_read_on_their_own_read_exactly_as_in_their_batch() -> None:
    image, _ = _card(9_500_003)
    crops = _line_crops(image)
    assert len(crops) >= 8
    recognizer = reader().recognizer
    for squeeze in (0.7, 1.0):
        whole = recognizer.recognize(crops, squeeze=squeeze, vocabulary="0123456789号型")
        for only in ([0], [len(crops) - 1], list(range(0, len(crops), 3))):
            some = recognizer.recognize_only(crops, only, squeeze=squeeze, vocabulary="0123456789号型")
            assert sorted(some) == sorted(only)
            for i in only:
                assert some[i].text == whole[i].text
                assert some[i].char_confidences == whole[i].char_confidences  # bit for bit, not nearly
                assert some[i].alternatives == whole[i].alternatives
                assert np.array_equal(some[i].posteriors.probs, whole[i].posteriors.probs)
    assert recognizer.recognize_only(crops, []) == {}


def test_calls_run_side_by_side_read_exactly_as_one_call_at_a_time() -> None:
    from inference.engines.registry import create_engine
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.recognizer import TextRecognizer, split_calls

    assert split_calls([([0, 1, 2, 3, 4], 320), ([5], 96)], 2) == [([0, 1, 2], 320), ([3, 4], 320), ([5], 96)]
    crops = _line_crops(_card(9_500_003)[0])
    model = find_ocr_models("fp32", "gb2312").rec
    one = TextRecognizer(create_engine("onnxruntime-cpu", model, threads=2, varying_shapes=True), calls_at_once=1)
    two = TextRecognizer(create_engine("onnxruntime-cpu", model, threads=1, varying_shapes=True), calls_at_once=2)
    try:
        for squeeze in (0.7, 1.0):
            a = one.recognize(crops, squeeze=squeeze, vocabulary="0123456789号型")
            b = two.recognize(crops, squeeze=squeeze, vocabulary="0123456789号型")
            assert [r.text for r in a] == [r.text for r in b]
            assert [r.char_confidences for r in a] == [r.char_confidences for r in b]  # bit for bit
            assert all(np.array_equal(x.posteriors.probs, y.posteriors.probs) for x, y in zip(a, b))
        assert two._pool is not None  # the calls did run on the pool
    finally:
        one.close()
        two.close()
    assert two._pool is None


def test_lines_used_names_exactly_the_grown_lines_the_merge_keeps() -> None:
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.rectify import make_upright
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces

    frame = np.zeros((400, 400, 3), np.uint8)
    first_up = make_upright(frame, (100.0, 100.0, 300.0, 300.0), 0.0, margin=0.0)
    grown_up = make_upright(frame, (50.0, 20.0, 350.0, 300.0), 0.0, margin=0.0)
    crop = np.zeros((10, 40, 3), np.uint8)
    first = Pieces(((20.0, 60.0, 180.0, 80.0), (20.0, 0.0, 180.0, 18.0)), (crop, crop),
                   (Recognized("品名：风衣", 0.9, (0.9,) * 5), Recognized("MUJ", 0.9, (0.9,) * 3)))
    boxes = ((70.0, 140.0, 230.0, 160.0), (70.0, 60.0, 230.0, 98.0), (0.0, 200.0, 40.0, 215.0))
    grown = Pieces(boxes, (crop,) * 3, tuple(Recognized(str(j), 0.9, (0.9,)) for j in range(3)))
    read = FirstRead(first_up, first)
    used = read.lines_used(boxes, grown_up)
    merged = read.merged_into(grown, grown_up)
    assert used == [1, 2]  # the 品名 line the first crop saw whole is not needed again
    assert sorted(int(r.text) for r in merged.recognized if r.text.isdigit()) == used
    assert read.lines_used(boxes, grown_up.flipped()) == [0, 1, 2]  # turned another way: the grown read is kept whole


def test_a_tag_box_that_cut_the_tag_reads_the_same_as_when_every_grown_line_is_recognized(monkeypatch) -> None:
    """The detector's box cut the card's top: the reader grows the box and reads again, recognizing
    only the lines the merge keeps. With every line of the grown read recognized (as before) the
    tag's reading is the same, line for line."""
    from dataclasses import replace

    from inference.reading.tag_extent import FirstRead

    image, detections = _card(9_500_011)
    tag_box = tuple(float(v) for v in detections.of_class("hangtag").xyxy[0])
    cut = (tag_box[0], tag_box[1] + 0.3 * (tag_box[3] - tag_box[1]), tag_box[2], tag_box[3])
    symbols = [tuple(float(v) for v in b) for b in detections.of_class("barcode").xyxy]
    recognized = []
    real = reader().recognizer.recognize_only

    def counting(crops, only, *args, **kwargs):
        found = real(crops, only, *args, **kwargs)
        recognized.append(len(found))
        return found

    monkeypatch.setattr(reader().recognizer, "recognize_only", counting)
    lean = reader().read_tag(image, cut, symbols)
    lean_lines = sum(recognized)
    recognized.clear()
    monkeypatch.setattr(FirstRead, "lines_used", lambda self, boxes, upright: list(range(len(boxes))))
    full = reader().read_tag(image, cut, symbols)
    assert any("tag box grown" in note for note in lean.notes)
    assert replace(lean, timings_ms={}) == replace(full, timings_ms={})
    assert lean_lines < sum(recognized)
