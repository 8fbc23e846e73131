"""Field extraction on OCR output as PP-OCR really returns it: width forms, look-alikes, splits."""

from __future__ import annotations

import pytest

from inference.reading.fields import extract_fields, lines_from_text
from inference.reading.normalize import (
    code_key,
    ean13_check_ok,
    field_key,
    normalize_code,
    normalize_composition,
    normalize_price,
    normalize_safety,
    normalize_size,
    normalize_standard,
    same_value,
)
from inference.reading.types import OcrLine


def fields_of(text: str) -> dict[str, str]:
    return {name: reading.value for name, reading in extract_fields(lines_from_text(text)).items()}


@pytest.mark.parametrize(
    ("ocr_text", "name", "expected"),
    [
        # label variants
        ("品名：男士针织衫", "product_name", "男士针织衫"),
        ("名称:女士连衣裙", "product_name", "女士连衣裙"),
        ("品 名：儿童卫衣", "product_name", "儿童卫衣"),
        ("品名 Name：运动套装", "product_name", "运动套装"),
        ("货号：AB2301-05", "style_number", "AB2301-05"),
        ("款号：AB2301-05", "style_number", "AB2301-05"),
        ("款号 Art.No.：V2240-36", "style_number", "V2240-36"),
        ("货号 Style No.: 25081734", "style_number", "25081734"),
        ("尺码：XL", "size", "XL"),
        ("号型：175/92A", "size", "175/92A"),
        ("号型 Size: 180/96A(XXL)", "size", "180/96A(XXL)"),
        ("类别：GB18401-2010 A类", "safety_category", "GB 18401-2010 A类"),  # short for 安全技术类别, not 色别
        ("SIZE 号型 2XL", "size", "2XL"),  # both halves of a bilingual label, no colon between them
        ("【尺码】XL", "size", "XL"),  # a label in brackets, the closing one where the colon would be
        ("【执行标准】FZ/T81004-2022", "standard", "FZ/T 81004-2022"),
        ("规格：均码", "size", "均码"),
        ("价格：¥259.00", "price", "¥259.00"),
        ("零售价：￥２５９．００", "price", "¥259.00"),
        ("统一零售价：¥1299", "price", "¥1299.00"),
        ("吊牌价:RMB 399.00", "price", "¥399.00"),
        ("颜色：藏青", "color", "藏青"),
        ("颜 色：深灰", "color", "深灰"),
        ("颜色 Color:宝蓝", "color", "宝蓝"),
        ("成分：棉95%氨纶5%", "composition", "棉95% 氨纶5%"),
        ("纤维含量：羊绒 79% 粘纤 21%", "composition", "羊绒 79% 粘纤 21%"),
        ("成分 Fabric:羊毛 73%棉27%", "composition", "羊毛 73% 棉27%"),
        ("执行标准：GB/T22849-2014", "standard", "GB/T 22849-2014"),
        ("执行标准 Standard: FZ/T 73020-2019", "standard", "FZ/T 73020-2019"),
        ("执行标准：ＧＢ／Ｔ２２８４９－２０１４", "standard", "GB/T 22849-2014"),
        ("安全技术类别：GB18401-2010B类", "safety_category", "GB 18401-2010 B类"),
        ("安全类别: GB 18401-2010 C类", "safety_category", "GB 18401-2010 C类"),
        ("等级：合格品", "grade", "合格品"),
        ("质量等级：一等品", "grade", "一等品"),
        ("等级 Grade：优等品", "grade", "优等品"),
    ],
)
def test_labelled_field(ocr_text: str, name: str, expected: str) -> None:
    assert fields_of(ocr_text).get(name) == expected


@pytest.mark.parametrize(
    ("ocr_text", "name", "expected"),
    [
        # O/0 and I/1 confusions in codes, full-width letters, dashes
        ("货号：AB23O1-O5", "style_number", "AB2301-05"),
        ("货号：Ｔ２０２３ＯＯ１", "style_number", "T2023001"),
        ("款号：KL—2024—O08", "style_number", "KL-2024-008"),
        ("货号：V22I0-36", "style_number", "V2210-36"),
        # one wrong character in a label, colon still there
        ("执行标谁：GB/T 2665-2017", "standard", "GB/T 2665-2017"),
        ("安全技术类剥：GB18401-2010C类", "safety_category", "GB 18401-2010 C类"),
        ("款亏：M2358-32", "style_number", "M2358-32"),
        # an English sub-label misread and without its colon
        ("货号Style o. K2369306", "style_number", "K2369306"),
        ("尺码 Siz M", "size", "M"),
        ("颜色 Colr 墨绿", "color", "墨绿"),
        ("成分 bric 面料：棉 66%", "composition", "棉 66%"),  # 面料 is a composition label: the value with a share wins
        # semicolon or no colon at all
        ("颜色；米白", "color", "米白"),
        ("尺码 L", "size", "L"),
    ],
)
def test_noisy_ocr(ocr_text: str, name: str, expected: str) -> None:
    assert fields_of(ocr_text).get(name) == expected


def test_value_on_the_next_line() -> None:
    fields = fields_of("执行标准：\nGB/T 2664-2017\n等级：合格品\n款号 Art. No\nDU21K3698\n尺码 Size\nXL")
    assert fields["standard"] == "GB/T 2664-2017"
    assert fields["grade"] == "合格品"
    assert fields["style_number"] == "DU21K3698"
    assert fields["size"] == "XL"


@pytest.mark.parametrize("leaders", ["……………………", "........", "・・・・ ", "⋯⋯"])
def test_a_label_alones_leaders_run_on_to_its_value_on_the_next_line_are_not_the_value(leaders: str) -> None:
    """A tag folded between its labels and their values: '颜色。' on one panel, '……………橙色' across the fold. The
    leaders part label and value as a colon does (twentyfourth_b 000002: a planted wrong colour read as
    '………橙色' was no colour at all, REVIEW instead of NG)."""
    fields = fields_of(f"颜色。\n{leaders}橙色\n款号\n.....MT7404-01")
    assert fields["color"] == "橙色"
    assert fields["style_number"] == "MT7404-01"


@pytest.mark.parametrize("caption", ["6 906850 561811", "6906850561811"])
def test_a_label_whose_value_is_hidden_does_not_take_the_codes_caption_under_it(caption: str) -> None:
    """A thumb over a price's value leaves '吊牌价：' alone on its line, the EAN-13's digits under it: they are the
    code's caption, not a price of ¥690685 (a good tag judged NG)."""
    fields = fields_of(f"吊牌价：\n{caption}")
    assert "price" not in fields
    assert fields_of("零售价：\n¥99.00")["price"] == "¥99.00"


def test_composition_continues_on_the_next_line() -> None:
    fields = fields_of("成分：面料：棉60%\n聚酯纤维40%\n执行标准：GB/T 2664-2017")
    assert same_value("composition", fields["composition"], "面料：棉 60% 聚酯纤维 40%")


@pytest.mark.parametrize(
    "ocr_text, name, expected",
    [
        ("Size/号型: 170/92A", "size", "170/92A"),  # export tags: English label first
        ("Colour/颜色: 黑色", "color", "黑色"),
        ("Standard/执行标准: GB/T 2660-2017", "standard", "GB/T 2660-2017"),
        ("Safety Cat./安全类别: GB 18401-2010 B类", "safety_category", "GB 18401-2010 B类"),
        ("SIZE / 尺码：XL", "size", "XL"),
    ],
)
def test_an_english_label_with_its_chinese_after_a_slash_is_one_label(ocr_text: str, name: str, expected: str) -> None:
    assert extract_fields(lines_from_text(ocr_text))[name].value == expected


def test_a_value_cut_short_by_a_line_break_takes_the_line_it_wrapped_onto() -> None:
    fields = extract_fields(lines_from_text("安全类别：GB 18401-2010\nC类\n等级：合格品"))
    assert fields["safety_category"].value == "GB 18401-2010 C类" and fields["grade"].value == "合格品"
    whole = extract_fields(lines_from_text("安全类别：GB 18401-2010 B类\n洗涤说明：手洗"))
    assert whole["safety_category"].value == "GB 18401-2010 B类"
    unfinished = extract_fields(lines_from_text("安全类别：GB 18401-2010\n注意轻放"))  # nothing completes it
    assert unfinished["safety_category"].value == "GB 18401-2010"


@pytest.mark.parametrize(
    ("ocr_text", "expected"),
    [
        ("批号：P20251023 03", {}),  # set 9717 cij_inkjet 000027: a batch number's own label, one character off 款号
        ("生产批号：20261015-03", {}),
        ("箱号：0012", {}),
        ("快递单号：SF1234567890", {}),
        ("序号：17", {}),
        ("款号：V38181147\n批号：P20251023", {"style_number": "V38181147"}),
        ("贷号：KX-2031", {"style_number": "KX-2031"}),  # 货 read 贷: still the style number's label
    ],
)
def test_another_numbers_label_one_character_off_the_style_numbers_is_not_read_as_it(ocr_text: str, expected: dict) -> None:
    assert {k: v for k, v in fields_of(ocr_text).items() if k == "style_number"} == expected


def test_two_fields_on_one_line() -> None:
    fields = fields_of("颜色：藏青  尺码：L")
    assert (fields["color"], fields["size"]) == ("藏青", "L")


def test_unlabeled_price_ean_and_brand() -> None:
    lines = (
        OcrLine("NORTHWIND", 0.99, (0, 0, 200, 40)),
        OcrLine("合格证", 0.99, (0, 45, 80, 60)),
        OcrLine("品名：纯棉T恤", 0.99, (0, 65, 120, 80)),
        OcrLine("¥ 199.00", 0.98, (0, 90, 120, 110)),
        OcrLine('6"901234 567892', 0.97, (0, 120, 120, 135)),
    )
    fields = {name: r.value for name, r in extract_fields(lines).items()}
    assert fields["brand"] == "NORTHWIND"
    assert fields["price"] == "¥199.00"
    assert fields["ean13"] == "6901234567892"


def test_brand_is_the_tallest_line_above_the_fields_not_a_stray_mark() -> None:
    lines = (
        OcrLine("O", 0.6, (0, 0, 12, 12)),
        OcrLine("HALCYON", 0.99, (0, 20, 200, 60)),
        OcrLine("品名：羽绒服", 0.99, (0, 65, 120, 80)),
    )
    assert extract_fields(lines)["brand"].value == "HALCYON"


@pytest.mark.parametrize("big", ["175/96A", "¥129.00", "0.00", "XS", "xxl", "3XL"])
def test_a_size_or_price_printed_large_above_the_fields_is_not_the_brand(big: str) -> None:
    """Set 5150's big_size_corner tags print the size in the largest type, above a brand in smaller type; the
    twenty-seventh set's big_numerals print a letter size 20 mm high (the window's tag line began 'XS 休闲短袖')."""
    lines = (
        OcrLine(big, 0.99, (100, 0, 250, 50)),
        OcrLine("KOVA", 0.99, (0, 60, 80, 85)),
        OcrLine("品名：羽绒服", 0.99, (0, 90, 120, 105)),
    )
    assert extract_fields(lines)["brand"].value == "KOVA"


def test_field_confidence_is_the_weakest_character_of_the_value() -> None:
    text = "尺码：XL"
    chars = (0.99, 0.99, 0.99, 0.99, 0.41)
    reading = extract_fields([OcrLine(text, 0.87, (0, 0, 1, 1), chars)])["size"]
    assert reading.confidence == pytest.approx(0.41)


def test_invalid_values_get_low_confidence() -> None:
    fields = extract_fields(lines_from_text("等级：合各\n价格：abc"))
    assert "price" not in fields or fields["price"].confidence < 0.6
    assert fields["grade"].confidence < 0.6


def test_the_back_of_a_tag_gives_at_most_a_brand() -> None:
    assert set(fields_of("HALCYON\nDesigned for everyday comfort\n简约 · 舒适 · 自然")) <= {"brand"}


@pytest.mark.parametrize(
    ("func", "raw", "expected"),
    [
        (normalize_price, "￥259", "¥259.00"),
        (normalize_price, "Y259.0", "¥259.00"),
        (normalize_price, "¥2O9.00", "¥209.00"),
        (normalize_price, "no price", ""),
        (normalize_code, "ab-12l4", "AB-1214"),
        (normalize_standard, "FZ/T73020—2019", "FZ/T 73020-2019"),
        (normalize_safety, "GB18401-2010B类", "GB 18401-2010 B类"),
        (normalize_safety, "G8 18401-2010C类", "GB 18401-2010 C类"),
        (normalize_standard, "G8/T 2665-2017", "GB/T 2665-2017"),
        (normalize_standard, "F2/T 73020-2019", "FZ/T 73020-2019"),
        (normalize_standard, "( GB/T 2664-2017", "GB/T 2664-2017"),
        # third2 000037 (shield_centred, 20 px lines): the T read as 1 and the year's dash dropped, at 94 %
        (normalize_standard, "FZ/1730432021", "FZ/T 73043-2021"),
        (normalize_standard, "GB/T 228492014", "GB/T 22849-2014"),
        (normalize_standard, "GB 18401", "GB 18401"),  # no year: nothing to split
        (normalize_standard, "GB/T 2912.1-2009", "GB/T 2912.1-2009"),
        (normalize_safety, "GB 184012010B类", "GB 18401-2010 B类"),
        (normalize_size, "160/8.4Y", "160/84Y"),  # s6001 000032: a speck read as a point inside a 号型
        (normalize_size, "16.0/84Y", "160/84Y"),
        (normalize_size, "38.5", "38.5"),  # a half size keeps its point
        (normalize_composition, "棉 95 ％ 氨纶 5％", "棉 95% 氨纶 5%"),
    ],
)
def test_normalizers(func, raw: str, expected: str) -> None:
    assert func(raw) == expected


@pytest.mark.parametrize(
    ("name", "a", "b", "same"),
    [
        ("style_number", "AB2301-05", "AB23O1-O5", True),
        ("style_number", "AB2301-05", "AB2301-06", False),
        ("price", "¥259.00", "259", True),
        ("price", "¥259.00", "¥199.00", False),
        ("composition", "棉 95% 氨纶 5%", "棉95%氨纶5%", True),
        ("standard", "GB/T 22849-2014", "GB/T22849-2014", True),
        ("size", "175/92A(XL)", "175/92A（XL）", True),
        ("color", "藏青", "深灰", False),
    ],
)
def test_same_value(name: str, a: str, b: str, same: bool) -> None:
    assert same_value(name, a, b) is same
    assert (field_key(name, a) == field_key(name, b)) is same


@pytest.mark.parametrize(("code", "ok"), [("6901234567892", True), ("6901234567893", False), ("690123456789", False)])
def test_ean13_check_digit(code: str, ok: bool) -> None:
    assert ean13_check_ok(code) is ok


def test_code_key_forgives_only_the_usual_look_alikes() -> None:
    assert code_key("O1-I0") == code_key("01-10")
    assert code_key("AB12") != code_key("A812")


def test_runner_up_characters_mend_fibre_and_part_names() -> None:
    text = "成分：園料：莫代尔73%镍纶17%"
    alternatives = [""] * len(text)
    alternatives[text.index("園")] = "面圆"
    alternatives[text.index("镍")] = "锦铝"
    line = OcrLine(text, 0.9, (0, 0, 1, 1), (0.9,) * len(text), tuple(alternatives))
    assert extract_fields([line])["composition"].value == "面料:莫代尔73% 锦纶17%"


def test_runner_ups_do_not_touch_words_that_are_not_fibres() -> None:
    text = "品名：羊毛大衣"
    alternatives = tuple("羊" if ch == "大" else "" for ch in text)
    line = OcrLine(text, 0.9, (0, 0, 1, 1), (0.9,) * len(text), alternatives)
    assert extract_fields([line])["product_name"].value == "羊毛大衣"


def test_prices_with_thousands_separators() -> None:
    from inference.reading.normalize import parse_price

    assert [str(parse_price(t)) for t in ("RMB 1,099.00", "¥1,299", "¥12,345.50", "1,09")] == ["1099.00", "1299.00", "12345.50", "1.09"]


def test_a_short_safety_label_is_never_taken_for_a_colour_label() -> None:
    # 类别 is one character from 色别 (colour): unknown, it was read as that, and the safety class became a colour
    assert "color" not in fields_of("类别：GB 18401-2010 A类")


def test_labels_in_brackets_split_a_line_of_two_fields() -> None:
    assert fields_of("[尺码] XL  [颜色] 黑色") == {"size": "XL", "color": "黑色"}


def test_dotted_leaders_part_a_label_from_its_value() -> None:
    # '品名 ........ 衬衫': the recognizer writes leaders as ellipses, dots or middle dots; they were the value's start
    assert fields_of("款号……ZS2023C") == {"style_number": "ZS2023C"}
    assert fields_of("品名………………女士羊毛针织衫") == {"product_name": "女士羊毛针织衫"}
    assert fields_of("号型........175/96A") == {"size": "175/96A"}
    assert fields_of("等级・・・一等品  色号…灰色") == {"grade": "一等品", "color": "灰色"}


@pytest.mark.parametrize("printed, yuan", [
    ("CN¥ 399.00 / US$ 59.00", "399.00"),
    ("USD 124.00 / EUR 110.00 / RMB 888.00", "888.00"),
    ("59.00 USD  ¥399.00", "399.00"),
    ("EUR 70,90  CNY 549.00", "549.00"),
    ("中国大陆 ¥399.00 香港 HK$440", "399.00"),
    ("S$ 102.90", "None"),
    ("JP¥ 8,390", "None"),
    ("RMB 1,099.00", "1099.00"),
])
def test_a_price_in_another_currency_is_not_the_yuan_price(printed: str, yuan: str) -> None:
    """An export tag lists its price in several currencies; the recipe's price is the yuan one (set ninth,
    currency_list: US$ 124.00 was read as the price ¥124.00, S$ 102.90 as ¥102.90)."""
    from inference.reading.normalize import parse_price

    assert str(parse_price(printed)) == yuan


def _judge_price_lines(*lines: str, expected: str = "¥399.00"):
    import numpy as np

    from inference.detections import Detections
    from inference.reading.recipe import parse_recipe
    from inference.reading.types import OcrLine, TagReading
    from inference.reading.verdict import judge

    recipe = parse_recipe(f'[fields]\nprice = "{expected}"\n')
    ocr = tuple(OcrLine(text, 0.99, (0.0, 20.0 * k, 200.0, 20.0 * k + 18.0)) for k, text in enumerate(lines))
    tag = TagReading(0, (0, 0, 300, 600), {}, (), ocr, text_px=30.0)
    dets = Detections(np.array([[0, 0, 300, 600]], np.float32), np.array([0.9]), np.array([0]), ("hangtag", "barcode", "qr_code"))
    return judge(recipe, dets, [tag])


def test_the_verdict_weighs_the_yuan_price_and_passes_over_the_others() -> None:
    from inference.reading.verdict import Verdict

    assert _judge_price_lines("零售价 RETAIL PRICE", "CNY 399.00", "USD 59.00", "EUR 55.00").verdict is Verdict.OK
    wrong = _judge_price_lines("零售价 RETAIL PRICE", "USD 399.00", "RMB 459.00")  # the yuan price is wrong
    assert wrong.verdict is Verdict.NG and any("459" in r for r in wrong.reasons)
    only_foreign = _judge_price_lines("PRICE", "US$ 124.00", "S$ 102.90")  # no yuan price printed: not a difference
    assert only_foreign.verdict is not Verdict.OK and not any("124" in r or "102" in r for r in only_foreign.reasons)


@pytest.mark.parametrize("line", ["0 颜色 咖啡色", "■ 颜色 咖啡色", "• 颜色：咖啡色", "o 颜色 咖啡色"])
def test_a_bullet_or_speck_before_the_first_label_leaves_the_label_first(line: str) -> None:
    """s5150 000122 (brand_band, 29 px lines): the re-read joined the punched hole ('0') to the colour's row, the
    colour went unread there, and a surely different colour (another job's recipe) stayed doubt."""
    assert extract_fields(lines_from_text(line, 0.9))["color"].value == "咖啡色"


@pytest.mark.parametrize(
    ("read", "mended"),
    [
        ("桑蚕丝 1009", "桑蚕丝 100%"),  # s5150 000101 (overprint_offset, 24 px lines): the % read as a 9
        ("棉85锦纶156", "棉85%锦纶15%"),  # ninth 000069: one % lost, the other read as a 6
        ("棉 90% 氨纶 109", "棉 90% 氨纶 10%"),  # another content is mended as faithfully: no difference hidden
        ("腈纶 92% 氨纶 6", "腈纶 92% 氨纶 6"),  # the rest on a line not read: nothing adds up, nothing is guessed
        ("莫代尔6%棉4%", "莫代尔6%棉4%"),  # every % read: left as read
        ("面料：棉 100% 里料：涤纶 100%", "面料：棉 100% 里料：涤纶 100%"),  # two parts, each whole
    ],
)
def test_shares_get_their_percent_sign_back_where_they_then_add_up_to_100(read: str, mended: str) -> None:
    from inference.reading.repairs import fix_composition

    assert fix_composition(read) == mended


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # tenth two_row_table: a 合格证's table, labels across its head row, each value under its label
        ("货号 颜色 号型 等级 零售价\nA0208 米白 180/96Y 一等品 ¥1000.00",
         {"style_number": "A0208", "color": "米白", "size": "180/96Y", "grade": "一等品", "price": "¥1000.00"}),
        # the last column's fibre content keeps its spaces
        ("品名 纤维含量\n运动短裤 再生纤维素纤维 60% 桑蚕丝 40%", {"product_name": "运动短裤", "composition": "再生纤维素纤维 60% 桑蚕丝 40%"}),
        ("货号 颜色\nA0208 米白 XL", {}),  # three values under two labels: which is whose is not told
    ],
)
def test_a_row_of_labels_over_a_row_of_values_pairs_them_in_place(text: str, fields: dict[str, str]) -> None:
    assert fields_of(text) == fields


@pytest.mark.parametrize("text", ["成分\n棉 60%\n聚酯纤维 40%", "成分FABRIC\n棉 60%\n聚酯纤维 40%"])
def test_a_composition_under_its_label_alone_is_taken_once(text: str) -> None:
    """tenth 000016 (label_over_value): the line a label alone took was added again as the composition's
    continuation ('莫代尔 70% 羊毛 30% 莫代尔 70% 羊毛 30%')."""
    assert fields_of(text)["composition"] == "棉 60% 聚酯纤维 40%"


@pytest.mark.parametrize("label", ["尺码/SIZE", "SIZE 尺码", "SIZE/尺码", "尺码 | Size", "SIZE尺码"])
def test_both_halves_of_a_bilingual_label_alone_take_the_line_under_them(label: str) -> None:
    """A badge under '尺码/SIZE' prints the size: the label's other half is no value of its own."""
    fields = extract_fields(lines_from_text(f"{label}\nXXL\n品名：风衣"))
    assert fields["size"].value == "XXL"
    assert fields["product_name"].value == "风衣"

