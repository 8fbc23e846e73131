"""The reader's small parts, each against hand-made inputs: batching, CTC, rows, turns, models."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from inference.errors import ModelError
from inference.reading.lines import group_rows, merge_overlapping, symbol_zone, trim_to_neighbours
from inference.reading.ocr.models import find_ocr_models, valid_int8
from inference.reading.ocr.recognizer import Recognized, ctc_greedy, plan_batches, prepare_batch
from inference.reading.rectify import make_upright, turn_from_down_angle


@pytest.mark.parametrize(
    ("widths", "overhead", "batches"),
    [
        ([100, 100, 100], 96, [[0, 1, 2]]),
        ([40, 600], 96, [[0], [1]]),
        ([600, 40, 48, 590], 96, [[1, 2], [3, 0]]),
        ([300, 310, 320], 0, [[0], [1], [2]]),
        ([], 96, []),
    ],
)
def test_batches_trade_padding_against_calls(widths: list[int], overhead: int, batches: list[list[int]]) -> None:
    assert plan_batches(widths, overhead) == batches


def test_every_line_is_in_exactly_one_batch() -> None:
    widths = list(np.random.default_rng(1).integers(16, 900, 40))
    planned = plan_batches(widths, 96, max_batch=8)
    assert sorted(i for b in planned for i in b) == list(range(40))
    assert max(len(b) for b in planned) <= 8


def test_prepare_batch_keeps_height_48_and_squeezes_width() -> None:
    crops = [np.full((20, 100, 3), 255, np.uint8), np.zeros((24, 48, 3), np.uint8)]
    batch, widths = prepare_batch(crops, squeeze=0.5)
    assert batch.shape == (2, 3, 48, 120) and widths == [120, 48]
    assert batch[0, :, :, :120].max() == pytest.approx(1.0) and batch[1, :, :, :48].min() == pytest.approx(-1.0)
    assert (batch[1, :, :, 48:] == 0).all()


def test_ctc_greedy_merges_repeats_drops_blanks_and_stops_at_the_line_end() -> None:
    charset = ("", "A", "B", " ")
    steps = [1, 1, 0, 1, 2, 2, 0, 3, 1, 1]  # A A _ A B B _ ' ' A | A (padding)
    probs = np.full((1, len(steps), 4), 0.01, np.float32)
    for t, k in enumerate(steps):
        probs[0, t, k] = 0.9 if t != 4 else 0.6
    (result,) = ctc_greedy(probs, charset, [9])
    assert result.text == "AAB A"
    assert result.char_confidences == pytest.approx((0.9, 0.9, 0.6, 0.9, 0.9))
    assert result.confidence == pytest.approx(np.mean([0.9, 0.9, 0.6, 0.9, 0.9]))


@pytest.mark.parametrize(
    ("boxes", "rows"),
    [
        ([(0, 0, 50, 20), (60, 2, 120, 21), (0, 30, 80, 50)], [[0, 1], [2]]),
        ([(0, 0, 50, 20), (300, 0, 350, 20)], [[0], [1]]),  # too far apart: two columns
        ([(0, 0, 100, 20), (5, 12, 105, 32)], [[0], [1]]),  # slanted next line overlaps sideways
        ([(0, 0, 100, 20), (110, 5, 160, 13)], [[1], [0]]),  # a much smaller line beside is not this row
    ],
)
def test_rows(boxes, rows) -> None:
    assert group_rows(boxes) == rows


def test_split_brand_pieces_merge_but_touching_lines_do_not() -> None:
    assert merge_overlapping([(148, 91, 197, 134), (128, 102, 163, 126)]) == [(128, 91, 197, 134)]
    lines = [(0, 0, 100, 22), (0, 18, 100, 40)]
    assert merge_overlapping(lines) == lines


def test_symbol_zone_covers_the_digits_under_the_bars() -> None:
    zone = symbol_zone((100, 100, 200, 150), "ean")
    assert zone.text[3] >= 150 + 15 and zone.text[0] < 100 and zone.text[2] > 200


def test_a_loose_barcode_box_does_not_swallow_the_lines_beside_the_symbols() -> None:
    """A detector box drawn around a turned barcode is loose: it reaches the lines above the bars and
    holds the QR code beside them. The bars keep their own columns and a bounded height, and the QR
    code is its own four corners (a tag lost its grade line, read fine, under such a box)."""
    from inference.reading.barcodes import DecodedCode
    from inference.reading.levelling import symbol_zones
    from inference.reading.rectify import Upright

    upright = Upright(np.zeros((600, 400, 3), np.uint8), np.array([[1.0, 0, 0], [0, 1.0, 0]]), 0.0)
    ean = DecodedCode("EAN-13", "6978789542407", True, ((100, 440), (300, 440), (300, 460), (100, 460)), 0)
    qr = DecodedCode("QRCode", "https://x.cn/q", None, ((320, 300), (380, 300), (380, 360), (320, 360)), 0)
    loose = (20.0, 250.0, 390.0, 590.0)  # holds both symbols' centres and the grade line's
    bars, matrix = symbol_zones([ean, qr], upright, [loose])
    assert bars.bars[0] == 100 and bars.bars[2] == 300  # zxing's columns
    assert bars.bars[1] == pytest.approx(450 - 0.45 * 200) and bars.bars[3] == pytest.approx(450 + 0.45 * 200)
    assert matrix.bars == pytest.approx((317, 297, 383, 363))  # the quad and its 5 % margin, no more
    grade_line_centre = (90.0, 330.0)  # '等级：一等品' left of the QR code, above the bars
    for zone in (bars, matrix):
        for area in (zone.bars, zone.text):
            if area is not None:
                assert not (area[0] <= grade_line_centre[0] <= area[2] and area[1] <= grade_line_centre[1] <= area[3])


@pytest.mark.parametrize(("down", "turn"), [(90, 0), (0, -90), (180, 90), (-90, 180), (81, -9), (91.5, 0), (-178.5, 90)])
def test_turn_from_down_angle(down: float, turn: float) -> None:
    assert (turn_from_down_angle(down) - turn + 180) % 360 - 180 == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("turn", [0.0, 90.0, -90.0, 180.0, 23.0])
def test_upright_boxes_map_back_to_the_frame(turn: float) -> None:
    image = np.zeros((300, 400, 3), np.uint8)
    upright = make_upright(image, (50, 60, 350, 260), turn)
    h, w = upright.image.shape[:2]
    centre = upright.to_image_box((w / 2 - 1, h / 2 - 1, w / 2 + 1, h / 2 + 1))
    assert (centre[0] + centre[2]) / 2 == pytest.approx(200, abs=1.5)
    assert (centre[1] + centre[3]) / 2 == pytest.approx(160, abs=1.5)
    flipped = upright.flipped()
    assert flipped.angle_deg % 360 == pytest.approx((turn + 180) % 360)
    np.testing.assert_array_equal(flipped.image, upright.image[::-1, ::-1])
    point = np.array([[120.0, 80.0]])
    a = upright.to_upright_points(point)[0]
    b = flipped.to_upright_points(point)[0]
    assert b == pytest.approx([w - a[0], h - a[1]])


def test_quarter_turns_do_not_resample() -> None:
    image = np.random.default_rng(0).integers(0, 255, (101, 77, 3)).astype(np.uint8)
    upright = make_upright(image, (0, 0, 77, 101), 90.0, margin=0.0)
    np.testing.assert_array_equal(upright.image, np.rot90(image, 1))


def test_int8_models_must_be_built_from_these_exact_files(tmp_path) -> None:
    with pytest.raises(ModelError, match="INT8 OCR models have not been built") as info:
        find_ocr_models("int8", "full", tmp_path)
    assert "python -m inference.reading.ocr.quantize" in info.value.hint
    models = find_ocr_models("auto", "full", tmp_path)
    assert (models.det_precision, models.rec_precision) == ("fp32", "fp32")
    fake = tmp_path / f"{models.det.stem}.int8.onnx"
    fake.write_bytes(b"not really")
    fake.with_suffix(".json").write_text(json.dumps({"source_sha256": "0" * 64}))
    assert valid_int8(models.det, tmp_path) is None


def test_recognized_is_a_plain_value() -> None:
    assert Recognized("A", 0.5, (0.5,)) == Recognized("A", 0.5, (0.5,))


def test_crops_stop_half_way_to_the_next_line() -> None:
    lines = [(0, 0, 100, 26), (0, 14, 100, 40), (200, 14, 260, 40)]
    trimmed = trim_to_neighbours(lines)
    assert trimmed[0] == (0, 0, 100, 20) and trimmed[1] == (0, 20, 100, 40)
    assert trimmed[2] == (200, 14, 260, 40)  # nothing above or below it


def test_ctc_keeps_likely_runners_up_for_the_lexicon() -> None:
    charset = ("", "A", "B", "C", " ")
    probs = np.full((1, 3, 5), 0.01, np.float32)
    probs[0, 0, 1], probs[0, 0, 2] = 0.6, 0.35  # A, runner-up B
    probs[0, 1, 0] = 0.96  # blank
    probs[0, 2, 3] = 0.96  # C, nothing close
    (result,) = ctc_greedy(probs, charset, [3])
    assert result.text == "AC" and result.alternatives == ("B", "")


def _shipped_folder(tmp_path: Path) -> Path:
    import json

    folder = tmp_path / "ocr"
    folder.mkdir()
    (folder / "det.int8.onnx").write_bytes(b"det")
    (folder / "rec.w16.onnx").write_bytes(b"rec")
    (folder / "manifest.json").write_text(json.dumps({
        "version": "PP-OCRv6 small",
        "det": {"file": "det.int8.onnx", "precision": "int8"},
        "rec": {"file": "rec.w16.onnx", "precision": "fp32", "charset": "gb2312"}}), encoding="utf-8")
    return folder


def test_a_bundle_s_prepared_ocr_models_are_used_for_the_default_request(tmp_path, monkeypatch):
    import inference.resources
    from inference.reading.ocr import models as ocr_models

    folder = _shipped_folder(tmp_path)
    monkeypatch.setattr(inference.resources, "resource_path", lambda *parts: tmp_path.joinpath(*parts))
    found = ocr_models.find_ocr_models("auto", "gb2312")
    assert (found.det, found.rec) == (folder / "det.int8.onnx", folder / "rec.w16.onnx")
    assert (found.det_precision, found.rec_precision, found.charset) == ("int8", "fp32", "gb2312")
    assert ocr_models.find_ocr_models("int8-det", "gb2312") == found
    real_find_spec = ocr_models.importlib.util.find_spec
    monkeypatch.setattr(ocr_models.importlib.util, "find_spec",
                        lambda name, *a: None if name == "rapidocr" else real_find_spec(name, *a))
    with pytest.raises(ModelError) as caught:  # a bundle has nothing else to offer
        ocr_models.find_ocr_models("int8", "gb2312")
    assert "ships only the default OCR models" in str(caught.value) and "precision auto or int8-det" in str(caught.value)


def test_a_damaged_shipped_ocr_folder_says_what_is_wrong(tmp_path):
    from inference.reading.ocr.models import shipped_models

    assert shipped_models(tmp_path) is None  # no manifest: not a bundle
    folder = _shipped_folder(tmp_path)
    (folder / "rec.w16.onnx").unlink()
    with pytest.raises(ModelError, match="shipped OCR models are missing"):
        shipped_models(folder)
    (folder / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError, match="manifest is unreadable"):
        shipped_models(folder)


def test_a_box_over_two_printed_lines_is_cut_between_them_and_a_big_line_is_not():
    import numpy as np

    from inference.reading.lines import split_tall

    gray = np.full((240, 300), 255, np.uint8)
    for top in (20, 50, 80, 110, 140):  # five 14-px lines of "ink", 16 px apart
        gray[top : top + 14, 20:280] = 30
    gray[180:220, 20:200] = 30  # one big 40-px line (a price printed large)
    boxes = [(15.0, 17.0, 285.0, 37.0), (15.0, 47.0, 285.0, 97.0), (15.0, 107.0, 285.0, 127.0),
             (15.0, 137.0, 285.0, 157.0), (15.0, 177.0, 205.0, 223.0)]
    out = split_tall(boxes, gray)
    assert len(out) == 6
    cut = out[1][3]
    assert 64 <= cut <= 80 and out[2][1] == cut  # between the lines at 50-64 and 80-94
    assert (15.0, 177.0, 205.0, 223.0) in out


def test_a_big_line_with_a_wide_margin_is_not_cut_into_a_sliver_of_paper() -> None:
    """DB's margin grows with the type: a size printed large gets a box with paper rows above its ink deeper
    than the typical line's margin. The cut must part two printed lines, never paper from its own line
    (set 5150 frame 000065: '180/100A' lost as a 7-px sliver read as nothing plus a line cut at the crop's edge)."""
    import numpy as np

    from inference.reading.lines import split_tall

    gray = np.full((260, 300), 255, np.uint8)
    for top in (20, 50, 80, 110):  # four 14-px lines
        gray[top : top + 14, 20:280] = 30
    gray[164:204, 20:200] = 30  # a 40-px line of big type, with 16 px of paper in its box above and below
    boxes = [(15.0, 17.0, 285.0, 37.0), (15.0, 47.0, 285.0, 67.0), (15.0, 77.0, 285.0, 97.0),
             (15.0, 107.0, 285.0, 127.0), (15.0, 148.0, 205.0, 220.0)]
    assert split_tall(boxes, gray) == boxes


@pytest.mark.parametrize(
    "text, code_like",
    [("6 920669 139542", True), ("KX-92917", True), ("||| ll1", True), ("吊牌价：￥2999元", False), ("¥329.00", False),
     ("RMB 79.00", False), ("1299.00", False)],
)
def test_text_a_symbol_carries_is_told_from_words_and_prices(text: str, code_like: bool) -> None:
    from inference.reading.text_lines import _code_like

    assert _code_like(text) is code_like


@pytest.mark.parametrize("read", ["CB/T 22849-2014", "GR/T 22849-2014", "G8/T 22849-2014", "GB/T22849—2014"])
def test_standard_prefix_slips_are_mended(read: str) -> None:
    from inference.reading.normalize import normalize_standard

    assert normalize_standard(read) == "GB/T 22849-2014"


def _line(label_scale: float, value_scale: float, dark_tag: bool = False) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    import cv2

    paper, ink = (30, 255) if dark_tag else (235, 20)
    image = np.full((60, 420), paper, np.uint8)
    cv2.putText(image, "LABEL", (10, 45), cv2.FONT_HERSHEY_SIMPLEX, label_scale, ink, 2, cv2.LINE_AA)
    cv2.putText(image, "GB 18401-2010 B", (170, 45), cv2.FONT_HERSHEY_SIMPLEX, value_scale, ink, 1, cv2.LINE_AA)
    return image, (2.0, 8.0, 410.0, 56.0)


@pytest.mark.parametrize("dark_tag", [False, True])
def test_small_print_beside_large_print_is_cropped_to_its_own_ink(dark_tag: bool) -> None:
    from inference.reading.lines import split_print_sizes

    image, box = _line(1.2, 0.45, dark_tag)
    pieces = split_print_sizes([box], image)
    assert len(pieces) == 2
    (label_line, label_crop), (value_line, value_crop) = pieces
    assert label_line[1] == value_line[1] == box[1] and label_line[3] == value_line[3] == box[3]  # still one row
    assert label_line[2] <= value_line[0]  # label left of the value
    assert value_crop[3] - value_crop[1] < 0.6 * (label_crop[3] - label_crop[1])  # the small print's crop is tight
    assert value_crop[1] >= box[1] and value_crop[3] <= box[3]


def test_a_line_in_one_size_of_print_stays_whole() -> None:
    from inference.reading.lines import split_print_sizes

    image, box = _line(0.9, 0.9)
    assert split_print_sizes([box], image) == [(box, box)]


def test_a_lone_flat_glyph_is_not_small_print() -> None:
    """一等品: the stroke of 一 is short ink beside tall glyphs, not a value in small type."""
    import cv2

    from inference.reading.lines import split_print_sizes

    image = np.full((60, 420), 235, np.uint8)
    cv2.rectangle(image, (12, 30), (40, 33), 20, -1)  # 一
    cv2.putText(image, "LABEL TEXT", (55, 45), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 20, 2, cv2.LINE_AA)
    box = (2.0, 8.0, 410.0, 56.0)
    assert split_print_sizes([box], image) == [(box, box)]


@pytest.mark.parametrize(
    "text, kind, carries, carried",
    [("6 937065 917667", "ean", "6937065917667", True),  # the EAN's caption
     ("937O65", "ean", "6937065917667", True),  # part of it, misread
     ("|| lI1", "ean", "6937065917667", True),  # bars read as slivers
     ("185/104B", "ean", "6937065917667", False),  # a boxed size beside the bars, inside a loose symbol box
     ("M", "ean", "6937065917667", False),
     ("QL85975O51", "code", "QL85975051", True),  # a Code 128 caption
     ("KX-09598A", "code", "QL85975051", False),
     ("吊牌价 ¥399.00", "code", "QL85975051", False),
     ("anything", "matrix", "https://x.cn/q/1", True)],
)
def test_a_line_over_a_symbol_is_dropped_only_when_it_is_what_the_symbol_carries(text: str, kind: str, carries: str, carried: bool) -> None:
    from inference.reading import text_lines

    assert text_lines.carried(text, symbol_zone((0, 0, 100, 40), kind, carries=carries)) is carried


def _first_and_grown():
    """Two uprights of one frame: the detector's box (100..300 square) and the box grown from it (50..350 x 20..300)."""
    from inference.reading.rectify import make_upright

    frame = np.zeros((400, 400, 3), np.uint8)
    return (make_upright(frame, (100.0, 100.0, 300.0, 300.0), 0.0, margin=0.0),
            make_upright(frame, (50.0, 20.0, 350.0, 300.0), 0.0, margin=0.0))


def rec(text: str, confidence: float = 0.9):
    from inference.reading.ocr.recognizer import Recognized

    return Recognized(text, confidence, (confidence,) * len(text))


def test_a_grown_read_keeps_the_first_reads_lines_and_adds_only_what_reaches_past_the_first_crop() -> None:
    """The detector's box cut the tag: lines ran into the crop's top edge, so the box was grown. The
    grown crop shows the tag smaller and takes in what lies around it; its read of lines the first
    crop saw whole must not replace the first read's."""
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces

    first_up, grown_up = _first_and_grown()
    crop = np.zeros((10, 40, 3), np.uint8)

    first = Pieces(((20.0, 60.0, 180.0, 80.0),   # 品名 whole, inside the first crop
                    (20.0, 0.0, 180.0, 18.0)),   # the brand, cut by the crop's top edge
                   (crop, crop), (rec("品名：风衣"), rec("MUJ")))
    # the grown crop's pixels are the frame's shifted by (-50, -20): the same 品名 line misread, the whole
    # brand, and a line of another paper beside the tag
    grown = Pieces(((70.0, 140.0, 230.0, 160.0), (70.0, 60.0, 230.0, 98.0), (0.0, 200.0, 40.0, 215.0)),
                   (crop, crop, crop), (rec("品名风"), rec("MUJIAN"), rec("下午三点")))
    merged = FirstRead(first_up, first).merged_into(grown, grown_up)
    texts = [r.text for r in merged.recognized]
    assert sorted(texts) == sorted(["品名：风衣", "MUJIAN", "下午三点"])
    # the first read's line comes back in the grown crop's pixels
    assert merged.boxes[texts.index("品名：风衣")] == pytest.approx((70.0, 140.0, 230.0, 160.0))


def test_a_grown_read_turned_by_print_round_the_tag_does_not_replace_the_tags_own_read() -> None:
    """A small tag lying on printed receipts: the grown crop took in the receipts, levelled by their lines a
    third of a turn from the tag's, and read them far more surely than the tag's small print. Which read is
    right is asked of the lines on the first crop's ground only: the receipts' sure lines beside it do not
    make the tag's own read lose (set 5150 000030, a logo_face tag read as '快递单号', '总计：36件')."""
    import cv2

    from inference.reading.rectify import make_upright
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces

    frame = np.zeros((600, 600, 3), np.uint8)
    first_up = make_upright(frame, (250.0, 250.0, 350.0, 350.0), 0.0, margin=0.0)
    grown_up = make_upright(frame, (50.0, 50.0, 550.0, 550.0), 33.0, margin=0.0)
    crop = np.zeros((10, 40, 3), np.uint8)
    first = Pieces(((10.0, 30.0, 90.0, 40.0), (10.0, 50.0, 90.0, 60.0)), (crop, crop),
                   (rec("政式编网 05081-01", 0.55), rec("一等品", 0.6)))
    read = FirstRead(first_up, first, frozenset({"left"}))
    # the first crop's corners in the grown crop: the receipts' lines lie outside them
    corners = np.array([[0.0, 0.0, 1.0], [100.0, 0.0, 1.0], [100.0, 100.0, 1.0], [0.0, 100.0, 1.0]])
    in_frame = corners @ cv2.invertAffineTransform(first_up.matrix).T
    in_grown = np.hstack([in_frame, np.ones((4, 1))]) @ grown_up.matrix.T
    (x1, y1), (x2, y2) = in_grown.min(axis=0), in_grown.max(axis=0)
    h, w = grown_up.image.shape[:2]
    receipt = [(2.0, 2.0, 60.0, 14.0), (w - 62.0, h - 16.0, w - 2.0, h - 4.0)]
    assert all(not (x1 <= (b[0] + b[2]) / 2 <= x2 and y1 <= (b[1] + b[3]) / 2 <= y2) for b in receipt)
    grown = Pieces(tuple(receipt), (crop, crop), (rec("快递单号", 0.99), rec("总计：36件", 0.99)))
    merged = read.merged_into(grown, grown_up)
    texts = [r.text for r in merged.recognized]
    assert "政式编网 05081-01" in texts and "一等品" in texts


def test_a_line_the_first_read_found_nothing_in_does_not_hide_the_grown_reads_line() -> None:
    """A box of the first read that holds only paper (read as nothing) lies over a line the grown read
    sees whole: the grown read's line is kept (set 5150 frame 000065, a size printed large)."""
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import UNREAD, Pieces

    first_up, grown_up = _first_and_grown()
    crop = np.zeros((10, 40, 3), np.uint8)
    sliver = (30.0, 20.0, 150.0, 27.0)  # paper above the big line's ink, inside the first crop
    first = Pieces((sliver,), (crop,), (Recognized("", 0.0, ()),))
    grown = Pieces(((70.0, 100.0, 230.0, 140.0),), (crop,), (UNREAD,))
    read = FirstRead(first_up, first)
    assert read.lines_used(grown.boxes, grown_up) == [0]


def test_a_line_by_a_cut_edge_the_grown_read_shows_nothing_over_stays() -> None:
    """The grown box, clipped at the frame's edge, showed less of the tag's foot than the first crop did: the
    first read's last row (by the edge it grew towards) has no grown line over it, and is kept (set 5152 000071)."""
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces

    first_up, grown_up = _first_and_grown()
    crop = np.zeros((10, 40, 3), np.uint8)

    first = Pieces(((20.0, 60.0, 180.0, 80.0), (20.0, 185.0, 120.0, 199.0)), (crop, crop), (rec("品名：风衣"), rec("等级：合格品")))
    grown = Pieces(((70.0, 140.0, 230.0, 160.0),), (crop,), (rec("品名：风衣"),))
    merged = FirstRead(first_up, first, frozenset({"bottom"})).merged_into(grown, grown_up)
    assert sorted(r.text for r in merged.recognized) == ["品名：风衣", "等级：合格品"]


def test_a_row_whose_left_column_the_first_crop_cut_is_taken_whole_from_the_grown_read() -> None:
    """Two columns of one row: the first crop cut the left one (`安全类别：…` ran into its edge) and saw the right
    one whole (`零售价：…`); the grown read boxes the row as one line. That line replaces the first read's
    price line, or the safety class is lost (set 5150 frame 000031)."""
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces

    first_up, grown_up = _first_and_grown()
    crop = np.zeros((10, 40, 3), np.uint8)

    first = Pieces(((0.0, 100.0, 90.0, 120.0), (100.0, 100.0, 180.0, 120.0)), (crop, crop),
                   (rec("类别：GB 18401"), rec("零售价：¥259.00")))
    # grown pixels = frame - (50, 20): the first crop's x 0..200 is 50..250 here, and the row starts where it did
    grown = Pieces(((50.0, 180.0, 230.0, 200.0),), (crop,), (rec("安全类别：GB 18401-2010 B类 零售价：¥259.00"),))
    merged = FirstRead(first_up, first).merged_into(grown, grown_up)
    assert [r.text for r in merged.recognized] == ["安全类别：GB 18401-2010 B类 零售价：¥259.00"]


@pytest.mark.parametrize("grown_conf, grown_whole", [(0.95, True), (0.5, False)])
def test_of_two_reads_turned_apart_the_surer_one_stands(grown_conf: float, grown_whole: bool) -> None:
    """Reads levelled apart (here half a turn): one of them is wrong. The grown read reading more surely is kept
    whole; reading less surely (a crop levelled wrong sets its lines aslant), the first read's lines stand and the
    grown read only adds what they do not cover (set 5150 frame 000012: levelled 5.5 degrees apart, the grown
    read glued the colour and composition rows)."""
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.tag_extent import FirstRead
    from inference.reading.text_lines import Pieces
    from inference.reading.rectify import make_upright

    frame = np.zeros((400, 400, 3), np.uint8)
    first_up = make_upright(frame, (100.0, 100.0, 300.0, 300.0), 0.0, margin=0.0)
    crop = np.zeros((10, 40, 3), np.uint8)
    first = Pieces(((20.0, 60.0, 180.0, 80.0),), (crop,), (Recognized("品名：风衣", 0.9, (0.9,) * 5),))
    half_turned = make_upright(frame, (50.0, 20.0, 350.0, 300.0), 0.0, margin=0.0).flipped()
    grown = Pieces(((70.0, 120.0, 230.0, 140.0), (10.0, 10.0, 60.0, 30.0)), (crop, crop),
                   (Recognized("品名：风衣", grown_conf, (grown_conf,) * 5), Recognized("KOVA", grown_conf, (grown_conf,) * 4)))
    merged = FirstRead(first_up, first).merged_into(grown, half_turned)
    if grown_whole:
        assert merged is grown
    else:
        assert sorted(r.text for r in merged.recognized) == ["KOVA", "品名：风衣"]
        assert next(r for r in merged.recognized if r.text == "品名：风衣").confidence == 0.9


@pytest.mark.parametrize(
    "text, fields",
    [
        # the size itself unread: the line below, a label of its own, is not the size
        ("规格：\n面料：粘纤100%\n执行标准：FZ/T 73005-2021", {"composition": "粘纤 100%", "standard": "FZ/T 73005-2021"}),
        ("号型：\n保养方法：手洗\n等级：合格品", {"grade": "合格品"}),
        ("号型：\nXS\n等级：合格品", {"size": "XS", "grade": "合格品"}),  # a value alone on the next line is taken
    ],
)
def test_a_label_alone_takes_the_next_line_only_when_that_line_is_not_labelled_itself(text: str, fields: dict[str, str]) -> None:
    from inference.reading.fields import extract_fields, lines_from_text
    from inference.reading.normalize import field_key

    found = {name: reading.value for name, reading in extract_fields(lines_from_text(text)).items()}
    assert {k: field_key(k, v) for k, v in found.items()} == {k: field_key(k, v) for k, v in fields.items()}


def test_a_box_that_cannot_hold_a_whole_turned_tag_is_read_whole_not_as_a_strip() -> None:
    """The detector's box cut a tag turned 30 degrees across its top: the rectangle whose bounds it
    would be is an 11:1 strip, no hangtag's shape. The upright crop then keeps the whole box."""
    from inference.reading.rectify import MAX_TAG_ASPECT, tag_size

    w, h = tag_size(704.0, 465.0, -27.0)
    assert max(w, h) <= MAX_TAG_ASPECT * min(w, h)
    assert h > 400  # the box's whole height, turned, not the 71 px a strip fit gives
    # a box that is the bounds of a turned 60 x 90 tag still gets the tag's own size back
    import math

    t = math.radians(20.0)
    bw, bh = 60 * math.cos(t) + 90 * math.sin(t), 60 * math.sin(t) + 90 * math.cos(t)
    assert tag_size(bw, bh, 20.0) == pytest.approx((60.0, 90.0), abs=1e-6)


def _tilted_text_over_level_bars(tilt_deg: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A tag under perspective: eight printed lines tilted `tilt_deg`, and under them a stacked
    code whose rows stand level and outweigh the text's ink."""
    import cv2

    gray = np.full((600, 400), 235, np.uint8)
    text = np.full((300, 400), 235, np.uint8)
    for row in range(8):
        cv2.putText(text, "STYLE NO. KX-2207 SIZE 175/96A", (20, 36 + row * 32), cv2.FONT_HERSHEY_PLAIN, 1.0, 40, 1)
    turn = cv2.getRotationMatrix2D((200.0, 150.0), tilt_deg, 1.0)
    gray[20:320] = cv2.warpAffine(text, turn, (400, 300), borderValue=235)
    symbol = (30.0, 340.0, 370.0, 590.0)  # a stacked code (PDF417-like): ten level rows of bars
    rng = np.random.default_rng(7)
    for top in range(340, 590, 25):
        x = 30
        while x < 366:
            width = int(rng.integers(2, 7))
            gray[top : top + 20, x : x + width] = 20
            x += width + int(rng.integers(2, 5))
    return gray, symbol


def test_printed_lines_are_levelled_by_the_text_not_by_the_level_symbol_under_them() -> None:
    from inference.reading.rectify import residual_skew

    gray, bars = _tilted_text_over_level_bars(3.0)
    with_bars, _ = residual_skew(gray)
    skew, gain = residual_skew(gray, exclude=[bars])
    assert abs(with_bars) < 1.0  # the symbol's ink says "level"
    assert 2.0 <= abs(skew) <= 4.0 and gain > 1.05  # the lines themselves are 3° off
    level_gray, level_bars = _tilted_text_over_level_bars(0.0)
    assert abs(residual_skew(level_gray, exclude=[level_bars])[0]) < 1.0


def test_lines_laid_down_from_standing_are_levelled_again_from_the_frame() -> None:
    """A code printed up a tag's side turns the crop so that its lines stand; the first levelling
    measures across rows and cannot see their tilt. Once turned a quarter to lie, they are levelled
    again: cut anew from the frame, and a symbol zone moves with them to the same frame pixels."""
    import cv2

    from inference.reading.lines import SymbolZone
    from inference.reading.rectify import make_upright, residual_skew
    from inference.reading.text_lines import _level_lying

    lying, bars = _tilted_text_over_level_bars(4.0)
    frame = cv2.cvtColor(np.ascontiguousarray(np.rot90(lying, 1)), cv2.COLOR_GRAY2BGR)  # the lines stand
    standing = make_upright(frame, (0.0, 0.0, float(frame.shape[1]), float(frame.shape[0])), 0.0, margin=0.0)
    laid = standing.quarter_turned()
    assert np.array_equal(laid.image[..., 0], lying)  # a quarter back: the lying tag, its bars where they were
    tilt, _gain = residual_skew(lying, exclude=[bars])
    assert abs(tilt) >= 3.0  # laid down, the lines show the tilt the first levelling missed
    zone = SymbolZone(bars, None, "code")
    level, (moved,) = _level_lying(laid, [zone])
    assert level is not laid and abs(level.angle_deg - (laid.angle_deg + tilt)) < 1e-6
    again, _gain = residual_skew(cv2.cvtColor(level.image, cv2.COLOR_BGR2GRAY), exclude=[moved.bars])
    assert abs(again) < 1.0
    # the zone's centre is the same frame point in both crops
    centre = lambda b: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)  # noqa: E731
    back = lambda u, b: cv2.invertAffineTransform(u.matrix) @ np.array([*centre(b), 1.0])  # noqa: E731
    assert np.allclose(back(laid, zone.bars), back(level, moved.bars), atol=1.0)
    # a crop already level is left as it is
    level_frame = cv2.cvtColor(np.ascontiguousarray(np.rot90(_tilted_text_over_level_bars(0.0)[0], 1)), cv2.COLOR_GRAY2BGR)
    flat = make_upright(level_frame, (0.0, 0.0, 600.0, 400.0), 0.0, margin=0.0).quarter_turned()
    assert _level_lying(flat, [zone])[0] is flat


def test_a_crop_turned_again_is_the_crop_made_at_the_sum_of_the_turns() -> None:
    from inference.reading.rectify import make_upright

    frame = np.random.default_rng(3).integers(0, 255, (300, 400, 3), np.uint8)
    box = (50.0, 40.0, 330.0, 260.0)
    again = make_upright(frame, box, 12.0).turned_by(-5.0)
    direct = make_upright(frame, box, 7.0)
    assert again.image.shape == direct.image.shape and np.array_equal(again.image, direct.image)
    assert np.allclose(again.matrix, direct.matrix)


def test_lines_found_still_aslant_are_levelled_by_their_own_print() -> None:
    """A small tag on a ruled sheet: the sheet's long lines lie level and outweigh the tag's, so the first
    levelling leaves its printed lines 5° aslant (s5150 000097: a size run read 10° aslant, its marked entry lost
    between two rows). Measured inside the lines the text detector found, the print says so, and the crop is
    levelled again; lines that lie level are left as they are."""
    import cv2

    from inference.reading.lines import SymbolZone
    from inference.reading.rectify import make_upright, residual_skew
    from inference.reading.text_lines import _level_by_found

    def sheet_with_tag(tilt_deg: float) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
        gray = np.full((600, 800), 235, np.uint8)
        for y in range(10, 600, 14):
            cv2.line(gray, (0, y), (800, y), 60, 2)  # the ruled sheet, level
        gray[200:400, 250:550] = 240  # the tag's paper over it
        text = np.full((200, 300), 240, np.uint8)
        for row in range(5):
            cv2.putText(text, "STYLE NO. KX-2207", (20, 40 + row * 34), cv2.FONT_HERSHEY_PLAIN, 1.3, 40, 2)
        turn = cv2.getRotationMatrix2D((150.0, 100.0), tilt_deg, 1.0)
        gray[200:400, 250:550] = cv2.warpAffine(text, turn, (300, 200), borderValue=240)
        lines = [(262.0, 200 + 22.0 + row * 34 - 8, 528.0, 200 + 46.0 + row * 34 + 8) for row in range(5)]
        return gray, lines

    gray, lines = sheet_with_tag(5.0)
    frame = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    upright = make_upright(frame, (0.0, 0.0, 800.0, 600.0), 0.0, margin=0.0)
    assert abs(residual_skew(gray)[0]) < 1.0  # all the crop's ink: the sheet says level
    zone = SymbolZone((300.0, 420.0, 500.0, 480.0), None, "code")
    level, (moved,) = _level_by_found(upright, [zone], lines)
    assert 4.0 <= abs(level.angle_deg) <= 6.0
    assert abs(residual_skew(cv2.cvtColor(level.image, cv2.COLOR_BGR2GRAY), within=[level.box_from(upright, b) for b in lines])[0]) < 1.0
    assert moved.bars == level.box_from(upright, zone.bars)
    flat, flat_lines = sheet_with_tag(0.0)
    assert _level_by_found(make_upright(cv2.cvtColor(flat, cv2.COLOR_GRAY2BGR), (0.0, 0.0, 800.0, 600.0), 0.0, margin=0.0),
                           [zone], flat_lines) is None


def test_a_turn_towards_45_degrees_keeps_the_tag_size_the_box_told() -> None:
    """tenth 000002 (label_over_value, a 127 x 356 px tag turned 28 deg): the bars turned its box by -32.4 deg, a
    crop of the tag (416 x 149 px). The receipts round it then levelled the print 6.5 deg further, to -38.9 deg,
    where the box no longer tells a rectangle's size, and the crop became the whole box (555 x 542 px, the
    receipts' lines in it, the tag's values too small for the text detector once scaled to its limit)."""
    from inference.reading.rectify import make_upright, told_size

    frame = np.full((800, 900, 3), 200, np.uint8)
    box = (295.0, 232.0, 624.0, 639.0)
    first = make_upright(frame, box, -32.4)
    tall, wide = first.image.shape[:2]
    assert 400 < tall < 430 and 140 < wide < 160
    assert told_size(329.0, 407.0, -38.9) is None  # near 45 deg: the box tells no size
    again = first.turned_by(-6.5)
    assert again.angle_deg == pytest.approx(-38.9)
    assert again.image.shape[:2] == (tall, wide)  # before: (555, 542)
    assert first.turned_by(-1.0).image.shape[:2] != (tall, wide)  # where the box tells a size, it is told anew


def test_auto_reads_with_the_fp32_pair_even_where_an_int8_detector_was_built(tmp_path) -> None:
    """The INT8 text detector read worse than the FP32 one every verdict table measures (good tags OK 142 → 137 of
    211); `auto` took it wherever a copy had been built, so such a station judged otherwise than its benchmarks.
    It is now used only when asked for by name."""
    from inference.reading.ocr.models import int8_path, sha256, sidecar_path

    base = find_ocr_models("fp32", "full", tmp_path)
    copy = int8_path(base.det, tmp_path)
    copy.write_bytes(b"an int8 detector")
    sidecar_path(copy).write_text(json.dumps({"source_sha256": sha256(base.det), "sha256": sha256(copy)}))
    assert valid_int8(base.det, tmp_path) == copy
    assert find_ocr_models("auto", "full", tmp_path) == base
    assert find_ocr_models("int8-det", "full", tmp_path).det == copy
