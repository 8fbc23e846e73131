"""The reader end to end: generated tags and a demo scene, from pixels to a verdict with reasons."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading.normalize import same_value
from inference.reading.recipe import load_recipe, parse_recipe
from inference.reading.verdict import Verdict, judge
from inference.resources import default_model_path, resource_path

synth = pytest.importorskip("training.synth", reason="the generator lives in a source checkout, not in a bundle")
cv2 = pytest.importorskip("cv2")

CLASSES = ("hangtag", "barcode", "qr_code")
SAMPLE = "090000022"


@functools.lru_cache(maxsize=None)
def reader(read_printed_ean: bool = False):
    """One FP32 reader per setting for the whole module: loading the models is the slow part."""
    from inference.reading.reader import TagReader

    return TagReader.open(precision="fp32", read_printed_ean=read_printed_ean)


def card(seed: int, quarter_turns: int = 0, tag_px: int = 570):
    """A rendered card about `tag_px` high, turned counter-clockwise, with its true boxes."""
    probe = synth.render_tag(seed, px_per_mm=10.0, back_side=False)
    tag = synth.render_tag(seed, px_per_mm=10.0 * tag_px / float(probe.xyxy[0][3] - probe.xyxy[0][1]), back_side=False)
    image, boxes = tag.image, tag.xyxy.astype(np.float64)
    for _ in range(quarter_turns % 4):
        w = image.shape[1]
        image = np.ascontiguousarray(np.rot90(image))
        boxes = np.stack([boxes[:, 1], w - boxes[:, 2], boxes[:, 3], w - boxes[:, 0]], axis=1)
    return image, Detections(boxes, np.ones(len(boxes)), tag.class_id, CLASSES), tag.fields


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_card_reads_the_same_at_every_quarter_turn(turns: int) -> None:
    image, detections, truth = card(9_500_003, turns)
    (tag,) = reader().read(image, detections)
    for name in ("product_name", "style_number", "color", "size", "standard", "price", "ean13"):
        assert tag.fields.get(name) is not None, name
        assert same_value(name, tag.fields[name].value, truth[name]), (name, tag.fields[name].value, truth[name])
    assert tag.fields["ean13"].source == "barcode"
    assert any(b.format == "EAN-13" and b.valid_checksum for b in tag.barcodes)
    assert abs(((tag.rotation + 90 * turns) + 180) % 360 - 180) < 3  # turned back clockwise
    assert {"rectify", "barcode", "ocr_det", "ocr_rec", "fields", "total"} <= set(tag.timings_ms)
    assert truth["price"] in tag.summary


def test_boxes_are_in_frame_pixels() -> None:
    image, detections, _ = card(9_500_003, 1)
    (tag,) = reader().read(image, detections)
    x1, y1, x2, y2 = detections.of_class("hangtag").xyxy[0]
    for line in tag.ocr_lines:
        assert x1 - 5 <= line.box[0] <= line.box[2] <= x2 + 5 and y1 - 5 <= line.box[1] <= line.box[3] <= y2 + 5
    ean = next(b for b in tag.barcodes if b.format == "EAN-13")
    cx, cy = (ean.xyxy[0] + ean.xyxy[2]) / 2, (ean.xyxy[1] + ean.xyxy[3]) / 2
    assert any(a <= cx <= c and b <= cy <= d for (a, b, c, d), k in zip(detections.xyxy, detections.class_id) if k == 1)


def test_without_detections_the_whole_image_is_one_tag() -> None:
    image, _, truth = card(9_500_011, 2)
    (tag,) = reader().read(image)
    assert tag.xyxy == (0.0, 0.0, float(image.shape[1]), float(image.shape[0]))
    assert tag.fields["ean13"].value == truth["ean13"]
    assert same_value("price", tag.fields["price"].value, truth["price"])


def test_the_printed_ean_is_read_only_when_asked() -> None:
    image, detections, truth = card(9_500_003)
    digits = truth["ean13"]
    plain = reader().read(image, detections)[0]
    asked = reader(read_printed_ean=True).read(image, detections)[0]
    assert not any(digits in re.sub(r"\D", "", line.text) for line in plain.ocr_lines)
    assert any(digits in re.sub(r"\D", "", line.text) for line in asked.ocr_lines)
    recipe = parse_recipe("[barcode]\nmatch_printed = true\n")
    assert judge(recipe, detections, [asked]).verdict is Verdict.OK
    assert judge(recipe, detections, [plain]).reasons == ("EAN printed under the barcode not read",)


def _sample() -> tuple[np.ndarray, Detections]:
    path = resource_path("samples", f"{SAMPLE}.jpg")
    if not path.is_file() or not default_model_path().is_file():
        pytest.skip("demo sample or shipped detector missing")
    from inference.pipeline import Pipeline

    image = cv2.imread(str(path))
    with Pipeline.open(default_model_path(), "onnxruntime-cpu") as pipeline:
        return image, pipeline.process(image).detections


def test_demo_scene_to_verdict_with_reasons(tmp_path: Path) -> None:
    image, detections = _sample()
    readings = reader().read(image, detections)
    recipe = load_recipe(resource_path("recipes", f"sample_{SAMPLE}.toml"))
    verdict = judge(recipe, detections, readings)
    # every value matches; what is left is at most doubt (REVIEW), never a mismatch
    assert verdict.verdict is not Verdict.NG, verdict.reasons
    assert all(c.read == c.expected for c in verdict.checks if c.subject in ("price", "style_number", "size", "color", "barcode"))
    assert all(re.search(r"read at \d+% confidence, minimum 80%$", reason) for reason in verdict.reasons)
    assert {c.subject for c in verdict.checks} >= {"price", "style_number", "barcode", "barcode.style", "count:hangtag"}

    wrong = resource_path("recipes", f"sample_{SAMPLE}.toml").read_text(encoding="utf-8")
    wrong = wrong.replace('price = "¥999.00"', 'price = "¥899.00"').replace('size = "175/92A(XL)"', 'size = "170/88A(L)"')
    path = tmp_path / "wrong.toml"
    path.write_text(wrong, encoding="utf-8")
    verdict = judge(load_recipe(path), detections, readings)
    assert verdict.verdict is Verdict.NG
    assert verdict.reasons[:2] == ("size 175/92A(XL) ≠ expected 170/88A(L)", "price ¥999.00 ≠ expected ¥899.00")


def test_a_vlm_settles_the_doubt_and_only_doubtful_tags_reach_it() -> None:
    from inference.reading.cascade import inspect_frame
    from inference.reading.vlm import VlmClient
    from tests.test_vlm import completion, server

    image, detections = _sample()
    recipe = load_recipe(resource_path("recipes", f"sample_{SAMPLE}.toml"))
    truth = {name: value for name, value in _truth().items() if value}
    with server(lambda body: (200, completion(json.dumps(truth, ensure_ascii=False)), 0)) as (url, seen):
        readings, verdict = inspect_frame(reader(), recipe, image, detections, VlmClient(url, "test-vlm", timeout_s=5, budget_ms=5000))
    doubtful = judge(recipe, detections, reader().read(image, detections)).verdict is Verdict.REVIEW
    assert len(seen) == (1 if doubtful else 0)
    assert verdict.verdict is Verdict.OK, verdict.reasons
    if doubtful:
        assert readings[0].notes[-1].startswith("VLM read ")


def _truth() -> dict:
    data = json.loads(resource_path("samples", "truth", f"{SAMPLE}.json").read_text(encoding="utf-8"))
    return next(t for t in data["tags"] if t["side"] == "front")["fields"]


def test_read_stops_between_tags_when_asked():
    """Stop in the station must not wait for every tag of a frame: the reader checks before each tag."""
    import numpy as np

    from inference.detections import Detections
    from inference.reading import TagReader

    image = np.full((200, 400, 3), 255, np.uint8)
    tags = Detections(np.array([[0, 0, 200, 200], [200, 0, 400, 200]], np.float32), np.array([0.9, 0.9], np.float32),
                      np.array([0, 0], np.int32), ("hangtag", "barcode", "qr_code"))
    asked = []

    def stop_after_first() -> bool:
        asked.append(1)
        return len(asked) > 1

    with TagReader.open() as reader:
        assert len(reader.read(image, tags)) == 2
        assert len(reader.read(image, tags, should_stop=stop_after_first)) == 1


def test_a_tag_box_holding_a_symbol_box_is_a_tag_even_when_nothing_on_it_is_legible():
    """A blank box is a coin or a lamp; a box with the detector's barcode or QR box inside is a tag
    whose print could not be read, so its fields are checked (REVIEW), not dropped."""
    image = np.full((400, 400, 3), 235, np.uint8)
    names = ("hangtag", "barcode", "qr_code")
    tag_only = Detections(np.array([[50, 50, 350, 350]], np.float32), np.array([0.9], np.float32), np.array([0]), names)
    with_symbol = Detections(np.array([[50, 50, 350, 350], [100, 250, 300, 320]], np.float32), np.array([0.9, 0.8], np.float32),
                             np.array([0, 1]), names)
    (blank,) = reader().read(image, tag_only)
    (symbol,) = reader().read(image, with_symbol)
    assert not blank.is_tag
    assert symbol.is_tag


def test_a_tag_box_that_leaves_out_the_end_of_its_barcode_still_decodes_it() -> None:
    """The detector's tag box stopped short of the barcode's right end (its symbol box did not): the
    reader decodes from the tag box joined with its symbol boxes, not from bars cut in two."""
    zxingcpp = pytest.importorskip("zxingcpp")
    code = zxingcpp.create_barcode("6901234567892", zxingcpp.BarcodeFormat.EAN13)
    bars = np.asarray(zxingcpp.write_barcode_to_image(code, scale=3))
    frame = np.full((400, 700, 3), 235, np.uint8)
    y, x = 150, 200
    frame[y : y + bars.shape[0], x : x + bars.shape[1]] = bars[..., None]
    symbol = (float(x), float(y), float(x + bars.shape[1]), float(y + bars.shape[0]))
    tag_box = (100.0, 80.0, float(x + 0.6 * bars.shape[1]), 330.0)  # ends at 60 % of the bars
    tag = reader().read_tag(frame, tag_box, [symbol])
    assert "6901234567892" in {b.text for b in tag.barcodes}


def test_another_recognizer_file_reads_in_its_place_on_the_same_backend() -> None:
    """`use_recognizer` (verdict-bench --ocr-rec): a copy of the station's own recognizer under another name reads
    the card exactly as before, and the reader's model description names the file it now reads with."""
    import shutil
    import tempfile

    from inference.reading.reader import TagReader

    image, detections, _fields = card(7)
    with TagReader.open(precision="fp32") as mine:
        before = mine.read(image, detections)
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "rec_copy.onnx"
            shutil.copyfile(mine.recognizer.engine.model_path, copy)
            squeeze = mine.recognizer.squeeze
            mine.use_recognizer(copy)
            assert mine.recognizer.squeeze == squeeze and mine.models.endswith("rec rec_copy.onnx")
            after = mine.read(image, detections)
    assert [t.fields for t in after] == [t.fields for t in before]
    assert [[line.text for line in t.ocr_lines] for t in after] == [[line.text for line in t.ocr_lines] for t in before]


def test_another_small_print_file_gives_the_last_read_in_its_place() -> None:
    """`use_rereader` (verdict-bench --ocr-reread): a copy of the shipped small-print recognizer under another name
    gives the last read instead, on the first recognizer's squeeze; the reads stay the same and the reader's model
    description names the file. A candidate is judged so without replacing the shipped file."""
    import shutil
    import tempfile

    from inference.reading.ocr.models import tuned_rec
    from inference.reading.reader import TagReader

    shipped = tuned_rec()
    if shipped is None:
        pytest.skip("no small-print recognizer in this install")
    image, detections, _fields = card(7)
    with TagReader.open(precision="fp32") as mine:
        before = mine.read(image, detections)
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "small_copy.onnx"
            shutil.copyfile(shipped, copy)
            mine.use_rereader(copy)
            assert mine.rereader.squeeze == mine.recognizer.squeeze and mine.models.endswith("; second read: small_copy.onnx")
            assert Path(mine.rereader.engine.model_path) == copy
            after = mine.read(image, detections)
    assert [t.fields for t in after] == [t.fields for t in before]
