"""The recipe's barcode verified against bars too blurred to decode (bar_verify.py, issue 14).

Blurred profiles are drawn here independently of the verifier (zxing's writer, supersampled, a Gaussian,
area-sampled, noise), whole symbols are photographed as in test_barcode_views, and real crops of blurred
tags come from the generated test sets (tests/data/bar_verify, 88 KB): the expected code must verify where
its bars are printed, and no other code may, nor a box of text or no bars at all."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.reading import barcodes as bc
from inference.reading.bar_patterns import alternatives, symbol_for
from inference.reading.bar_verify import verify_bars, verify_profile
from inference.reading.recipe import parse_recipe
from inference.reading.rectify import bars_down_angle, turn_from_down_angle
from inference.reading.symbol_views import PROFILE_SCALE, BarMeasure
from inference.reading.types import TagReading
from inference.reading.verdict import Verdict, judge_tag

zxingcpp = pytest.importorskip("zxingcpp")

DATA = Path(__file__).parent / "data" / "bar_verify"
EAN = "6901234567892"


def ean13(digits12: str) -> str:
    total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(digits12))
    return digits12 + str((10 - total % 10) % 10)


def near_eans(code: str) -> list[str]:
    """Valid EAN-13s two or three digits from `code`: one data digit changed (the check digit follows), and two."""
    out = []
    for i in range(12):
        d = list(code[:12])
        d[i] = str((int(d[i]) + 1 + i % 9) % 10)
        out.append(ean13("".join(d)))
    for i in range(0, 11, 2):
        d = list(code[:12])
        d[i], d[i + 1] = str((int(d[i]) + 3) % 10), str((int(d[i + 1]) + 7) % 10)
        out.append(ean13("".join(d)))
    return [c for c in out if c != code]


def drawn_profile(text: str, fmt: str, module_samples: float, blur_modules: float, noise: float, seed: int,
                  reverse: bool = False, stretch: float = 0.0) -> np.ndarray:
    """The symbol's bars as the averaged profile shows them: dark bars on light paper with quiet zones, then
    darker print beyond them, blurred (sigma in modules), area-sampled, noisy; optionally read backwards and
    stretched along (perspective: the module grows by `stretch` from one end to the other)."""
    image = np.asarray(zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, fmt)).to_image(scale=1, add_quiet_zones=False))
    bits = (image[image.shape[0] // 2] < 128).astype(np.float64)
    fine = 32  # sub-samples per module
    row = np.concatenate([np.full(4 * fine, 0.6), np.zeros(12 * fine), np.repeat(bits, fine), np.zeros(12 * fine), np.full(4 * fine, 0.6)])
    row = cv2.GaussianBlur(row[None, :], (0, 0), blur_modules * fine).ravel()
    u = np.arange(len(row)) / fine  # modules
    x = u * module_samples * (1 + stretch * u / u[-1])  # samples
    edges = np.arange(0.0, x[-1], 1.0)
    cum = np.interp(edges, x, np.concatenate([[0.0], np.cumsum(row[:-1] * np.diff(u))]))
    cover = np.diff(cum) / np.diff(np.interp(edges, x, u))
    rng = np.random.default_rng(seed)
    profile = 220 - 170 * cover + rng.normal(0, noise, len(cover))
    return profile[::-1] if reverse else profile


def test_characters_are_cut_as_the_symbology_prints_them() -> None:
    ean = symbol_for("EAN-13", EAN)
    assert ean is not None and ean.modules == 95 and len(ean.slots) == 12
    assert [s.start for s in ean.slots[:2]] == [3, 10] and ean.slots[6].start == 50
    assert all(sum(s.widths) == 7 and len(s.widths) == 4 for s in ean.slots)
    assert [s.bar_first for s in ean.slots] == [False] * 6 + [True] * 6
    upc = symbol_for("UPC-A", "036000291452")
    assert upc is not None and upc.modules == 95
    assert symbol_for("EAN-8", "96385074") is not None and len(symbol_for("EAN-8", "96385074").slots) == 8
    code128 = symbol_for("Code128", "AB2301-05")
    assert code128 is not None and all(sum(s.widths) == 11 for s in code128.slots)
    assert (code128.modules - 13) // 11 == len(code128.slots)
    code93 = symbol_for("Code93", "D84016751")
    assert code93 is not None and len(code93.slots) == len("D84016751") + 4
    assert symbol_for("Code39", "AB12") is None  # the wide-to-narrow ratio is the printer's: not verified
    assert symbol_for("EAN-13", "6901234567890") is None  # a wrong check digit is no EAN-13


@pytest.mark.parametrize(("shape", "count"), [("EAN", 20), ("Code93", 56)])
def test_every_character_of_the_symbology_is_an_alternative(shape: str, count: int) -> None:
    alts = set(alternatives(shape))
    assert len(alts) == count
    for text, fmt in ((EAN, "EAN-13"), ("036000291452", "UPC-A"), ("D84016751", "Code93"), ("ZS50946", "Code93")):
        symbol = symbol_for(fmt, text)
        if symbol.slots[0].kind == shape:
            assert {s.widths for s in symbol.slots} <= alts
    if shape == "EAN":  # all ten digits in all three sets (L, G, R) appear somewhere in these codes' characters
        assert len(alts) == 20


def test_code128_alternatives_hold_every_character_printed() -> None:
    alts = set(alternatives("Code128"))
    for text in ("AB2301-05", "KX-82979487", "B4287859", "zs-01 x"):
        assert {s.widths for s in symbol_for("Code128", text).slots} <= alts


@pytest.mark.parametrize("blur", [0.5, 1.0, 1.5, 2.0])
@pytest.mark.parametrize(("text", "fmt", "name"), [(EAN, "EAN13", "EAN-13"), ("AB2301-05", "Code128", "Code128"),
                                                   ("D84016751", "Code93", "Code93")])
def test_blurred_bars_verify_as_the_printed_code_only(text: str, fmt: str, name: str, blur: float) -> None:
    """2.4 samples a module (1.2 frame pixels), blur sigma up to two modules, noise 2 grey levels, read either way
    round and stretched 6 % along: the printed code verifies, codes a character or two off do not."""
    for seed, reverse in ((0, False), (1, True)):
        profile = drawn_profile(text, fmt, 2.4, blur, 2.0, seed, reverse=reverse, stretch=0.06)
        found = verify_profile(profile, name, text)
        assert found is not None and found.verified, found
        assert abs(found.module_px - 2.4 / PROFILE_SCALE) < 0.1
        assert abs(found.blur_modules - blur) < 0.35 + 0.25 * blur  # the drawing's own sampling adds a little
        wrong = near_eans(text)[::3] if name == "EAN-13" else [text[:-2] + "9" + text[-1], text[:2] + "7" + text[3:]]
        for other in wrong:
            again = verify_profile(profile, name, other)
            assert again is None or not again.verified, (other, again)


def test_bars_blurred_past_two_and_a_half_modules_are_not_verified() -> None:
    profile = drawn_profile(EAN, "EAN13", 2.4, 3.0, 1.0, 0)
    found = verify_profile(profile, "EAN-13", EAN)
    assert found is None or not found.verified


@pytest.mark.parametrize("kind", ["flat", "stripes", "text"])
def test_no_bars_or_text_never_verify(kind: str) -> None:
    rng = np.random.default_rng(3)
    if kind == "flat":
        profile = 200 + rng.normal(0, 2, 400)
    elif kind == "stripes":  # bars that encode nothing
        profile = np.repeat(np.where(np.arange(90) % 2, 220.0, 50.0), rng.integers(2, 9, 90)) + rng.normal(0, 2, None)
    else:  # a printed line across: strokes in clusters (characters) with gaps (spaces between words)
        strokes = np.zeros(480)
        for start in range(20, 460, 44):
            for s in rng.integers(0, 30, 5):
                strokes[start + s : start + s + 3] = 1.0
        profile = 220 - 160 * cv2.GaussianBlur(strokes[None, :], (0, 0), 1.5).ravel() + rng.normal(0, 2, 480)
    for code, fmt in ((EAN, "EAN-13"), ("AB2301-05", "Code128"), ("D84016751", "Code93")):
        found = verify_profile(profile, fmt, code)
        assert found is None or not found.verified, (kind, code, found)


@pytest.mark.parametrize(("text", "fmt", "name"), [(EAN, "EAN13", "EAN-13"), ("AB2301-05", "Code128", "Code128")])
def test_a_photographed_symbol_zxing_cannot_read_is_verified(text: str, fmt: str, name: str) -> None:
    """Perspective, a turn, sigma 1.5 modules of blur, noise and JPEG (test_barcode_views.photographed): the reader
    decodes nothing, the bars' profiles verify the printed code and not its neighbours."""
    from tests.test_barcode_views import photographed

    image, box = photographed(text, fmt, module_px=1.5, blur=2.25, degrees=21, perspective=0.03, seed=4)
    x1, y1, x2, y2 = (int(v) for v in box)
    turn = turn_from_down_angle(bars_down_angle(image[y1:y2, x1:x2])[0])
    assert bc.decode_symbol(image, box, turn) == []
    measure = bc.measure_bars(image, box, turn)
    assert measure is not None and len(measure.profiles) == 1 and len(measure.profiles[0]) == 3
    found = verify_bars(measure.profiles, name, text)
    assert found is not None and found.verified
    others = near_eans(text)[:6] if name == "EAN-13" else ["AB2301-06", "AB2307-05", "AB2801-05"]
    for other in others:
        again = verify_bars(measure.profiles, name, other)
        assert again is None or not again.verified, other


CASES = json.loads((DATA / "cases.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_real_blurred_bars_verify_as_what_is_printed(case: dict) -> None:
    """Crops of the generated sets' tags whose bars the reader could not decode: the code printed verifies; where
    a planted defect printed another code than the recipe's (wrong_barcode), the recipe's does not; no other
    lot's code of those sets does, nor any valid EAN-13 two or three digits off."""
    gray = cv2.imread(str(DATA / case["file"]), cv2.IMREAD_GRAYSCALE)
    measure = bc.measure_bars(gray, tuple(case["box"]), case["turn"])
    assert measure is not None
    fmt = case["format"]
    printed = verify_bars(measure.profiles, fmt, case["printed"])
    assert printed is not None and printed.verified, printed
    if case["printed"] != case["expected"]:
        found = verify_bars(measure.profiles, fmt, case["expected"])
        assert found is None or not found.verified
    others = [c["printed"] for c in CASES if c["printed"] != case["printed"]]
    if fmt == "EAN-13":
        others += near_eans(case["printed"])
    for other in others:
        for other_fmt in {fmt, "EAN-13" if other.isdigit() and len(other) == 13 else "Code128"}:
            found = verify_bars(measure.profiles, other_fmt, other)
            assert found is None or not found.verified, (other_fmt, other)


RECIPE = """
[recipe]
name = "bars"
[barcode]
expected = "{code}"
format = "EAN-13"
required = true
"""


def test_the_verdict_says_ok_for_verified_bars_and_unreadable_otherwise() -> None:
    """The recipe's code verified against bars nothing decoded is OK for the barcode rule, and says so; another
    recipe's code on the same bars stays 'unreadable' (REVIEW), never NG."""
    profile = drawn_profile(EAN, "EAN13", 2.6, 1.2, 1.5, 2)
    tag = TagReading(0, (0.0, 0.0, 100.0, 100.0), symbol_boxes=((10.0, 10.0, 90.0, 50.0),),
                     bars=BarMeasure(1.6, 95 * 1.3, ((profile,),)))
    ok = judge_tag(parse_recipe(RECIPE.format(code=EAN)), tag)
    check = next(c for c in ok.checks if c.subject == "barcode")
    assert check.verdict is Verdict.OK and check.read == EAN
    assert check.source.startswith(bc.BARS_VERIFIED) and "blur σ" in check.source
    other = near_eans(EAN)[0]
    wrong = judge_tag(parse_recipe(RECIPE.format(code=other)), tag)
    check = next(c for c in wrong.checks if c.subject == "barcode")
    assert check.verdict is Verdict.REVIEW and check.reason.startswith("barcode unreadable")


def test_a_decoders_misread_of_the_recipes_bars_is_told_from_a_wrong_code() -> None:
    """A decode that differs from the recipe (its check digit passing by chance: 6937838649597 read 0941138649597
    on a tilted tag) is NG only where the bars bear it out: where they verify as the recipe's code and not as the
    decode, the decoder misread them (OK, and the check says so); where they show the decoded code, NG stands."""
    from inference.reading.types import BarcodeReading

    misread = near_eans(EAN)[0]
    recipe = parse_recipe(RECIPE.format(code=EAN))

    def barcode_check(printed: str, decoded: str):
        profile = drawn_profile(printed, "EAN13", 2.6, 0.6, 1.0, 3)  # bars 1.3 px wide
        tag = TagReading(0, (0.0, 0.0, 100.0, 100.0), barcodes=(BarcodeReading("EAN-13", decoded, True, (10.0, 10.0, 90.0, 50.0), 2.6),),
                         symbol_boxes=((10.0, 10.0, 90.0, 50.0),), decoded_bars=BarMeasure(0.6, 95 * 2.6, ((profile,),)))
        return next(c for c in judge_tag(recipe, tag).checks if c.subject == "barcode")

    told = barcode_check(EAN, misread)
    assert told.verdict is Verdict.OK and told.read == EAN and f"decoder's {misread} is a misread" in told.source
    wrong = barcode_check(misread, misread)  # the bars print another code: the decode is right
    assert wrong.verdict is Verdict.NG and wrong.reason == f"barcode {misread} ≠ expected {EAN}"
    unmeasured = judge_tag(recipe, TagReading(0, (0.0, 0.0, 100.0, 100.0), barcodes=(
        BarcodeReading("EAN-13", misread, True, (10.0, 10.0, 90.0, 50.0), 2.6),)))
    assert next(c for c in unmeasured.checks if c.subject == "barcode").verdict is Verdict.NG


def test_the_bars_measured_for_a_differing_decode_are_those_the_verdict_compares() -> None:
    """A tag with its style number's Code 128 and an EAN-13 read otherwise: the EAN's bars are the ones measured."""
    from inference.reading.barcodes import DecodedCode
    from inference.reading.reader import _differing_code

    quad = ((0.0, 0.0), (10.0, 0.0), (10.0, 5.0), (0.0, 5.0))
    style = DecodedCode("Code128", "AB2301-05", None, quad, 0)
    other = DecodedCode("EAN-13", near_eans(EAN)[0], True, quad, 0)
    recipe = parse_recipe(RECIPE.format(code=EAN))
    assert _differing_code(recipe, [style, other]) == other.text
    assert _differing_code(recipe, [style, DecodedCode("EAN-13", EAN, True, quad, 0)]) == ""  # the recipe's code decoded
    assert _differing_code(parse_recipe("[fields]\nprice = \"¥1.00\"\n"), [other]) == ""  # no code expected
