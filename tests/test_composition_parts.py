"""A garment's fibre content is its shell's (面料): a tag that lists the lining (里料) and the filling (填充物) too
prints other contents, and the recipe's found on one of those lines is not the garment's (the fifteenth set's
down_fill tags passed a recipe holding the lining's content 4 times in 4)."""

from __future__ import annotations

import pytest

from inference.reading import OcrLine, TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import other_part
from inference.reading.fields import lines_from_text
from inference.reading.types import SpottedField

from tests.one_tag import one_tag

TAG = "纤维含量：\n面料：再生纤维素纤维 60% 棉 40%\n里料：锦纶 100%\n填充物：白鸭绒\n含绒量 90%"


def verdict_of(composition: str, text: str = TAG, **kwargs):
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(text, 0.98),
                         reread_lines=lines_from_text(text, 0.98), **kwargs)
    return judge(parse_recipe(f'[fields]\ncomposition = "{composition}"\n'), one_tag(), [reading])


@pytest.mark.parametrize(
    ("line", "expected", "part"),
    [
        ("里料：锦纶 100%", "锦纶 100%", "里料"),
        ("里布：据100%", "棉 100%", "里布"),  # the fibre misread: the line's one part named
        ("里朴：桑蚕丝 95% 粘纤 5%", "桑蚕丝 95% 粘纤 5%", "里朴"),  # 里料 with its 料 misread
        ("填充物：灰鸭绒 90%", "灰鸭绒 90%", "填充物"),
        ("面料：锦纶 100%", "锦纶 100%", ""),
        ("成分：锦纶 100%", "锦纶 100%", ""),
        ("面料：棉 60% 涤纶 40% 里料：涤纶 100%", "涤纶 100%", "里料"),  # one line, the lining's part
        ("面料：棉 60% 涤纶 40% 里料：涤纶 100%", "棉 60% 涤纶 40%", ""),
        ("里料：锦纶 100%", "面料：棉 100% 里料：锦纶 100%", ""),  # a recipe naming its parts: matched by name
    ],
)
def test_the_part_a_line_prints_the_content_for(line: str, expected: str, part: str) -> None:
    assert other_part(line, expected) == part


def test_the_lining_s_content_is_not_the_garment_s() -> None:
    result = verdict_of("锦纶 100%")
    assert result.verdict is Verdict.REVIEW
    assert result.reasons == ("composition uncertain: 锦纶 100% is printed on the 里料 line, not as the shell's (面料)"
                              " content, which was not read as it",)
    assert verdict_of("再生纤维素纤维 60% 棉 40%").verdict is Verdict.OK


def test_posteriors_of_the_lining_s_line_allow_nothing_for_the_garment() -> None:
    """9515 000034: '里布：据100%' allowed the recipe's 棉 100% by its posteriors (10 %): no evidence of the shell's."""
    text = "面料：再生纤维素纤维 60% 棉 40%\n里布：据100%"
    spotted = (SpottedField("composition", "棉 100%", 0.10, 0.0, "里布：据100%"),)
    assert verdict_of("棉 100%", text, spotted=spotted).verdict is not Verdict.OK
    shell = (SpottedField("composition", "棉 100%", 0.9, 0.0, "面料：棉 10O%"),)
    assert verdict_of("棉 100%", "面料：棉 10O%", spotted=shell).verdict is Verdict.OK
