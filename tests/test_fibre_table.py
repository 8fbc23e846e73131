"""A fibre content printed as a table of parts (fibre_table.py): each share flush right, boxed apart from its fibre."""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from inference.detections import Detections
from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.fibre_table import matching_part, parts_of
from inference.reading.fields import lines_from_text

# set 9111 sale_reprice 000075 as the reader's lines came out: the part and first fibre, then the share apart
TABLE = "成份：\n面布 锦纶\n92%\n氨纶\n8%\n里料棉\n100%\n吊牌价 ￥129元"


def _one_tag() -> Detections:
    return Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                      ("hangtag", "barcode", "qr_code"))


def _verdict(expected: str, text: str = TABLE) -> Verdict:
    recipe = parse_recipe(f'[counts]\nhangtag = 1\n[fields]\ncomposition = "{expected}"\n')
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(text, 0.98),
                         reread_lines=lines_from_text(text, 0.98))
    return judge(recipe, _one_tag(), [reading]).verdict


def test_each_share_goes_to_the_fibre_named_before_it_and_each_part_is_its_own() -> None:
    (run,) = parts_of(lines_from_text(TABLE))
    assert [(p.name, p.components) for p in run] == [
        ("面料", (("锦纶", Decimal(92)), ("氨纶", Decimal(8)))),  # 面布 is the shell, as 面料
        ("里料", (("棉", Decimal(100)),)),
    ]


def test_the_recipe_s_composition_is_the_table_s_first_part_or_the_part_it_names() -> None:
    lines = lines_from_text(TABLE)
    assert matching_part("锦纶 92% 氨纶 8%", lines) is not None
    assert matching_part("棉 100%", lines) is None  # the lining is not the shell: another job's content
    assert matching_part("锦纶 90% 氨纶 10%", lines) is None
    assert matching_part("面料：锦纶 92% 氨纶 8% 里料：棉 100%", lines) is not None
    assert matching_part("面料：锦纶 92% 氨纶 8% 里料：涤纶 100%", lines) is None
    assert matching_part("锦纶 92% 氨纶 8%", lines_from_text("锦纶 92% 氨纶 8%")) is None  # one line: read as such elsewhere


def test_a_fibre_table_confirms_the_composition_and_never_makes_a_difference_alone() -> None:
    # before: '面布 锦纶' after the label was taken for the whole content and judged another one: good tags NG
    assert _verdict("锦纶 92% 氨纶 8%") is Verdict.OK
    assert _verdict("锦纶 90% 氨纶 10%") is Verdict.REVIEW  # the table does not show it; fibre names alone prove nothing
