"""Keyword spotting on CTC posteriors: an expected value is supported by what the recognizer saw,
including what it doubted, and never by a value it read surely as something else."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading import parse_recipe
from inference.reading.evidence import RIVAL_SHOWN, gather
from inference.reading.expected import forms, spot_fields, vocabulary
from inference.reading.matching import Found
from inference.reading.ocr.recognizer import ctc_greedy
from inference.reading.spotting import Posteriors, PosteriorTable, best_spot, likeliest_of_its_kind, spot
from inference.reading.types import OcrLine, TagReading

CHARSET = ("", *"0123456789./AB类米¥元-CXLMS", " ")


def steps(*frames: dict[str, float]) -> np.ndarray:
    """Softmax rows from {char: p} frames; '' is blank; what is left over goes to blank."""
    out = np.zeros((len(frames), len(CHARSET)), np.float32)
    for t, frame in enumerate(frames):
        for ch, p in frame.items():
            out[t, CHARSET.index(ch)] = p
        out[t, 0] += max(0.0, 1.0 - out[t].sum())
    return out


def read(text_frames: list[dict[str, float]], vocab: str) -> Posteriors:
    probs = steps(*text_frames)
    return PosteriorTable(CHARSET, vocab).take(probs, probs.argmax(axis=1))


def sure(text: str) -> list[dict[str, float]]:
    """Each character surely, a sure blank between."""
    frames: list[dict[str, float]] = []
    for ch in text:
        frames += [{ch: 0.98}, {"": 0.98}]
    return frames


VOCAB = "0123456789./AB类米¥元-"


def test_a_line_read_exactly_costs_nothing() -> None:
    hit = spot("170/92A", read(sure("170/92A"), VOCAB))
    assert hit is not None and hit.supported
    assert hit.total == pytest.approx(0.0, abs=1e-6)
    assert hit.confidence == pytest.approx(0.98, abs=1e-3)


def test_a_doubted_character_supports_the_expected_one() -> None:
    frames = sure("B类")
    frames[2] = {"米": 0.55, "类": 0.40}  # the recognizer wrote 米, but 类 was close behind
    hit = spot("B类", read(frames, VOCAB))
    assert hit is not None and hit.supported
    assert 0.2 < hit.total < 0.5  # log(0.55 / 0.40)


def test_a_surely_read_different_character_is_not_supported() -> None:
    frames = sure("170/92A")
    frames[2] = {"5": 0.97, "7": 0.01}  # 175/92A, read surely
    hit = spot("170/92A", read(frames, VOCAB))
    assert hit is None or not hit.supported


def test_repeated_digits_merged_by_the_recognizer_are_supported_when_the_blank_was_likely() -> None:
    # '399.00' written '39.00': the step between the two 9s was a blank at 40 %
    frames = [{"3": 0.98}, {"": 0.98}, {"9": 0.98}, {"9": 0.55, "": 0.40}, {"9": 0.98}, {"": 0.98},
              {".": 0.98}, {"": 0.98}, {"0": 0.98}, {"": 0.98}, {"0": 0.98}]
    post = read(frames, VOCAB)
    assert spot("399.00", post).supported
    # with no blank anywhere between them, a second 9 was never seen
    frames[3] = {"9": 0.99}
    hit = spot("399.00", read(frames, VOCAB))
    assert hit is None or not hit.supported


def test_a_number_is_not_spotted_inside_a_longer_number() -> None:
    post = read(sure("1399.00"), VOCAB)
    assert spot("399.00", post) is None
    assert spot("1399.00", post).supported


def test_a_last_character_held_over_several_steps_is_not_a_longer_number() -> None:
    """CTC holds a glyph for two steps ('0' '0' with no blank is one 0): the string ends there."""
    frames = sure("399.0") + [{"0": 0.98}, {"0": 0.9}, {"": 0.98}]
    post = read(frames, VOCAB)
    hit = spot("399.00", post)
    assert hit is not None and hit.supported and hit.total == pytest.approx(0.0, abs=1e-6)
    assert spot("99.00", post) is None  # but a number inside 399.00 still is not 99.00


def test_a_letter_size_is_not_spotted_inside_a_longer_size() -> None:
    """'XL' is not on a badge printing 'XXL' (placed over the first X, the blank and the second X taken as one
    long X), nor after a number glued to it ('3XL'); across a space a number is another word ('M 165/88A')."""
    sizes = "XLMS0123456789/A "
    assert spot("XL", read(sure("XXL"), sizes)) is None
    assert spot("XXL", read(sure("XXL"), sizes)).supported
    assert spot("XL", read(sure("3XL"), sizes)) is None
    assert spot("3XL", read(sure("3XL"), sizes)).supported
    assert spot("XL", read(sure("2 XL"), sizes)).supported
    assert spot("165/88A", read(sure("M 165/88A"), sizes)).supported


def test_a_character_is_not_held_over_two_of_its_glyphs() -> None:
    """The recognizer's posteriors on a badge's 'XXL': the blank between the two X not sure. 'XL' placed with its X
    held over the first X, that blank and the second X would cost little, but shows the X twice (set 9212 000001)."""
    sizes = "XLMS0123456789/A "
    frames = [{"": 0.98}, {"X": 0.98}, {"": 0.6, "X": 0.35}, {"X": 0.98}, {"": 0.98}, {"L": 0.98}, {"": 0.98}]
    assert spot("XXL", read(frames, sizes)).supported
    assert spot("XL", read(frames, sizes)) is None


def test_a_price_is_not_spotted_over_a_longer_run_of_its_digit() -> None:
    hit = spot("399.00", read(sure("3999.00"), VOCAB))
    assert hit is None or not hit.supported


def test_characters_outside_the_vocabulary_are_never_spotted() -> None:
    assert spot("XL", read(sure("170"), VOCAB)) is None


def test_row_parts_joined_with_a_gap_spot_across_and_best_spot_names_the_line() -> None:
    left, right = read(sure("170/"), VOCAB), read(sure("92A"), VOCAB)
    joined = Posteriors.concat([left, right])
    assert joined is not None and joined.steps == left.steps + right.steps + 1
    hit = best_spot("170/92A", [read(sure("¥399.00"), VOCAB), joined])
    assert hit is not None and hit.supported and hit.line_index == 1


def test_ctc_greedy_keeps_posteriors_only_when_asked() -> None:
    probs = steps(*sure("170/92A"))[None]
    table = PosteriorTable(CHARSET, VOCAB)
    plain, kept = ctc_greedy(probs, CHARSET, [probs.shape[1]]), ctc_greedy(probs, CHARSET, [probs.shape[1]], table)
    assert plain[0].text == kept[0].text == "170/92A"
    assert plain[0].posteriors is None and kept[0].posteriors is not None
    assert kept[0].posteriors.probs.shape == (probs.shape[1], len(VOCAB))


def recipe(fields: str):
    return parse_recipe(f"[counts]\nhangtag = 1\n[fields]\n{fields}\n")


def test_price_forms_are_amounts_as_printed_never_bare_digits() -> None:
    rules = {r.name: r for r in recipe('price = "¥1299.00"\nsize = "175/96A(XL)"\ncomposition = "羊毛 65% 桑蚕丝 35%"').fields}
    assert ("1299.00",) in forms(rules["price"]) and ("1,299.00",) in forms(rules["price"])
    assert ("1299",) not in forms(rules["price"]) and ("¥1299",) not in forms(rules["price"])  # both inside ¥1299.50
    assert ("1299元",) in forms(rules["price"])
    assert forms(rules["size"]) == [("175/96A(XL)",), ("175/96A", "XL")]
    assert forms(rules["composition"])[1] == ("羊毛 65%", "桑蚕丝 35%")


def test_spot_fields_supports_doubted_reads_and_the_recipe_vocabulary_covers_them() -> None:
    r = recipe('size = "170/92A"\nprice = "¥399.00"')
    vocab = vocabulary(r)
    assert set("170/92A399.¥元") <= set(vocab)
    frames = sure("170/92A")
    frames[8] = {"8": 0.5, "9": 0.45}  # the 9
    size_line = OcrLine("170/82A", 0.9, (0, 0, 1, 1), posteriors=read(frames, VOCAB))
    price_line = OcrLine("¥459.00", 0.98, (0, 0, 1, 1), posteriors=read(sure("¥459.00"), VOCAB))
    spotted = spot_fields(r.fields, rivals_too=True, lines=[size_line, price_line])
    assert [s.name for s in spotted] == ["size"]  # the size's doubt allows 170/92A; 459.00 is surely not 399.00


def test_the_real_recognizer_supports_a_printed_value_and_not_a_different_one() -> None:
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.recognizer import TextRecognizer

    models = find_ocr_models("fp32", "gb2312")
    recognizer = TextRecognizer.open(models.rec)
    image = np.full((48, 260, 3), 255, np.uint8)
    cv2.putText(image, "170/92A", (8, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 2, cv2.LINE_AA)
    (line,) = recognizer.recognize([image], vocabulary="0123456789/A")
    assert line.text == "170/92A"
    assert spot("170/92A", line.posteriors).supported
    other = spot("175/96A", line.posteriors)
    assert other is None or not other.supported


def test_a_caption_read_unsurely_verifies_unreadable_bars_when_its_posteriors_allow_the_ean() -> None:
    import numpy as np

    from inference.detections import Detections
    from inference.reading import TagReading, Verdict, judge
    from inference.reading.expected import spot_printed_ean

    rules = parse_recipe('[barcode]\nexpected = "6920669139542"\nrequired = true\n')
    frames = sure("6920669139542")
    frames[6] = {"8": 0.5, "0": 0.45}  # '692066' read '692866': the 0 was close behind
    caption = OcrLine("6928669139542", 0.9, (0, 0, 1, 1), posteriors=read(frames, "0123456789"))
    spotted = spot_printed_ean(rules, [caption])
    assert [s.name for s in spotted] == ["barcode"]
    boxes = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                       ("hangtag", "barcode", "qr_code"))
    tag = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(OcrLine("尺码：M", 0.99, (0, 0, 1, 1)), caption), spotted=spotted)
    assert judge(rules, boxes, [tag]).verdict is Verdict.OK
    unspotted = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(OcrLine("尺码：M", 0.99, (0, 0, 1, 1)), caption))
    assert judge(rules, boxes, [unspotted]).verdict is not Verdict.OK  # the digits as read have a wrong check digit


def test_a_guess_outside_the_fields_alphabet_does_not_outweigh_the_printed_character() -> None:
    """A standard is printed in capitals, digits and signs: the recognizer's sure '米' (or '@') where
    the value has a digit is a misread, and the digit is weighed against what the alphabet allows."""
    frames = sure("22853")
    frames[4] = {"米": 0.80, "8": 0.10}  # '8' at an eighth of the out-of-alphabet guess
    post = read(frames, VOCAB)
    unrestricted = spot("22853", post)
    assert unrestricted is None or not unrestricted.supported  # any character: 米 wins
    hit = spot("22853", post, alphabet="0123456789/-AB")
    assert hit is not None and hit.supported
    # a digit read surely as another digit is still another digit
    wrong = sure("22853")
    wrong[4] = {"3": 0.90, "8": 0.02}
    other = spot("22853", read(wrong, VOCAB), alphabet="0123456789/-AB")
    assert other is None or not other.supported


def test_closed_fields_have_an_alphabet_and_open_ones_none() -> None:
    from inference.reading.expected import alphabet

    rules = {r.name: r for r in parse_recipe('[fields]\nstandard = "GB/T 22853-2019"\nsafety_category = "GB 18401-2010 B类"\n'
                                             'color = "黑色"\nprice = "¥1299.00"\n').fields}
    assert "8" in alphabet(rules["standard"]) and "@" not in alphabet(rules["standard"])
    assert "类" in alphabet(rules["safety_category"]) and "米" not in alphabet(rules["safety_category"])
    assert "¥" in alphabet(rules["price"])
    assert alphabet(rules["color"]) == ""


def test_a_composition_is_weighed_within_the_fibre_vocabulary() -> None:
    """膜 is no fibre's glyph: where the recognizer wrote 膜纶 with 腈 behind it, 腈纶 is what the
    lexicon allows, and it is supported; where 锦 (a fibre's glyph) is ahead of 腈, it is not."""
    from inference.reading.expected import alphabet

    rule = next(r for r in parse_recipe('[fields]\ncomposition = "腈纶 70%"\n').fields)
    lexicon = alphabet(rule)
    assert {"腈", "锦", "纶", "%", "7"} <= set(lexicon) and "膜" not in lexicon
    charset = ("", *"0123456789%腈锦膜纶", " ")

    def post(glyph: dict[str, float]) -> Posteriors:
        rows = [glyph, {"": 0.98}, {"纶": 0.98}, {"": 0.98}, {"7": 0.98}, {"": 0.98}, {"0": 0.98}, {"": 0.98}, {"%": 0.98}]
        probs = np.zeros((len(rows), len(charset)), np.float32)
        for t, row in enumerate(rows):
            for ch, p in row.items():
                probs[t, charset.index(ch)] = p
            probs[t, 0] += max(0.0, 1.0 - probs[t].sum())
        return PosteriorTable(charset, lexicon).take(probs, probs.argmax(axis=1))

    misread = post({"膜": 0.80, "腈": 0.08, "锦": 0.02})
    unrestricted = spot("腈纶70%", misread)
    assert unrestricted is None or not unrestricted.supported  # weighed against any glyph, 膜 wins
    hit = spot("腈纶70%", misread, alphabet=lexicon)
    assert hit is not None and hit.supported
    other_fibre = post({"锦": 0.60, "腈": 0.05, "膜": 0.30})
    other = spot("腈纶70%", other_fibre, alphabet=lexicon)
    assert other is None or not other.supported


def test_a_letter_is_not_spotted_where_the_recognizer_saw_a_glyph_outside_the_alphabet() -> None:
    """Weighed only against a size's alphabet, a step holding a sure 类 leaves every letter near
    nothing, so 'A' at 2e-6 would cost nothing against the alphabet's best: set 5151 judged a size
    S tag OK against a recipe expecting M this way. A spotted character needs a probability of its own."""
    frames = [{"类": 0.999997, "A": 2e-6, "B": 1e-6}, {"": 0.98}, {"米": 0.999999, "B": 1e-6}]  # no blank left
    hit = spot("A", read(frames, VOCAB), alphabet="0123456789/AB")
    assert hit is None or not hit.supported
    doubted = [{"类": 0.70, "A": 0.25}, {"": 0.98}]  # the letter itself was a real second guess
    hit = spot("A", read(doubted, VOCAB), alphabet="0123456789/AB")
    assert hit is not None and hit.supported


def test_a_class_letter_doubted_past_support_is_still_the_likeliest_of_its_three() -> None:
    """'GB 18401-2010 BA': the class letter B read at 0.9, 类 read as A (0.06 of 类 behind it): alone, 类 is not
    supported (log(0.9/0.06) > log 5); among A类, B类 and C类 the line shows B类 by far."""
    frames = sure("B类")
    frames[2] = {"A": 0.90, "类": 0.06}
    line = read(frames, VOCAB + "C")
    alone = spot("B类", line)
    assert alone is None or not alone.supported
    hit = likeliest_of_its_kind("B类", ["A类", "C类"], [line])
    assert hit is not None and hit.text == "B类"


def test_a_rival_the_line_shows_as_well_keeps_the_expected_value_unsupported() -> None:
    """The tag prints A类 and the recipe expects B类: the B at 0.3 behind an A at 0.6 is not the likeliest."""
    frames = sure("A类")
    frames[0] = {"A": 0.60, "B": 0.30}
    frames[2] = {"米": 0.90, "类": 0.05}
    assert likeliest_of_its_kind("B类", ["A类", "C类"], [read(frames, VOCAB + "C")]) is None


def test_a_value_nowhere_near_the_line_is_not_the_likeliest_of_anything() -> None:
    frames = sure("A类")
    assert likeliest_of_its_kind("B类", ["C类"], [read(frames, VOCAB + "C")]) is None


def test_a_neighbouring_size_shown_surely_where_the_expected_one_is_not_is_spotted_as_itself() -> None:
    """A tag printed 165/88A for a job of 170/92A: the line's 6, 5, 8 and 8 sure, its A doubted (0.5): the read is
    not sure as a whole (NEAR), but every glyph that tells the two apart is, and the expected size is far less
    likely there: the line shows 165/88A, another size of the series."""
    r = recipe('size = "170/92A"')
    frames = sure("165/88A")
    frames[12] = {"A": 0.5, "4": 0.3}
    line = OcrLine("尺码：165/88A", 0.6, (0, 0, 1, 1), posteriors=read(frames, VOCAB))  # read as a whole at 0.6
    assert spot_fields(r.fields, [line]) == ()  # the first spotting asks only for the expected value
    spotted = spot_fields(r.fields, rivals_too=True, lines=[line])
    assert [(s.name, s.expected) for s in spotted] == [("size", "165/88A")]
    tag = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(line,), spotted=spotted)
    evidence = gather(r, tag)["size"]
    assert (evidence.found, evidence.value, evidence.how) == (Found.DIFFERENT, "165/88A", RIVAL_SHOWN)


def test_a_neighbouring_size_read_unsurely_where_it_differs_is_no_evidence() -> None:
    r = recipe('size = "170/92A"')
    frames = sure("165/88A")
    frames[2] = {"6": 0.6, "7": 0.3}  # a glyph that tells 165 from 170, doubted
    line = OcrLine("165/88A", 0.8, (0, 0, 1, 1), posteriors=read(frames, VOCAB))
    assert spot_fields(r.fields, rivals_too=True, lines=[line]) == ()


def test_the_expected_size_shown_is_spotted_and_no_rival_with_it() -> None:
    r = recipe('size = "170/92A"')
    frames = sure("170/92A")
    frames[8] = {"8": 0.5, "9": 0.45}
    line = OcrLine("170/82A", 0.9, (0, 0, 1, 1), posteriors=read(frames, VOCAB))
    assert [(s.name, s.expected) for s in spot_fields(r.fields, rivals_too=True, lines=[line])] == [("size", "170/92A")]


def test_the_same_size_written_the_other_way_is_no_rival() -> None:
    """A job of 2XL on a tag printing XXL: one size written two ways. Not 'another size of the series' (no NG from
    the vocabulary); XS, shown surely, is."""
    r = recipe('size = "2XL"')
    line = OcrLine("XXL", 0.6, (0, 0, 1, 1), posteriors=read(sure("XXL"), "2XLMS"))
    assert spot_fields(r.fields, rivals_too=True, lines=[line]) == ()
    other = OcrLine("尺码：XS", 0.6, (0, 0, 1, 1), posteriors=read(sure("XS"), "2XLMS"))
    assert [(s.name, s.expected) for s in spot_fields(r.fields, rivals_too=True, lines=[other])] == [("size", "XS")]


def test_a_size_shown_on_a_line_without_the_size_label_is_no_evidence() -> None:
    """Fourth set logo_face 000035: a lone M in the brand's logo, read surely, made a good XL tag NG."""
    r = recipe('size = "XL"')
    logo = OcrLine("M", 0.99, (0, 0, 1, 1), posteriors=read(sure("M"), "XLMS"))
    assert spot_fields(r.fields, rivals_too=True, lines=[logo]) == ()


def test_a_size_is_not_spotted_on_a_tag_that_prints_a_run() -> None:
    """Fifth set size_run 000002 against a recipe of 3XL (the tag marks XXL): the run, read as 'xS Os M 1 xI ■XxX',
    prints 3XL too, and spotting it there made the wrong recipe OK. A tag that looks like a run (two letter sizes
    or two check boxes on a line) leaves its size to the marked entry."""
    r = recipe('size = "3XL"')
    run = OcrLine("xS Os M 1 xI ■XxX", 0.7, (0, 0, 1, 1), posteriors=read(sure("XSM3XL"), "3XLMS"))
    entry = OcrLine("3XL", 0.7, (0, 0, 1, 1), posteriors=read(sure("3XL"), "3XLMS"))
    assert spot_fields(r.fields, rivals_too=True, lines=[run, entry]) == ()
    assert [s.expected for s in spot_fields(r.fields, rivals_too=True, lines=[entry])] == ["3XL"]


def test_a_letter_a_fortieth_of_a_sure_glyph_outside_the_alphabet_is_not_spotted() -> None:
    """Set 9111 boxed_cells 000036, against another job's size M where S is printed: the label 颜色 read 颜 at 0.51
    with 'M' at 0.013 behind it; weighed only against a size's alphabet, M cost nothing there and the size was
    confirmed at 1 %. A second guess a fortieth of the first is no look-alike; an eighth is (the test above)."""
    # 颜 and M of that frame as 米 and B of the test's charset; the rest of the step on other glyphs, not on a blank
    frames = [{"米": 0.51, "类": 0.47, "B": 0.013}, {"": 0.98}, {"类": 0.99}, {"": 0.98}]
    hit = spot("B", read(frames, VOCAB), alphabet="0123456789/AB")
    assert hit is None or not hit.supported
    frames = [{"米": 0.51, "类": 0.43, "B": 0.05}, {"": 0.98}]  # a tenth: the recognizer's own second guess
    hit = spot("B", read(frames, VOCAB), alphabet="0123456789/AB")
    assert hit is not None and hit.supported


def test_a_glyph_far_behind_another_glyph_is_still_weighed_within_the_alphabet() -> None:
    """The cap above is for a letter or digit under a glyph of another script; 纤维 read 纤准 in 15 px print had 维
    more than twenty times behind 准 and was printed (eighth 000069, s5153 000003: good tags held for REVIEW when the
    cap applied to every character)."""
    frames = [{"米": 0.97, "类": 0.012, "B": 0.001}, {"": 0.98}]
    hit = spot("类", read(frames, VOCAB), alphabet="0123456789/AB类")
    assert hit is not None and hit.supported


def test_a_size_voted_likeliest_on_another_line_is_no_read_where_its_labelled_line_reads_a_rival() -> None:
    """Set 5153, 000108: a planted 3XL on a job of S. The second read's 号型 line read 3XL; on the fibre content's
    line a 5 held S at 7 %, and among the sizes S was the likeliest there: the field was taken as S, and had the
    first read done the same, a wrong size would have passed. With no labelled line reading a rival, the vote
    stands (a big size printed without a label)."""
    r = recipe('size = "S"')
    frames = [{"": 0.98}, {"5": 0.9, "S": 0.07}, {"": 0.98}]  # a lone 5 at the line's end, S behind it
    fibres = OcrLine("羊毛 5", 0.9, (0, 0, 1, 1), posteriors=read(frames, "3XLMS57"))
    labelled = OcrLine("号型：3XL", 0.96, (0, 0, 1, 1), posteriors=read(sure("3XL"), "3XLMS57"))
    assert [s.expected for s in spot_fields(r.fields, rivals_too=True, lines=[fibres])] == ["S"]
    # the S no longer stands; the labelled line's 3XL is shown as the rival it is
    assert [s.expected for s in spot_fields(r.fields, rivals_too=True, lines=[labelled, fibres])] == ["3XL"]


def test_the_expected_size_spotted_on_another_line_is_no_read_where_its_labelled_line_reads_a_rival() -> None:
    """A planted L on a job of M, and a lone M printed elsewhere (a logo): the M there is no read of the size while
    the 尺码 line reads L. Without the labelled line, the lone M is spotted as before."""
    r = recipe('size = "M"')
    logo = OcrLine("M", 0.99, (0, 0, 1, 1), posteriors=read([{"": 0.98}, *sure("M")], "XLMS"))
    labelled = OcrLine("尺码：L", 0.97, (0, 0, 1, 1), posteriors=read(sure("L"), "XLMS"))
    assert [s.expected for s in spot_fields(r.fields, lines=[logo])] == ["M"]
    assert spot_fields(r.fields, lines=[labelled, logo]) == ()


def test_a_standard_wrapped_after_its_code_is_spotted_in_its_two_pieces() -> None:
    """twentieth 000000: '执行标准：FZ/T' at a line's end, '81007-2022' on the next (a narrow column): the standard is
    printed whole, in two pieces. A number printed nowhere on the tag (another job's standard) is not spotted."""
    charset = ("", *"0123456789-/FZT标准执行：", " ")

    def line(text: str) -> OcrLine:
        probs = np.zeros((2 * len(text), len(charset)), np.float32)
        for t, ch in enumerate(text):
            probs[2 * t, charset.index(ch)], probs[2 * t + 1, 0] = 0.98, 0.98
        probs[:, 0] += np.maximum(0.0, 1.0 - probs.sum(axis=1))
        return OcrLine(text, 0.98, (0, 0, 1, 1), posteriors=PosteriorTable(charset, "0123456789-/FZT").take(probs, probs.argmax(axis=1)))

    rules = recipe('standard = "FZ/T 81007-2022"').fields
    assert forms(rules[0]) == [("FZ/T 81007-2022",), ("FZ/T", "81007-2022")]
    wrapped = [line("执行标准：FZ/T"), line("81007-2022")]
    assert [s.name for s in spot_fields(rules, wrapped)] == ["standard"]
    other = recipe('standard = "FZ/T 73043-2021"').fields
    assert spot_fields(other, wrapped) == ()
