"""The recognizer fine-tuned for small print: found where shipped, refused when damaged, the stock cut otherwise."""

from __future__ import annotations

import json
import shutil

import pytest

from inference.errors import ModelError
from inference.reading.ocr.models import TUNED_REC, sha256, sidecar_path, tuned_rec

pytest.importorskip("rapidocr")


@pytest.fixture(scope="module")
def stock_rec():
    from inference.reading.ocr.models import base_models

    return base_models("gb2312").rec


def _ship(folder, source):
    shipped = folder / TUNED_REC
    shutil.copyfile(source, shipped)
    sidecar_path(shipped).write_text(json.dumps({"file": TUNED_REC, "sha256": sha256(shipped)}), encoding="utf-8")
    return shipped


def test_a_shipped_recognizer_with_its_hash_is_found(tmp_path, stock_rec):
    assert tuned_rec(tmp_path) is None  # nothing shipped: the station reads with the stock cut
    shipped = _ship(tmp_path, stock_rec)
    assert tuned_rec(tmp_path) == shipped


def test_a_damaged_copy_is_refused_with_what_to_do(tmp_path, stock_rec):
    shipped = _ship(tmp_path, stock_rec)
    data = bytearray(shipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shipped.write_bytes(bytes(data))
    with pytest.raises(ModelError) as err:
        tuned_rec(tmp_path)
    assert "damaged" in str(err.value) and "reinstall" in (err.value.hint or "")
    sidecar_path(shipped).write_text("[]", encoding="utf-8")
    with pytest.raises(ModelError, match="sidecar is unreadable"):
        tuned_rec(tmp_path)


# -- what its read may and may not say (evidence.py): a field printed as expected, never a difference --------------
def _judge(first: str, small: str, *, first_conf: float = 0.97, small_conf: float = 0.97):
    import numpy as np

    from inference.detections import Detections
    from inference.reading.recipe import parse_recipe
    from inference.reading.types import OcrLine, TagReading
    from inference.reading.verdict import judge

    recipe = parse_recipe('[fields]\nproduct_name = "阔腿裤"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    tag = TagReading(0, (0, 0, 300, 600), {}, (), (OcrLine(f"品名：{first}", first_conf, box),), text_px=30.0,
                     small_print_lines=(OcrLine(f"品名：{small}", small_conf, box),) if small else ())
    dets = Detections(np.array([[0, 0, 300, 600]], np.float32), np.array([0.9]), np.array([0]), ("hangtag", "barcode", "qr_code"))
    return judge(recipe, dets, [tag])


def test_its_read_of_the_expected_value_settles_a_doubt():
    from inference.reading.verdict import Verdict

    assert _judge("同腿裤", "", first_conf=0.5).verdict is Verdict.REVIEW  # the stock read alone: in doubt
    assert _judge("同腿裤", "阔腿裤", first_conf=0.5).verdict is Verdict.OK


def test_its_read_never_makes_a_difference_nor_hides_one():
    from inference.reading.verdict import Verdict

    doubted = _judge("同腿裤", "短袖衫", first_conf=0.5)  # it reads another name surely: still only a doubt
    assert doubted.verdict is Verdict.REVIEW and not any("≠" in r for r in doubted.reasons)
    shown = _judge("短袖衫", "阔腿衫", small_conf=0.5)  # the stock read shows another name surely: NG stands
    assert shown.verdict is Verdict.NG and shown.reasons == ("product name 短袖衫 ≠ expected 阔腿裤",)


def _judge_price(first: str, small: str, expected: str = "¥1099.00", first_conf: float = 0.96):
    import numpy as np

    from inference.detections import Detections
    from inference.reading.recipe import parse_recipe
    from inference.reading.types import OcrLine, TagReading
    from inference.reading.verdict import judge

    recipe = parse_recipe(f'[fields]\nprice = "{expected}"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    tag = TagReading(0, (0, 0, 300, 600), {}, (), (OcrLine(first, first_conf, box),), text_px=30.0,
                     small_print_lines=(OcrLine(small, 0.99, box),) if small else ())
    dets = Detections(np.array([[0, 0, 300, 600]], np.float32), np.array([0.9]), np.array([0]), ("hangtag", "barcode", "qr_code"))
    return judge(recipe, dets, [tag]).verdict


def test_its_read_of_the_expected_price_settles_raised_cents_read_into_the_yuan():
    from inference.reading.verdict import Verdict

    # '¥1099⁰⁰': the stock reads run the raised cents into the yuan (doubt); the small-print read shows ¥1099
    assert _judge_price("￥109900", "") is Verdict.REVIEW
    assert _judge_price("￥109900", "￥1099") is Verdict.OK
    assert _judge_price("零售价 ¥10.99", "零售价 ¥1099.00", first_conf=0.5) is Verdict.OK
    # the stock read ran other cents on ('¥1099⁵⁰'): the whole-yuan read says nothing of them
    assert _judge_price("￥109950", "￥1099", first_conf=0.5) is Verdict.REVIEW
    # another price read surely by the stock reads stands; the small-print read never makes one
    assert _judge_price("￥1299.00", "￥1099.00") is Verdict.NG
    assert _judge_price("￥109900", "￥1299.00") is Verdict.REVIEW


def test_the_station_reads_fields_in_doubt_a_last_time_with_the_shipped_one():
    from inference.reading.ocr.models import SMALL_PRINT_NAME, find_ocr_models
    from inference.reading.reader import TagReader

    models = find_ocr_models("fp32")
    assert models.reread is not None and models.reread.name == TUNED_REC  # shipped in resources/models
    assert models.rec != models.reread  # the first read stays the stock recognizer's
    with TagReader.open(precision="fp32") as reader:
        assert reader.rereader is not None and reader.models.endswith(f"second read: {SMALL_PRINT_NAME}")
