"""The independent test set: deterministic, complete truth, loadable recipes, defects at the asked share."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from inference.reading.normalize import field_key
from inference.reading.recipe import load_recipe

fonts = pytest.importorskip("training.tagsets.fonts")
try:
    fonts.font_files()
except fonts.FontsMissingError:
    pytest.skip("CJK fonts for training.tagsets are not installed (make system-deps)", allow_module_level=True)

from training.tagsets import DESIGNS, generate  # noqa: E402
from training.tagsets.__main__ import main as tagsets_main  # noqa: E402
from training.tagsets.designs import HUNG_UPSIDE_DOWN  # noqa: E402
from training.tagsets.scene import HEIGHT, WIDTH  # noqa: E402
from training.tagsets.values import DEFECT_KINDS, random_values  # noqa: E402
from training.tagsets.writer import _fibre_shares as fibre_shares  # noqa: E402

SET_COUNT, SET_SEED, SET_SHARE = 10, 5, 0.3


@pytest.fixture(scope="module")
def tagset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tagset")
    generate(out, SET_COUNT, SET_SEED, SET_SHARE)
    return out


def truth_rows(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()]


def price_amount(text: str) -> Decimal:
    digits = "".join(c for c in unicodedata.normalize("NFKC", text) if c.isdigit() or c == ".")
    return Decimal(digits.strip(".")).quantize(Decimal("0.01"))


def test_same_seed_same_set_and_another_seed_another(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    generate(a, 3, 77)
    generate(b, 3, 77)
    generate(c, 3, 78)
    assert (a / "truth.jsonl").read_bytes() == (b / "truth.jsonl").read_bytes()
    for name in ("000000.jpg", "000002.jpg"):
        assert (a / "images" / name).read_bytes() == (b / "images" / name).read_bytes()
    assert (a / "truth.jsonl").read_bytes() != (c / "truth.jsonl").read_bytes()


def test_folder_layout_and_manifest(tagset):
    manifest = json.loads((tagset / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["generator"] == "training.tagsets" and manifest["version"] == 1
    assert (manifest["seed"], manifest["count"], manifest["defect_share"]) == (SET_SEED, SET_COUNT, SET_SHARE)
    assert set(manifest["designs"]) == set(DESIGNS)
    rows = truth_rows(tagset)
    assert [r["image"] for r in rows] == [f"images/{i:06d}.jpg" for i in range(SET_COUNT)]
    for row in rows:
        assert (tagset / row["image"]).is_file()
        assert (tagset / row["recipe"]).is_file() and row["recipe"] == f"recipes/{row['job']}.toml"
        assert row["bucket"] in ("nominal", "blurred", "small") and row["design"] in DESIGNS
        assert set(row["condition"]) >= {"blur_px", "tag_height_px", "rotation_deg", "perspective", "background", "jpeg_quality"}
        turn = row["condition"]["rotation_deg"]  # a tag hung upside down is photographed a half turn round
        assert 70 <= row["condition"]["jpeg_quality"] <= 95 and abs(turn - (180 if row["design"] in HUNG_UPSIDE_DOWN else 0)) <= 35


def test_conditions_fall_inside_their_bucket(tagset):
    for row in truth_rows(tagset):
        cond = row["condition"]
        if not row["tags"]:
            continue
        if row["bucket"] == "blurred":
            assert 1.5 <= cond["blur_px"] <= 4.0
        else:
            assert cond["blur_px"] <= 1.5
        if row["bucket"] == "small":
            assert 140 <= cond["tag_height_px"] <= 305
        else:
            assert cond["tag_height_px"] >= 290


def test_truth_outlines_lie_inside_the_frame_and_hold_their_codes(tagset):
    from PIL import Image

    for row in truth_rows(tagset):
        with Image.open(tagset / row["image"]) as image:
            assert image.size == (WIDTH, HEIGHT)
        for tag in row["tags"]:
            quad = np.asarray(tag["quad"])
            assert quad.shape == (4, 2)
            assert (quad >= 0).all() and (quad[:, 0] <= WIDTH).all() and (quad[:, 1] <= HEIGHT).all()
            x1, y1, x2, y2 = tag["xyxy"]
            assert quad[:, 0].min() - 2 <= x1 < x2 <= quad[:, 0].max() + 2
            assert quad[:, 1].min() - 2 <= y1 < y2 <= quad[:, 1].max() + 2
            edges = np.roll(quad, -1, axis=0) - quad  # clockwise on screen (y down): positive cross products
            turns = [edges[i][0] * edges[(i + 1) % 4][1] - edges[i][1] * edges[(i + 1) % 4][0] for i in range(4)]
            assert all(t > 0 for t in turns)
            assert tag["barcodes"], "every design carries one linear barcode"
            for code in tag["barcodes"] + tag["qr"]:
                bx1, by1, bx2, by2 = code["xyxy"]
                assert x1 - 2 <= bx1 < bx2 <= x2 + 2 and y1 - 2 <= by1 < by2 <= y2 + 2


def test_every_recipe_loads_and_describes_the_correct_tag(tagset):
    assert_recipes_describe_the_correct_tags(tagset)


def assert_recipes_describe_the_correct_tags(tagset: Path) -> None:
    for row in truth_rows(tagset):
        recipe = load_recipe(tagset / row["recipe"])
        assert {c.class_name: (c.min, c.max) for c in recipe.counts}["hangtag"] == (1, 1)
        if row["design"] == "logo_face":  # a QR code its only code: no barcode counted or stated
            assert not recipe.barcode.required and recipe.barcode.expected is None
            assert {c.class_name: (c.min, c.max) for c in recipe.counts}["barcode"] == (0, 0)
            assert {c.class_name: (c.min, c.max) for c in recipe.counts}["qr_code"] == (1, 1)
        else:
            assert recipe.barcode.required and recipe.barcode.expected
        if row["defect"] is not None:
            continue
        (tag,) = row["tags"]
        for rule in recipe.fields:
            if rule.expected is None:
                continue
            printed, value = tag["fields"][rule.name], tag["values"][rule.name]
            assert field_key(rule.name, rule.expected) == field_key(rule.name, value), rule.name
            if rule.name == "price":  # "RMB 1,099.00", "￥199元": the amount printed is the recipe's
                assert price_amount(rule.expected) == price_amount(printed)
            elif rule.name == "size":  # "L (170/92A)" on an export tag whose recipe says 170/92A
                assert value in unicodedata.normalize("NFKC", printed)
            elif value != printed and rule.name in ("color", "style_number", "composition"):
                # a colour code beside the name ('C09 藏青'), a number grouped by spaces, a blend printed '棉65%', a
                # full-width print ('粘纤　８５％'): each in its NFKC form
                folded = unicodedata.normalize("NFKC", printed)
                assert value in folded or value == folded.replace(" ", "") or fibre_shares(value) == fibre_shares(folded)
            else:  # a full-width print ('ＧＢ／Ｔ　２６６４－２０１７') is the recipe's value in its NFKC form
                assert value in (printed, unicodedata.normalize("NFKC", printed))
        codes = [c["text"] for c in tag["barcodes"]]
        assert recipe.barcode.expected in codes or (not codes and tag["qr"])
        assert {c.class_name: c.min for c in recipe.counts}["barcode"] == len(codes)


def test_defects_are_planted_at_the_asked_share(tagset):
    rows = truth_rows(tagset)
    defective = [r for r in rows if r["defect"] is not None]
    assert len(defective) == round(SET_COUNT * SET_SHARE)
    assert all(r["expected_verdict"] == ("NG" if r["defect"] else "OK") for r in rows)
    for row in defective:
        defect = row["defect"]
        assert defect["kind"] in DEFECT_KINDS
        if defect["kind"] == "missing_tag":
            assert row["tags"] == []
        elif defect["kind"] == "two_tags":
            assert len(row["tags"]) == 2
        else:
            (tag,) = row["tags"]
            assert defect["printed"] != defect["expected"]
            assert tag["fields"][defect["field"]] == defect["printed"]
    for row in rows:
        if row["defect"] is None:
            assert len(row["tags"]) == 1


def test_every_defect_kind_is_made_over_a_larger_set(tmp_path):
    generate(tmp_path, 14, 3, defect_share=1.0, designs=["vertical_classic", "grid_table"])
    kinds = {r["defect"]["kind"] for r in truth_rows(tmp_path)}
    assert kinds == set(DEFECT_KINDS)


def test_the_designs_differ(tmp_path):
    assert len(DESIGNS) >= 6
    values = random_values(np.random.default_rng(11))
    arts = {name: design(3, values, 6.0) for name, design in DESIGNS.items()}
    shapes = {name: art.rgba.shape[:2] for name, art in arts.items()}
    assert any(h > w for h, w in shapes.values()) and any(w > h for h, w in shapes.values())
    luminance = {name: art.rgba[..., :3][art.rgba[..., 3] > 0].mean() for name, art in arts.items()}
    # a woven label's satin ground is black, navy or wine on some jobs; foil is stamped on dark card
    dark_by_job = ("dark_bilingual", "woven_label", "foil_stamped")
    assert luminance["dark_bilingual"] < 90 < min(v for k, v in luminance.items() if k not in dark_by_job)
    assert "size" in arts["big_size_corner"].fields and any(art.qr for art in arts.values())
    symbologies = {code.format for art in arts.values() for code in art.barcodes}
    assert {"EAN-13", "Code128", "Code93"} <= symbologies
    small = {name: np.asarray(art.rgba[..., :3], np.float32) for name, art in arts.items()}
    names = list(small)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if small[a].shape == small[b].shape:
                assert np.abs(small[a] - small[b]).mean() > 10, (a, b)


def test_the_generator_shares_nothing_with_the_training_generator():
    code = "import sys, training.tagsets.writer; print('training.synth' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"


def test_missing_fonts_name_the_packages(tmp_path):
    fonts.font_files.cache_clear()
    try:
        with pytest.raises(fonts.FontsMissingError) as caught:
            fonts.font_files(tmp_path)
    finally:
        fonts.font_files.cache_clear()
    assert "fonts-wqy-zenhei" in str(caught.value) and "hint" in str(caught.value)


@pytest.mark.parametrize("argv, found", [
    (["--designs", "no_such_design"], "no_such_design"),
    (["--defect-share", "1.5"], "defect share 1.5"),
])
def test_cli_refuses_bad_requests_with_a_message(tmp_path, capsys, argv, found):
    assert tagsets_main(["--out", str(tmp_path), "--count", "2", "--seed", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and found in err and "Traceback" not in err


def test_every_character_the_generator_prints_exists_in_every_font():
    """A glyph missing from one font would print a box where the truth says a character is."""
    import inspect

    from training.tagsets import (backgrounds, designs, eighth_designs, fifth_designs, fourth_designs, fresh_designs,
                                  eleventh_designs, ninth_designs, seventh_designs, sixth_designs, tenth_designs,
                                  thirteenth_designs, third_designs, twelfth_designs, values)

    modules = (values, designs, fresh_designs, third_designs, fourth_designs, fifth_designs, sixth_designs,
               seventh_designs, eighth_designs, ninth_designs, tenth_designs, eleventh_designs, twelfth_designs,
               thirteenth_designs,
               backgrounds)
    source = "".join(inspect.getsource(m) for m in modules)
    chars = sorted({c for c in source if ord(c) > 127 and c not in "—…→·"})
    assert len(chars) > 100
    faces = [fonts.font(name, 40) for name in fonts.font_names()]
    faces += [fifth_designs.printer_font(path, index, 40) for path, index in fifth_designs.printer_faces()]
    for face in faces:
        name = face.getname()
        box = np.asarray(face.getmask("\U000F0000")).tobytes()  # a private-use code point: the missing glyph
        missing = [c for c in chars if np.asarray(face.getmask(c)).tobytes() == box]
        assert not missing, (name, "".join(missing))


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_every_design_prints_codes_a_decoder_reads_when_sharp(design):
    import zxingcpp

    for seed in (1, 2):
        art = DESIGNS[design](seed, random_values(np.random.default_rng(seed)), 8.0)
        decoded = {(str(b.format), b.text) for b in zxingcpp.read_barcodes(np.ascontiguousarray(art.rgba[..., :3]))}
        texts = {text for _, text in decoded}
        assert all(code.text in texts for code in art.barcodes + art.qr), (design, seed, decoded)


def test_oracle_counts_codes_per_condition(tagset):
    from training.tagsets.oracle import oracle

    stats = oracle(tagset)
    rows = truth_rows(tagset)
    assert set(stats) == {r["bucket"] for r in rows if r["tags"]}
    assert sum(s["codes"] for s in stats.values()) == sum(len(t["barcodes"]) for r in rows for t in r["tags"])
    assert all(0 <= s["decoded"] <= s["codes"] for s in stats.values())


def test_designs_get_equal_shares_of_the_jobs(tmp_path):
    generate(tmp_path, 5 * 6, 6, designs=["grid_table", "kraft_stamped", "dark_bilingual"])
    jobs = {(r["job"], r["design"]) for r in truth_rows(tmp_path)}
    per_design = {d: sum(design == d for _, design in jobs) for d in ("grid_table", "kraft_stamped", "dark_bilingual")}
    assert per_design == {"grid_table": 2, "kraft_stamped": 2, "dark_bilingual": 2}


def test_a_long_value_goes_on_two_lines_rather_than_below_the_smallest_legal_print():
    from training.tagsets.canvas import MIN_PRINT_MM, Card
    from training.tagsets.fonts import font_names

    face = font_names()[0]
    long_value = "再生纤维素纤维 95% 羊毛 4% 腈纶 1%"
    one_line = Card(50, 20, 10, (255, 255, 255))
    squeezed = one_line.text(2, 2, long_value, 3.0, (0, 0, 0), face, max_w_mm=25)
    two_lines = Card(50, 20, 10, (255, 255, 255))
    wrapped = two_lines.text(2, 2, long_value, 3.0, (0, 0, 0), face, max_w_mm=25, wrap_mm=5.0)
    assert squeezed <= 25 and wrapped <= 25

    def ink_rows(card: Card) -> int:
        dark = np.asarray(card.image.convert("L")) < 128
        return int(dark.any(axis=1).sum())

    # shrunk to one line its ink is under MIN_PRINT_MM high; set on two lines each line keeps about that
    assert ink_rows(one_line) < MIN_PRINT_MM * 10
    assert ink_rows(two_lines) >= 2 * 0.8 * MIN_PRINT_MM * 10


# -- the three designs added as a fresh yardstick (two pairs to a row, English first, a price sticker) --------

FRESH = ("two_column", "english_first", "price_sticker")


def test_every_character_a_latin_label_or_sticker_prints_exists_in_every_latin_font():
    english = "Style No.DescriptionColourSizeFabricGradeStandardSafety Cat.PRICERetail PriceRRPMade in China:"
    printed = set(english + english.upper() + "¥ 0123456789,.-&" + "".join(chr(c) for c in range(ord("A"), ord("Z") + 1)))
    for name in fonts.latin_font_names():
        face = fonts.font(name, 40)
        box = np.asarray(face.getmask("\U000F0000")).tobytes()
        missing = [c for c in sorted(printed - {" "}) if np.asarray(face.getmask(c)).tobytes() == box]
        assert not missing, (name, "".join(missing))


def test_missing_latin_fonts_name_the_package(tmp_path):
    fonts.latin_font_files.cache_clear()
    try:
        with pytest.raises(fonts.FontsMissingError) as caught:
            fonts.latin_font_files(tmp_path)
    finally:
        fonts.latin_font_files.cache_clear()
    assert "fonts-liberation2" in str(caught.value)


@pytest.mark.parametrize("size, printed", [
    ("170/92A", "L (170/92A)"), ("160/84A", "S (160/84A)"), ("185/104B", "3XL (185/104B)"), ("XL", "XL"), ("M", "M"),
])
def test_an_export_tag_prints_the_letter_size_beside_the_hao(size, printed):
    from training.tagsets.fresh_designs import letter_and_hao

    assert letter_and_hao(size) == printed


def test_fresh_designs_truth_recipes_and_defects_agree(tmp_path):
    """Each planted field defect shows on the card; a size printed 'L (170/92A)' stays the recipe's 170/92A,
    and a wrong size changes the letter with the 号型; a sticker's second code is counted by the recipe."""
    from training.tagsets.fresh_designs import LETTER_OF_HEIGHT

    generate(tmp_path, 45, 21, defect_share=0.4, designs=list(FRESH))
    rows = truth_rows(tmp_path)
    assert {r["design"] for r in rows} == set(FRESH)
    for row in rows:
        recipe = load_recipe(tmp_path / row["recipe"])
        for tag in row["tags"]:
            size = tag["fields"].get("size", "")
            if "(" in size:
                letter, hao = size[:-1].split(" (")
                assert letter == LETTER_OF_HEIGHT[int(hao.split("/")[0])] and tag["values"]["size"] == hao
            if row["defect"] is None:
                assert {c.class_name: c.min for c in recipe.counts}["barcode"] == len(tag["barcodes"])
        defect = row["defect"]
        if defect and defect["field"]:
            assert defect["printed"] != defect["expected"]
            (tag,) = row["tags"]
            if defect["field"] == "ean13":
                assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}
    kinds = {r["defect"]["kind"] for r in rows if r["defect"]}
    assert {"wrong_size", "wrong_price", "wrong_style_number", "wrong_barcode"} <= kinds
    stickers = [r for r in rows if r["design"] == "price_sticker" and r["tags"]]
    assert any(len(r["tags"][0]["barcodes"]) == 2 for r in stickers), "some stickers carry their own EAN-13"


def test_two_column_sets_two_pairs_on_one_row():
    """Two label/value pairs share a row: fewer ink bands than fields, and ink on both halves of a band."""
    art = DESIGNS["two_column"](4, random_values(np.random.default_rng(4)), 10.0)
    dark = np.asarray(art.rgba[..., :3], np.float32).mean(axis=2) < 110
    body = dark[int(12 * 10):int(12 * 10 + 5.4 * 3 * 10), :]  # the three paired rows
    per_row = [body[int(k * 54):int((k + 1) * 54)] for k in range(3)]
    for band in per_row:
        columns = band.any(axis=0)
        assert columns[60:460].any() and columns[540:950].any()


def test_the_price_sticker_is_turned_and_its_codes_read_where_they_lie():
    import zxingcpp

    for seed in range(1, 9):
        art = DESIGNS["price_sticker"](seed, random_values(np.random.default_rng(seed)), 10.0)
        assert art.fields["price"].replace(" ", "").startswith("¥")
        for code in art.barcodes:
            x1, y1, x2, y2 = (int(round(v)) for v in code.box)
            crop = np.ascontiguousarray(art.rgba[max(0, y1 - 20):y2 + 20, max(0, x1 - 30):x2 + 30, :3])
            assert code.text in {b.text for b in zxingcpp.read_barcodes(crop)}, (seed, code.box)
        if len(art.barcodes) == 2:
            tag_code, sticker_code = art.barcodes
            width = sticker_code.box[2] - sticker_code.box[0]
            assert sticker_code.box[3] - sticker_code.box[1] > 6.5 * 10 + 0.02 * width  # a turned box is taller


# -- what every set of added designs must hold ---------------------------------------------------------------

JUDGED_FIELDS = {"product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category",
                 "price"}


def deterministic_rows(tmp_path, designs, seed, names=("000000.jpg", "000013.jpg", "000029.jpg")):
    """A set of `designs` made twice from one seed is the same bytes; every row is one of the designs, every recipe
    describes the row's correct tags and every judged field a design prints is in its truth, as the recipe writer
    expects. The rows, for each design's own checks."""
    generate(tmp_path / "a", 30, seed, defect_share=0.0, designs=list(designs))
    generate(tmp_path / "b", 30, seed, defect_share=0.0, designs=list(designs))
    assert (tmp_path / "a" / "truth.jsonl").read_bytes() == (tmp_path / "b" / "truth.jsonl").read_bytes()
    for name in names:
        assert (tmp_path / "a" / "images" / name).read_bytes() == (tmp_path / "b" / "images" / name).read_bytes()
    rows = truth_rows(tmp_path / "a")
    assert {r["design"] for r in rows} == set(designs)
    assert_recipes_describe_the_correct_tags(tmp_path / "a")
    for row in rows:
        (tag,) = row["tags"]
        assert set(tag["fields"]) >= JUDGED_FIELDS, row["design"]
    return rows


def rows_with_planted_defects(tmp_path, designs, seed):
    """Half of a set of `designs` with a planted defect: each prints the defect's value where the truth says, and
    every kind a line checks is made. The rows, for each design's own checks."""
    generate(tmp_path, 45, seed, defect_share=0.5, designs=list(designs))
    rows = truth_rows(tmp_path)
    for row in rows:
        defect = row["defect"]
        if defect and defect["field"]:
            (tag,) = row["tags"]
            assert tag["fields"][defect["field"]] == defect["printed"] != defect["expected"]
    kinds = {r["defect"]["kind"] for r in rows if r["defect"]}
    assert {"wrong_size", "wrong_price", "wrong_style_number", "wrong_color", "wrong_barcode"} <= kinds
    return rows


# -- the three designs added on 2026-12-02 evening (no labels and a turned code, a centred shield, a 合格证 slip) --

THIRD = ("hairline_rows", "shield_centred", "tear_slip")


def test_third_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    deterministic_rows(tmp_path, THIRD, 31, names=("000000.jpg", "000007.jpg", "000029.jpg"))


def test_third_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, THIRD, 32):
        defect = row["defect"]
        if defect and defect["field"]:
            (tag,) = row["tags"]
            if defect["field"] == "ean13":
                assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}
            if defect["field"] == "style_number" and row["design"] == "shield_centred":  # Code 128 of the style number
                assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_hairline_rows_turns_its_ean_along_the_edge_and_the_truth_measures_its_modules_along_the_code(tmp_path):
    import zxingcpp

    for seed in range(1, 7):
        art = DESIGNS["hairline_rows"](seed, random_values(np.random.default_rng(seed)), 10.0)
        (code,) = art.barcodes
        x1, y1, x2, y2 = code.box
        assert y2 - y1 == pytest.approx(360, abs=2) and x2 - x1 == pytest.approx(85, abs=2)  # 36 mm down, 8.5 mm bars
        crop = np.ascontiguousarray(art.rgba[int(y1) - 20:int(y2) + 20, int(x1) - 20:int(x2) + 20, :3])
        assert code.text in {b.text for b in zxingcpp.read_barcodes(crop)}, seed
    generate(tmp_path, 10, 33, defect_share=0.0, designs=["hairline_rows"])
    for row in truth_rows(tmp_path):
        module_mm = 36.0 / 95  # an EAN-13 is 95 modules
        expected = module_mm * row["condition"]["tag_height_px"] / 56.0
        assert row["condition"]["barcode_module_px"] == pytest.approx(expected, rel=0.12), row["image"]


@pytest.mark.parametrize("composition, lines", [
    ("棉 100%", ["棉 100%"]),
    ("棉 95% 氨纶 5%", ["棉 95%", "氨纶 5%"]),
    ("再生纤维素纤维 60% 聚酯纤维 27% 氨纶 13%", ["再生纤维素纤维 60%", "聚酯纤维 27%", "氨纶 13%"]),
])
def test_a_slip_prints_one_fibre_to_a_line(composition, lines):
    from training.tagsets.third_designs import fibre_lines

    assert fibre_lines(composition) == lines
    assert " ".join(fibre_lines(composition)) == composition  # the truth's field is what the lines say in order


def test_the_slip_carries_a_red_stamp_over_its_rows_and_a_perforation():
    for seed in range(1, 5):
        art = DESIGNS["tear_slip"](seed, random_values(np.random.default_rng(seed)), 10.0)
        rgb = art.rgba[..., :3].astype(np.int16)
        red = (rgb[..., 0] - rgb[..., 1] > 50) & (rgb[..., 0] > 120)
        ys, xs = np.nonzero(red)
        assert red.sum() > 500 and 330 <= ys.mean() <= 720 and xs.mean() > 200, seed  # on the rows, right half
        alpha = art.rgba[..., 3]
        assert alpha[240, 2] == 0 and alpha[240, 210] == 255 and alpha[200, 2] == 255  # notches at the tear line


def test_the_shield_is_cut_to_a_point_and_centres_its_price():
    for seed in range(1, 7):
        values = random_values(np.random.default_rng(seed))
        art = DESIGNS["shield_centred"](seed, values, 10.0)
        alpha = art.rgba[..., 3]
        h, w = alpha.shape
        assert alpha[h - 3, 3] == 0 and alpha[h - 3, w - 4] == 0 and alpha[h - 3, w // 2] == 255
        assert alpha[int(0.6 * h), 1] == 255 and alpha[int(0.6 * h), w - 2] == 255
        price = art.fields["price"]
        assert price.endswith("元") or price.replace(" ", "").startswith("¥"), price
        assert price_amount(price) == Decimal(values.price)  # '¥ 79.00' (a raised '.00') or '79元' under 吊牌价


def test_a_condensed_line_is_narrower_by_its_squeeze_and_keeps_its_height():
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names
    from training.tagsets.third_designs import condensed, text_width

    face = font_names()[0]
    plain, squeezed = Card(60, 10, 10, (255, 255, 255)), Card(60, 10, 10, (255, 255, 255))
    natural = text_width(plain, "【品名】女士羊毛针织衫", 3.0, face)
    assert condensed(plain, 30, 2, "【品名】女士羊毛针织衫", 3.0, (0, 0, 0), face, 1.0, 56) == pytest.approx(natural, abs=0.2)
    assert condensed(squeezed, 30, 2, "【品名】女士羊毛针织衫", 3.0, (0, 0, 0), face, 0.74, 56) == pytest.approx(
        0.74 * natural, abs=0.3)

    def ink(card: Card) -> tuple[int, int]:
        dark = np.asarray(card.image.convert("L")) < 128
        return int(dark.any(axis=0).sum()), int(dark.any(axis=1).sum())

    (w_plain, h_plain), (w_squeezed, h_squeezed) = ink(plain), ink(squeezed)
    assert w_squeezed < 0.85 * w_plain and abs(h_squeezed - h_plain) <= 2


# -- the three designs added on 2026-12-03 (a brand-heavy QR-only tag, dotted leaders, a brand band) -----------

FOURTH = ("logo_face", "dotted_leaders", "brand_band")


def test_fourth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, FOURTH, 41)
    for row in rows:
        (tag,) = row["tags"]
        if row["design"] == "logo_face":  # the QR code is the only code, and the truth measures its module
            assert not tag["barcodes"] and len(tag["qr"]) == 1
            assert 0.5 < row["condition"]["barcode_module_px"] < 6.0, row["image"]


def test_fourth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, FOURTH, 42):
        defect = row["defect"]
        if defect and defect["field"]:
            (tag,) = row["tags"]
            if defect["field"] == "ean13":
                assert row["design"] != "logo_face" and {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


@pytest.mark.parametrize("price, form, printed", [
    ("1299.00", "thousands", "¥1,299.00"), ("69.90", "thousands", "¥69.90"),
    ("1299.00", "rmb_tight", "RMB1299"), ("69.90", "rmb_tight", "RMB69.90"),
    ("2999.00", "whole_thousands", "￥2,999"), ("399.00", "whole_thousands", "￥399"),
    ("69.90", "whole_thousands", "￥69.90"),
])
def test_fourth_price_forms_print_the_recipes_amount(price, form, printed):
    from training.tagsets.fourth_designs import price_form

    assert price_form(price, form) == printed
    assert price_amount(printed) == Decimal(price)


def test_a_leader_row_sets_its_value_flush_right_with_dots_and_splits_a_long_one_between_units():
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names
    from training.tagsets.fourth_designs import leader_row

    face = font_names()[0]
    card = Card(42, 12, 10, (255, 255, 255))
    assert leader_row(card, 2, 40, 1, "品名", "衬衫", 2.7, (0, 0, 0), face, face) == ["衬衫"]
    dark = np.asarray(card.image.convert("L")) < 128
    cols = np.nonzero(dark[:45].any(axis=0))[0]
    assert 390 <= cols.max() <= 401  # flush right at 40 mm (a glyph's side bearing short of it)
    band = dark[28:37, 140:320].any(axis=0)  # the leaders: dots between label and value, gaps between them
    assert 10 <= int(np.count_nonzero(np.diff(band.astype(np.int8)) == 1)) <= 30
    wide = Card(42, 12, 10, (255, 255, 255))
    lines = leader_row(wide, 2, 40, 1, "面料", "再生纤维素纤维 60% 聚酯纤维 27% 氨纶 13%", 2.7, (0, 0, 0), face, face)
    assert lines == ["再生纤维素纤维 60%", "聚酯纤维 27% 氨纶 13%"]  # the most even split after a share
    assert wide.smallest_print_px >= 20  # never below the smallest legal print (2.0 mm = 20 px here)


def test_a_brand_column_runs_top_to_bottom_and_labels_print_in_reverse():
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names, latin_font_names
    from training.tagsets.fourth_designs import chip, vertical_text

    def ink_box(card: Card) -> tuple[int, int]:
        light = np.asarray(card.image.convert("L")) > 128
        ys, xs = np.nonzero(light)
        return int(xs.max() - xs.min()), int(ys.max() - ys.min())

    for text, face in (("森屿", font_names()[0]), ("NORDA", latin_font_names()[0])):
        card = Card(16, 50, 10, (30, 30, 30))
        vertical_text(card, 8, 25, text, 6.0, (255, 255, 255), face, 44)
        w, h = ink_box(card)
        assert h > 1.6 * w, text  # a column, not a line
    card = Card(20, 8, 10, (255, 255, 255))
    width = chip(card, 1, 2, "品名", 2.4, (20, 60, 120), font_names()[0])
    pixels = np.asarray(card.image, np.int16)
    inside = pixels[20:40, 12:12 + int(width * 10) - 4]
    assert (inside[..., 2] - inside[..., 0] > 60).mean() > 0.5  # the chip's colour under the label
    assert (inside.min(axis=2) > 200).mean() > 0.05  # the label itself light, in reverse print


def test_the_logo_face_prints_a_qr_code_only_and_a_thousands_separated_price():
    import zxingcpp

    for seed in range(1, 5):
        values = random_values(np.random.default_rng(seed)).replace(price="1299.00")
        art = DESIGNS["logo_face"](seed, values, 8.0)
        assert not art.barcodes and len(art.qr) == 1 and art.fields["price"] == "¥1,299.00"
        decoded = {b.text for b in zxingcpp.read_barcodes(np.ascontiguousarray(art.rgba[..., :3]))}
        assert decoded == {art.qr[0].text} and values.style_number in art.qr[0].text
        panel = art.rgba[: int(0.5 * art.rgba.shape[0]), :, :3].astype(np.float32).mean()
        assert panel < 170  # the upper half is the brand's coloured panel


# -- the three designs added later on 2026-12-03 (a thermal label, a size run, a field block turned sideways) ----

FIFTH = ("thermal_label", "size_run", "sideways_block")


def test_fifth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, FIFTH, 51)
    for row in rows:
        (tag,) = row["tags"]
        assert len(tag["barcodes"]) == 1 and not tag["qr"]
        if row["design"] == "thermal_label":  # the label's Code 128 carries the style number
            assert tag["barcodes"][0] == {**tag["barcodes"][0], "format": "Code128", "text": tag["fields"]["style_number"]}
        assert row["condition"]["smallest_print_px"] > 0


def test_fifth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, FIFTH, 52):
        defect = row["defect"]
        if defect and defect["field"]:
            (tag,) = row["tags"]
            if defect["kind"] == "wrong_style_number" and row["design"] == "thermal_label":  # the label's code too
                assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


@pytest.mark.parametrize("size, run", [
    ("M", ("XS", "S", "M", "L", "XL", "XXL", "3XL")), ("2XL", ("XS", "S", "M", "L", "XL", "2XL", "3XL")),
    ("170/92A", ("155/80A", "160/84A", "165/88A", "170/92A", "175/96A", "180/100A", "185/104A")),
    ("190/108A", ("155/80A", "160/84A", "165/88A", "170/92A", "175/96A", "180/100A", "185/104A", "190/108A")),
    ("165/100B", ("155/92B", "160/96B", "165/100B", "170/104B", "175/108B", "180/112B", "185/116B")),
])
def test_a_size_run_holds_the_size_and_its_neighbours(size, run):
    from training.tagsets.fifth_designs import size_series
    from training.tagsets.values import LETTER_SIZES, neighbour_size

    assert size_series(size) == run
    if "/" in size:  # a mix-up on the line marks another size of the same printed run
        assert {neighbour_size(np.random.default_rng(k), size) for k in range(20)} <= set(run) | {"150/76A", "195/112A"}
    else:
        assert set(size_series(size)) | {"XXL" if size == "2XL" else "2XL"} >= set(LETTER_SIZES)


@pytest.mark.parametrize("mark", ["filled", "ring", "checkbox", "tick"])
def test_a_size_run_marks_the_garments_size_and_no_other(mark):
    from training.tagsets.canvas import Card
    from training.tagsets.fifth_designs import size_run_marks

    run = ("S", "M", "L", "XL", "XXL")
    card = Card(60, 8, 10, (255, 255, 255))
    boxes = size_run_marks(card, 2, 2.5, run, "L", 2.8, (0, 0, 0), fonts.font_names()[0], mark, 4.0, 58.0)
    assert len({b[1] for b in boxes}) == 1  # one row
    dark = np.asarray(card.image.convert("L")) < 128

    def ink(x1: float, y1: float, x2: float, y2: float) -> int:
        return int(dark[int(round(y1 * 10)):int(round(y2 * 10)), int(round(x1 * 10)):int(round(x2 * 10))].sum())

    def mark_ink(box) -> float:
        x1, y1, x2, y2 = box
        if mark == "filled":  # the box round the size: dark where the print is light
            return ink(x1 - 0.3, y1 - 0.3, x2 + 0.3, y2 + 0.3) / ((x2 - x1 + 0.6) * (y2 - y1 + 0.6) * 100)
        if mark == "ring":  # ink round the size, outside its own box
            return float(ink(x1 - 1.2, y1 - 1.0, x2 + 1.2, y2 + 1.0) - ink(x1, y1, x2, y2))
        return float(ink(x1 - 2.9, y1 - 1.0, x1 - 0.3, y2))  # the check box before the size, and a tick over it

    shares = [mark_ink(b) for b in boxes]
    others = max(s for k, s in enumerate(shares) if k != 2)
    assert shares[2] > 1.5 * others + (1 if mark == "ring" else 0), (mark, shares)


def test_a_thermal_label_prints_whole_dots_in_uneven_grey_and_its_code_in_whole_dot_modules():
    import zxingcpp

    from training.tagsets.canvas import Card
    from training.tagsets.fifth_designs import PRINTER_DPMM, code128_dots, dot_text, printer_faces, thermal_print

    face = printer_faces()[0]
    label = Card(56, 20, PRINTER_DPMM, (252, 252, 250))
    width = dot_text(label, 2, 2, "款号:ZS2023C", 20, face)
    assert 10 < width < 38 and label.smallest_print_px == 20
    values = np.unique(np.asarray(label.image))
    assert set(values.tolist()) <= {0, 250, 252}  # a dot is on or off: no grey edge before the head prints it
    code_w = code128_dots(label, "ZS2023C", 5, 8, 3, 7.0)  # a quiet zone of 10 modules (30 dots) either side
    assert abs(code_w * PRINTER_DPMM / 3 - round(code_w * PRINTER_DPMM / 3)) < 1e-6
    before = np.asarray(label.image).min(axis=2) < 128
    thermal_print(label, np.random.default_rng(3))
    grey = np.asarray(label.image, np.float32).min(axis=2)
    ink = grey[before]
    assert 20 < np.median(ink) < 110  # grey-black, not black
    columns = [np.median(grey[:, x][before[:, x]]) for x in range(0, before.shape[1]) if before[:, x].sum() > 20]
    assert max(columns) - min(columns) > 6  # the head's density varies across the label
    decoded = {b.text for b in zxingcpp.read_barcodes(np.ascontiguousarray(np.asarray(label.image)))}
    assert "ZS2023C" in decoded


def test_a_card_rescaled_keeps_its_codes_and_print_where_they_lie():
    import zxingcpp

    from training.tagsets.canvas import Card, rescaled
    from training.tagsets.layout import ean_block

    card = Card(40, 20, 8.0, (255, 255, 255))
    ean_block(card, "6901234567892", 4, 3, 32, 10, (0, 0, 0), fonts.font_names()[0])
    small = rescaled(card, 5.0)
    assert small.image.size == (200, 100) and small.mask.size == (200, 100)
    x1, y1, x2, y2 = small.barcodes[0].box
    assert (x1, y1, x2, y2) == pytest.approx((20, 15, 180, 65), abs=0.01)
    assert small.smallest_print_px == pytest.approx(card.smallest_print_px * 5 / 8)
    dark = np.asarray(small.image.convert("L")) < 128
    assert dark[int(y1):int(y2), int(x1):int(x2)].mean() > 0.3 and not dark[:int(y1) - 2].any()
    assert {b.text for b in zxingcpp.read_barcodes(np.asarray(small.image))} == {"6901234567892"}


@pytest.mark.parametrize("clockwise", [True, False])
def test_a_block_printed_a_quarter_turn_round_brings_its_code_and_keeps_the_stock(clockwise):
    import zxingcpp

    from training.tagsets.canvas import Card, print_turned
    from training.tagsets.layout import ean_block

    stock = (236, 232, 222)
    card = Card(30, 60, 8.0, stock)
    card.texture(np.random.default_rng(1), 3.0)
    before = np.asarray(card.image, np.float32)
    block = Card(50, 24, 8.0, stock)
    block.text(2, 2, "品名：衬衫", 3.0, (0, 0, 0), fonts.font_names()[0])
    ean_block(block, "6901234567892", 12, 8, 32, 10, (0, 0, 0), fonts.font_names()[0])
    print_turned(card, block, 3, 5, clockwise)
    after = np.asarray(card.image, np.float32)
    (code,) = card.barcodes
    x1, y1, x2, y2 = code.box
    assert y2 - y1 == pytest.approx(32 * 8) and x2 - x1 == pytest.approx(10 * 8)  # the code runs down the card
    assert 3 * 8 <= x1 and x2 <= 27 * 8 and 5 * 8 <= y1 and y2 <= 55 * 8
    dark = after.min(axis=2) < 100
    assert dark[int(y1) + 2:int(y2) - 2, int(x1) + 2:int(x2) - 2].mean() > 0.3
    # The block's top line (品名, 2-17 mm from its left) turns to the code's right near the card's top (clockwise)
    # or to its left near the foot (counter-clockwise); the digits under the bars turn to the other side.
    text_side = dark[:, int(x2) + 4:] if clockwise else dark[:, :int(x1) - 4]
    digit_side = dark[:, :int(x1) - 4] if clockwise else dark[:, int(x2) + 4:]
    rows = np.nonzero(text_side.any(axis=1))[0] / 8.0 - 5  # mm from the block's turned top edge
    assert len(rows) and (rows.max() < 18 if clockwise else rows.min() > 50 - 18), rows
    digit_rows = np.nonzero(digit_side.any(axis=1))[0]
    assert digit_rows.min() >= y1 - 1 and digit_rows.max() <= y2 + 1  # the digits run along the code
    unprinted = np.ones(dark.shape, bool)  # where the block has no ink: the stock and its texture unchanged
    plain = (np.asarray(block.image) == stock).all(axis=2)
    unprinted[40:40 + 400, 24:24 + 192] = np.rot90(plain, -1 if clockwise else 1)
    assert np.abs(after[unprinted] - before[unprinted]).max() <= 1.0
    assert (after[~unprinted] < before[~unprinted] - 1).any(axis=1).mean() > 0.9  # ink only darkens the stock
    assert {b.text for b in zxingcpp.read_barcodes(np.asarray(card.image))} == {"6901234567892"}


# -- the three designs added in the tenth session (a curled card, a price written by hand, a dense tag) -------------

SIXTH = ("curled_tag", "handwritten_price", "dense_tag")


def test_sixth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, SIXTH, 61)
    for row in rows:
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert len(tag["qr"]) == (1 if row["design"] == "dense_tag" else 0)
        assert row["condition"]["smallest_print_px"] > 0


def test_sixth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    rows_with_planted_defects(tmp_path, SIXTH, 62)


def test_a_curled_card_bows_its_rows_foreshortens_one_side_and_keeps_its_code_where_its_box_says():
    import zxingcpp

    from training.tagsets.canvas import Card
    from training.tagsets.layout import ean_block
    from training.tagsets.sixth_designs import curled

    card = Card(50, 60, 8.0, (255, 255, 255))
    card.line(2, 5, 48, 5, (0, 0, 0), 0.3)  # a rule near the top: it must bow
    for k in range(11):  # ticks every 4.6 mm: their spacing must shrink towards the side turning away
        card.line(2 + 4.6 * k, 8, 2 + 4.6 * k, 12, (0, 0, 0), 0.3)
    ean_block(card, "6901234567892", 7, 30, 36, 12, (0, 0, 0), fonts.font_names()[0])
    flat = card.finish({})
    art = curled(flat, 1.2, -0.2, 4.0 * flat.rgba.shape[1], 0.2)
    h, w = art.rgba.shape[:2]
    assert h == flat.rgba.shape[0] and w < flat.rgba.shape[1]  # the curve is seen narrower than the card
    dark = art.rgba[..., :3].min(axis=2) < 100
    rule = [int(np.nonzero(dark[:70, x])[0].mean()) for x in range(30, w - 30, 20) if dark[:70, x].any()]
    assert max(rule) - min(rule) >= 3, rule  # the straight rule bows: lower where the surface is nearest
    ticks = np.nonzero(np.diff(dark[80, :].astype(np.int8)) == 1)[0]
    gaps = np.diff(ticks)
    assert len(gaps) >= 8 and gaps[-1] < 0.8 * gaps.max(), gaps  # foreshortened towards the far side
    x1, y1, x2, y2 = art.barcodes[0].box
    assert 0 <= x1 < x2 <= w and dark[int(y1) + 3:int(y2) - 3, int(x1) + 2:int(x2) - 2].mean() > 0.3
    assert not dark[int(y2) + 2:int(y2) + 6, int(x1):int(x2)].mean() > 0.5
    assert {b.text for b in zxingcpp.read_barcodes(np.ascontiguousarray(art.rgba[..., :3]))} == {"6901234567892"}
    shade = art.rgba[200, :, :3].astype(float).mean(axis=1)
    assert shade[-3] < shade[int(np.argmax(shade))] - 10  # the far side falls away from the lamp


@pytest.mark.parametrize("price, form, written", [
    ("299.00", "yen", "¥299"), ("299.00", "bare", "299"), ("69.90", "yen", "¥69.90"), ("1099.00", "bare", "1099"),
])
def test_a_price_written_by_hand_states_the_recipes_amount_in_strokes_that_differ_each_time(price, form, written):
    from training.tagsets.canvas import Card
    from training.tagsets.sixth_designs import HAND_GLYPHS, hand_price, write_by_hand

    assert hand_price(price, form) == written and price_amount(written) == Decimal(price)
    assert set(written) <= set(HAND_GLYPHS)
    images = []
    for seed in (1, 2):
        card = Card(40, 14, 10, (255, 255, 255))
        width = write_by_hand(card, 3, 3, written, 7.0, (20, 40, 150), 0.6, np.random.default_rng(seed))
        dark = np.asarray(card.image.convert("L")) < 160
        ys, xs = np.nonzero(dark)
        assert 25 <= xs.min() and xs.max() <= (3 + width + 2) * 10 and 15 <= ys.min() and ys.max() <= 115
        columns = np.nonzero(dark.any(axis=0))[0]
        assert np.count_nonzero(np.diff(columns) > 3) >= len(written) - 2  # the characters stand apart
        images.append(dark)
    assert (images[0] != images[1]).mean() > 0.01  # by hand: never the same twice


@pytest.mark.parametrize("kind, detail", [("wash", "40"), ("hand_wash", ""), ("no_bleach", ""), ("no_tumble", ""),
                                          ("iron", "2"), ("dry_clean", "P"), ("no_dry_clean", ""), ("line_dry", "")])
def test_a_care_symbol_is_a_line_icon_inside_its_square_and_not_small_print(kind, detail):
    from training.tagsets.canvas import Card
    from training.tagsets.sixth_designs import care_symbol

    card = Card(12, 12, 10, (255, 255, 255))
    care_symbol(card, kind, 2, 2, 8, (0, 0, 0), fonts.font_names()[0], detail)
    dark = np.asarray(card.image.convert("L")) < 128
    assert not dark[:15].any() and not dark[:, :15].any() and not dark[105:].any() and not dark[:, 105:].any()
    assert 0.04 < dark[20:100, 20:100].mean() < 0.4, dark[20:100, 20:100].mean()  # lines, not a filled block
    assert card.smallest_print_px == 0.0  # a symbol's figures are no print the reader must read
    with pytest.raises(ValueError, match="expected one of"):
        care_symbol(card, "bleach_any", 2, 2, 8, (0, 0, 0), fonts.font_names()[0])


# -- the three designs added in the eleventh session (an overprint off register, a glossy hotspot, a string) --------

SEVENTH = ("overprint_offset", "glossy_hotspot", "string_occluded")


def test_seventh_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, SEVENTH, 71)
    for row in rows:
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert row["condition"]["smallest_print_px"] > 0


def test_seventh_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, SEVENTH, 72):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":  # the overprinted bars carry the wrong EAN too
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_an_overprint_multiplies_its_ink_into_the_preprint_so_a_rule_it_crosses_stays_seen():
    from PIL import Image

    from training.tagsets.canvas import Card
    from training.tagsets.seventh_designs import _overprint

    for process in ("thermal", "inkjet"):
        card = Card(20, 10, 10, (250, 250, 246))
        card.line(0, 5, 20, 5, (150, 30, 42), 0.3)  # the form's rule, in the brand's ink
        before = np.asarray(card.image, np.float32)
        layer = Image.new("RGB", card.image.size, (255, 255, 255))
        layer.paste((0, 0, 0), (60, 20, 140, 80))  # the printer's ink, across the rule
        _overprint(card, layer, process, np.random.default_rng(1))
        after = np.asarray(card.image, np.float32)
        assert np.abs(after[:, :50] - before[:, :50]).max() <= 1  # no ink: the pre-print unchanged
        assert after[:, 150:].tolist() == before[:, 150:].tolist()
        inked = after[30:70, 70:130]
        assert np.median(inked.max(axis=2)) < 90, process  # black-ish over the stock
        assert (after[45:55, 70:130] <= before[45:55, 70:130] + 1).all()  # ink only darkens the rule


@pytest.mark.parametrize("text, room, lines", [
    ("棉 100%", 30.0, ["棉 100%"]),
    ("羊毛 80% 聚酯纤维 14% 粘纤 6%", 12.0, ["羊毛 80%", "聚酯纤维 14% 粘纤 6%"]),  # the lines balanced
    ("聚酯纤维 95% 桑蚕丝 5%", 10.0, ["聚酯纤维 95%", "桑蚕丝 5%"]),
])
def test_a_printer_sets_a_long_fibre_content_on_two_lines_split_between_fibres(text, room, lines):
    from training.tagsets.seventh_designs import units_in_lines

    assert units_in_lines(text, room, lambda t: len(t) * 0.9) == lines


def test_a_glossy_hotspot_is_brightest_at_its_centre_with_a_sheen_rising_across_the_card_and_never_blinds():
    from training.tagsets.seventh_designs import hotspot_cover

    cover = hotspot_cover((400, 200), 4.0, (25.0, 50.0), (8.0, 4.0), 0.0, 0.55, (0.0, 0.0, 0.1))
    assert cover[200, 100] == pytest.approx(0.55)  # reflection, halo and sheen together never above the peak
    assert cover.max() <= 0.55 and cover.min() >= 0.0  # print under it keeps 45 % of its contrast
    assert cover[200, 100] > cover[200, 100 + 40] + 0.3  # 10 mm along: past the 8-mm half axis
    assert cover[200, 100 + 20] > cover[200 + 20, 100] + 0.15  # 5 mm: inside along its axis, outside across
    assert cover[5, 195] > cover[5, 5] + 0.08


def test_the_share_of_each_character_hidden_is_measured_cell_by_cell():
    from training.tagsets.canvas import Card
    from training.tagsets.seventh_designs import cell_shares

    card = Card(40, 10, 10, (255, 255, 255))
    width = card.text(2, 2, "ABCDEFGH", 4.0, (0, 0, 0), fonts.latin_font_names()[0])
    cover = np.zeros(card.image.size[::-1], np.float32)
    cover[:, 20:40] = 1.0  # the first 2 mm of the print hidden: "A" and a little of "B"
    (cells,) = cell_shares(card, {"f": (2, 2, 2 + width, 6.6)}, cover, 2.0).values()
    assert cells[0] > 0.9 and 0.0 < cells[1] < cells[0]  # the cells overlap: a quarter cell on, less hidden
    assert cells[-1] == 0.0 and sorted(cells)[len(cells) // 2] == 0.0 and len(cells) >= 4 * 6


@pytest.mark.parametrize("kind", ["cord", "pin"])
def test_a_string_follows_its_path_and_ends_in_a_knot_or_a_t_bar(kind):
    from training.tagsets.seventh_designs import draw_string, string_path

    path = string_path((20.0, 5.0), (14.0, 40.0), 4.0)
    assert path[0].tolist() == [20.0, 5.0] and path[-1].tolist() == [14.0, 40.0]
    chord = np.array([14.0 - 20.0, 35.0])
    mid = path[len(path) // 2] - path[0]
    off = (chord[0] * mid[1] - chord[1] * mid[0]) / np.linalg.norm(chord)
    assert abs(off) == pytest.approx(2.0, abs=0.1)  # a quadratic bowed 4 mm bends its middle 2 mm off the chord
    rgb, cover = draw_string((400, 500), 10.0, kind, path, (170, 30, 36), np.random.default_rng(2))
    hidden = np.asarray(cover) > 0
    for x, y in path[::6] * 10:
        assert hidden[int(y), int(x)]
    assert not hidden[:, :60].any() and not hidden[:, 300:].any() and not hidden[:30].any()
    end = hidden[385:415]  # the knot or the T-bar is wider than the string above it
    assert end.any(axis=0).sum() > 1.5 * hidden[250:260].any(axis=0).sum()


@pytest.mark.parametrize("kind", ["cord", "pin"])
def test_a_string_laid_on_the_print_hides_a_sliver_of_a_character_at_most_and_never_the_bars(kind):
    """A string over half an 8 makes a 3 (a good tag of the first seventh set was read KX-81730 for KX-81780)."""
    from training.tagsets.canvas import Card
    from training.tagsets.layout import ean_block
    from training.tagsets.seventh_designs import cell_shares, field_rows, lay_string, printed_rows

    face = fonts.font_names()[0]
    across = 0
    for seed in range(4):
        card = Card(50, 95, 5.0, (252, 252, 248))
        rows = field_rows(random_values(np.random.default_rng(seed)), np.random.default_rng(seed))
        boxes, _ = printed_rows(card, 5, 22.5, rows, 2.9, 4.8, (0, 0, 0), (0, 0, 0), face, face, 41)
        ean_block(card, "6901234567892", 7, 80.0, 36, 9.0, (0, 0, 0), face)
        code = card.barcodes[0].box
        _, cover = lay_string(card, boxes, code, (25.0, 6.5), kind, (30, 30, 32), np.random.default_rng(seed), seed)
        hidden = np.asarray(cover, np.float32) / 255.0
        worst = max(max(cells) for cells in cell_shares(card, boxes, hidden, 1.45).values())
        assert worst <= 0.2, (kind, seed, worst)
        assert not hidden[int(code[1]) - 2:int(code[3]) + 2, int(code[0]) - 2:int(code[2]) + 2].any()
        if hidden[150:].any():  # across the rows
            across += 1
        else:  # or, where no way across hides little enough, sideways above them
            assert not hidden[int(22.5 * 5):].any()
    assert across >= 3, across  # a tag's eight rows leave ways across


# -- the three designs added in the thirteenth session (a round die-cut tag, a booklet opened, a QR-first tag) ------

EIGHTH = ("round_diecut", "folded_booklet", "qr_first")


def test_eighth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, EIGHTH, 81)
    for row in rows:
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert len(tag["qr"]) == (1 if row["design"] == "qr_first" else 0)
        assert row["condition"]["smallest_print_px"] > 0


def test_eighth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, EIGHTH, 82):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def ink_inside(art, paper_delta: float = 60.0) -> np.ndarray:
    """Where the card carries dark print (well below its own paper), as a mask of card pixels."""
    rgb = art.rgba[..., :3].astype(np.float32).mean(axis=2)
    paper = np.median(rgb[art.rgba[..., 3] > 0])
    return (rgb < paper - paper_delta) & (art.rgba[..., 3] > 0)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_round_tag_fits_every_row_inside_its_curve_and_rows_differ_in_width(seed):
    """Print inside the printed ring (2 mm in from the edge) only, the ring itself aside: no row runs off the curve."""
    from training.tagsets.eighth_designs import round_diecut

    scale = 6.0
    art = round_diecut(seed, random_values(np.random.default_rng(seed)), scale)
    h, w = art.rgba.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.sqrt(((x - w / 2) / (w / 2)) ** 2 + ((y - h / 2) / (h / 2)) ** 2)  # 1 on the outline
    inner = 1.0 - 2.6 * scale / (min(w, h) / 2)  # inside the ring, with half a millimetre for its stroke
    ink = ink_inside(art)
    assert ink[r > 1.0].sum() == 0 and ink[r <= inner].sum() > 0.02 * ink.size
    printed = ink & (r <= inner)
    ring = ink & (r > inner)
    assert ring.sum() > 0  # the ring is printed
    assert (art.rgba[..., 3][printed] == 255).all()
    inked = np.concatenate([[False], printed.any(axis=1), [False]])
    starts, ends = np.nonzero(np.diff(inked.astype(int)) == 1)[0], np.nonzero(np.diff(inked.astype(int)) == -1)[0]
    bands = [(a, b) for a, b in zip(starts, ends) if b - a >= 1.2 * scale]  # lines of print, top to bottom
    assert len(bands) >= 10, bands  # brand, eight rows, price, code
    widths = []
    for a, b in bands:
        cols = np.nonzero(printed[a:b].any(axis=0))[0]
        assert abs((cols.min() + cols.max()) / 2 - w / 2) < 1.5 * scale, (a, b)  # every line centred
        widths.append(int((cols.max() - cols.min()) / scale))
    assert len(set(widths)) >= 5, widths  # of different widths


def test_an_open_booklet_shows_its_fold_a_brightness_step_and_the_hole_twice():
    from training.tagsets.eighth_designs import folded_booklet

    scale = 6.0
    for seed in (1, 2, 3):
        art = folded_booklet(seed, random_values(np.random.default_rng(seed)), scale)
        h, w = art.rgba.shape[:2]
        fold = w // 2
        luma = art.rgba[..., :3].astype(np.float32).mean(axis=2)
        band = slice(int(0.45 * h), int(0.55 * h))
        left = np.median(luma[band, fold - int(12 * scale):fold - int(4 * scale)])
        right = np.median(luma[band, fold + int(4 * scale):fold + int(12 * scale)])
        assert 0.03 < abs(left - right) / max(left, right) < 0.13, (seed, left, right)  # a slight step
        crease = luma[band, fold - 2:fold + 2].min(axis=1)
        assert (crease < min(left, right) - 20).all()  # the crease runs down the fold
        holes = [(c, r) for c in range(w) for r in (int(6 * scale),) if art.rgba[r, c, 3] == 0 and 0 < c < w - 1]
        xs = np.asarray([c for c, _ in holes])
        assert xs.size and abs((xs[xs < fold].mean() + xs[xs > fold].mean()) / 2 - fold) < scale  # mirrored
        assert art.rgba[band, fold, 3].all()  # one card, not two


def test_a_condensed_label_and_a_wide_value_keep_their_height_and_scale_their_width():
    from training.tagsets.canvas import Card
    from training.tagsets.eighth_designs import stretched_text

    face = fonts.font_names()[0]
    widths, inked, heights = {}, {}, {}
    for stretch in (0.7, 1.0, 1.15):
        card = Card(60, 12, 10.0, (255, 255, 255))
        widths[stretch] = stretched_text(card, 2, 2, "品名：羊毛衫", 4.0, (0, 0, 0), face, stretch)
        ink = np.asarray(card.image.convert("L")) < 128
        cols, rows = np.nonzero(ink.any(axis=0))[0], np.nonzero(ink.any(axis=1))[0]
        inked[stretch], heights[stretch] = np.ptp(cols), np.ptp(rows)
        assert cols.min() >= 20 - 2 and inked[stretch] / 10.0 <= widths[stretch] + 0.2  # from x, within its width
    for stretch in (0.7, 1.15):
        assert widths[stretch] == pytest.approx(stretch * widths[1.0], rel=0.03)
        assert inked[stretch] == pytest.approx(stretch * inked[1.0], rel=0.04)
    assert max(heights.values()) - min(heights.values()) <= 2


def test_a_qr_first_tag_puts_a_large_qr_on_top_small_grey_fields_and_a_large_dark_price_below():
    import zxingcpp

    from training.tagsets.eighth_designs import qr_first

    scale = 8.0
    for seed in (1, 2, 3):
        art = qr_first(seed, random_values(np.random.default_rng(seed)), scale)
        h = art.rgba.shape[0]
        (qr,) = art.qr
        assert qr.box[3] < 0.4 * h and (qr.box[2] - qr.box[0]) / scale >= 25.0  # large, on top
        (code,) = art.barcodes
        decoded = {b.text for b in zxingcpp.read_barcodes(np.ascontiguousarray(art.rgba[..., :3]))}
        assert {qr.text, code.text} <= decoded
        luma = art.rgba[..., :3].astype(np.float32).mean(axis=2)
        table = luma[int(qr.box[3] + 8 * scale):int(code.box[1] - 3 * scale)]
        price = luma[int(h - 12.5 * scale):int(h - 5 * scale)]
        darkest_field, darkest_price = np.percentile(table, 0.5), np.percentile(price, 0.5)
        assert 75 < darkest_field < 130  # the fields in grey: lighter than black ink, darker than a hairline
        assert darkest_price < 60 and darkest_field > darkest_price + 35  # the price dark
        assert art.smallest_print_px / scale >= 2.0  # small, never below the smallest legal print


# -- the three designs added in the fifteenth session (a price list in currencies, vertical columns, clear PVC) -----

NINTH = ("currency_list", "vertical_columns", "clear_pvc")


def test_ninth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    rows = deterministic_rows(tmp_path, NINTH, 91)
    for row in rows:
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        quad = np.asarray(tag["quad"])  # a see-through card's box is still its outline's (rounded corners aside)
        x1, y1, x2, y2 = tag["xyxy"]
        (qx1, qy1), (qx2, qy2) = quad.min(axis=0), quad.max(axis=0)
        assert x2 - x1 >= 0.93 * (qx2 - qx1) and y2 - y1 >= 0.93 * (qy2 - qy1), (row["image"], row["design"])


def test_ninth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, NINTH, 92):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


@pytest.mark.parametrize("price, rmb_per_unit, whole, asked", [
    ("399.00", 7.2, False, "56.00"), ("1099.00", 9.1, False, "120.90"), ("69.90", 7.2, False, "10.00"),
    ("88.00", 0.92, True, "100"), ("1299.00", 0.048, True, "27,090"), ("2999.00", 0.225, True, "13,390"),
])
def test_a_foreign_price_is_converted_and_rounded_up_as_shops_price(price, rmb_per_unit, whole, asked):
    from training.tagsets.ninth_designs import foreign_amount

    assert foreign_amount(price, rmb_per_unit, whole) == asked


def test_a_price_list_carries_the_recipes_amount_once_in_rmb_and_not_always_first():
    from training.tagsets.ninth_designs import currency_list, price_entries, printed_price

    forms, places = set(), set()
    for seed in range(40):
        values = random_values(np.random.default_rng(seed))
        entries, at, form = price_entries(values.price, np.random.default_rng(seed))
        forms.add(form)
        places.add(at == 0)
        assert 3 <= len(entries) <= 5
        amounts = [price_amount(amount) if any(ch.isdigit() for ch in amount) else None for _, amount in entries]
        assert [a == Decimal(values.price) for a in amounts].count(True) == 1 and amounts[at] == Decimal(values.price)
        assert price_amount(printed_price(entries[at], form)) == Decimal(values.price)
        art = currency_list(seed, values, 6.0)
        assert price_amount(art.fields["price"]) == Decimal(values.price)
        assert art.fields["price"].split()[0] in ("RMB", "CNY", "CN¥") or art.fields["price"].startswith("¥")
    assert forms == {"code", "symbol", "region"} and places == {True, False}


def test_every_character_a_price_list_prints_in_a_latin_face_exists_in_every_latin_font():
    from training.tagsets.ninth_designs import CURRENCIES

    printed = {c for code, symbol, _, _, _ in CURRENCIES for c in code + symbol} | set("RMBCNY¥ 0123456789,./")
    for name in fonts.latin_font_names():
        face = fonts.font(name, 40)
        box = np.asarray(face.getmask("\U000F0000")).tobytes()
        missing = [c for c in sorted(printed - {" "}) if np.asarray(face.getmask(c)).tobytes() == box]
        assert not missing, (name, "".join(missing))


@pytest.mark.parametrize("text, cut", [
    ("GB 18401-2010 B类", [("GB 18401-2010 B", False), ("类", True)]),
    ("棉 95% 氨纶 5%", [("棉", True), ("95%", False), ("氨纶", True), ("5%", False)]),
    ("￥399元", [("￥", True), ("399", False), ("元", True)]),
    ("polo衫", [("polo", False), ("衫", True)]),
    ("GB/T 2664-2017", [("GB/T 2664-2017", False)]),
])
def test_vertical_setting_cuts_a_value_into_upright_cjk_and_latin_runs(text, cut):
    from training.tagsets.ninth_designs import runs

    assert runs(text) == cut


def ink_box(card) -> tuple[int, int]:
    """(width, height) in pixels of the dark print on a card drawn on white."""
    ink = np.asarray(card.image.convert("L")) < 128
    cols, rows = np.nonzero(ink.any(axis=0))[0], np.nonzero(ink.any(axis=1))[0]
    return int(np.ptp(cols)) + 1, int(np.ptp(rows)) + 1


@pytest.mark.parametrize("latin", ["turned", "upright"])
def test_a_column_runs_top_to_bottom_and_a_latin_run_is_turned_or_stacked(latin):
    from training.tagsets.canvas import Card
    from training.tagsets.ninth_designs import column_text

    face, scale, size = fonts.font_names()[0], 10.0, 3.0
    run = "GB/T 2664-2017"
    card = Card(20, 120, scale, (255, 255, 255))
    end = column_text(card, 10, 2, "执行标准" + run, size, (0, 0, 0), face, latin)
    width, height = ink_box(card)
    assert width <= 1.25 * size * scale and height >= 5 * width  # one narrow column
    assert end * scale >= height  # the column's end is below its ink
    flat = Card(80, 10, scale, (255, 255, 255))
    flat.text(1, 1, run, size, (0, 0, 0), face)
    run_length = ink_box(flat)[0]
    cjk = 4 * size * 1.06 * scale
    if latin == "turned":  # the run a quarter turn round: as long down the column as it is wide set flat
        assert height - cjk == pytest.approx(run_length, rel=0.2)
    else:  # stacked one character under the other: much longer
        assert height - cjk > 1.4 * run_length


def test_vertical_columns_read_right_to_left_with_the_brand_rightmost():
    from training.tagsets.ninth_designs import vertical_columns

    scale = 6.0
    for seed in (1, 2, 3, 4):
        values = random_values(np.random.default_rng(seed))
        art = vertical_columns(seed, values, scale)
        h, w = art.rgba.shape[:2]
        luma = art.rgba[..., :3].astype(np.float32).mean(axis=2)
        paper = np.median(luma)
        band = luma[int(13 * scale):int(40 * scale), int(5 * scale):w - int(5 * scale)] < paper - 60
        inked = np.concatenate([[False], band.sum(axis=0) > 2, [False]]).astype(int)
        starts = np.nonzero(np.diff(inked) == 1)[0]
        assert len(starts) >= 10, (seed, len(starts))  # the brand and nine fields, each its own column
        assert art.fields["price"] and set(art.fields) >= JUDGED_FIELDS


def test_a_clear_pvc_tag_lets_what_lies_under_it_show_through_its_stock_but_not_its_ink_or_code():
    from training.tagsets.ninth_designs import clear_pvc

    scale = 8.0
    seen = set()
    for seed in range(1, 7):
        art = clear_pvc(seed, random_values(np.random.default_rng(seed)), scale)
        alpha = art.rgba[..., 3].astype(np.float32) / 255.0
        rgb = art.rgba[..., :3].astype(np.float32)
        on_black, on_white = rgb * alpha[..., None], rgb * alpha[..., None] + 255.0 * (1 - alpha[..., None])
        h, w = alpha.shape
        stock = alpha[int(0.45 * h):int(0.6 * h), int(0.75 * w):int(0.92 * w)]  # right of the rows, clear of print
        seen.add(bool(np.median(stock) > 0.5))
        assert 0.15 < np.median(stock) < 0.8, (seed, np.median(stock))
        (code,) = art.barcodes
        x1, y1, x2, y2 = (int(v) for v in code.box)
        assert alpha[y1:y2, x1:x2].min() > 0.98  # the code on an opaque white underprint
        assert np.abs(on_white - on_black)[y1:y2, x1:x2].max() < 4
        ink = (rgb.mean(axis=2) < 90) & (alpha > 0.9)
        assert ink.sum() > 0.01 * alpha.size  # the print is opaque ink
        edge = art.rgba[..., 3] > 127  # the rim keeps the whole outline: a box from it is the card's
        rows, cols = np.nonzero(edge.any(axis=1))[0], np.nonzero(edge.any(axis=0))[0]
        assert (rows.min(), cols.min(), rows.max(), cols.max()) == (0, 0, h - 1, w - 1)
        assert edge[h // 2, :2].all() and edge[h // 2, -2:].all()  # the rim down both long edges
    assert seen == {True, False}  # frosted and clear stock


# -- the three designs added on 2026-12-04 (two-row tables, a rubber-stamped price, each label over its value) -----

TENTH = ("two_row_table", "stamped_price", "label_over_value")


def test_tenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, TENTH, 101):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        if row["bucket"] == "nominal":  # nothing below a 2.0 mm em: 5.4 px on the 114 mm tag at 310 px
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_tenth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, TENTH, 102):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_a_stamped_price_is_inked_in_the_stamps_colour_inside_its_box():
    from training.tagsets.tenth_designs import stamped_price

    for seed in range(1, 5):
        art = stamped_price(seed, random_values(np.random.default_rng(seed)), 8.0)
        rgb = art.rgba[..., :3].astype(np.int16)
        h = rgb.shape[0]
        box = rgb[int(0.62 * h):int(0.86 * h)]  # the price box, between the rows and the code
        r, g, b = box[..., 0], box[..., 1], box[..., 2]
        stamp_ink = (b - g > 25) | ((r - g > 80) & (r - b > 80))  # violet, blue or red; never kraft, black or navy
        assert stamp_ink.sum() > 150, seed
        assert art.fields["price"][0] in "¥￥"


# -- the three designs added in the nineteenth session (boxed cells, bar-parted lines, a struck-through price) -----

ELEVENTH = ("boxed_cells", "bar_lines", "sale_reprice")


def test_eleventh_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, ELEVENTH, 111):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_eleventh_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, ELEVENTH, 112):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


@pytest.mark.parametrize("price, discount, was", [
    ("399.00", 0.2, "499.00"), ("79.00", 0.5, "159.00"), ("1299.00", 0.3, "1899.00"), ("69.90", 0.2, "89.00"),
])
def test_a_marked_down_price_was_a_shops_round_price_above_the_new_one(price, discount, was):
    from training.tagsets.eleventh_designs import old_price

    class Fixed:
        def choice(self, _):
            return discount

    assert old_price(price, Fixed()) == was


def test_a_reprice_tag_names_the_new_price_and_prints_the_old_one_too():
    from training.tagsets.eleventh_designs import sale_reprice

    for seed in range(1, 6):
        values = random_values(np.random.default_rng(seed))
        art = sale_reprice(seed, values, 6.0)
        assert price_amount(art.fields["price"]) == Decimal(values.price)
        assert art.fields["composition"] == values.composition


# -- the three designs added in the twentieth session (justified labels, letter-spaced values, a size badge) ---------

TWELFTH = ("spread_labels", "tracked_caps", "stripe_badge")


def test_twelfth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, TWELFTH, 121):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_twelfth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, TWELFTH, 122):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_twelfth_designs_never_print_below_the_smallest_legal_print():
    from training.tagsets.canvas import MIN_PRINT_MM

    for seed in range(1, 25):
        values = random_values(np.random.default_rng(seed))
        for design in TWELFTH:
            art = DESIGNS[design](seed, values, 10.0)
            assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed, art.fields)
            assert art.fields["composition"] == values.composition and art.fields["size"] == values.size


def ink_columns(card) -> np.ndarray:
    pixels = np.asarray(card.image, np.int16).mean(axis=2)
    return np.flatnonzero((pixels < 128).any(axis=0))


def test_a_justified_label_ends_where_the_widest_does():
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names
    from training.tagsets.layout import BLACK
    from training.tagsets.twelfth_designs import spread_text

    for face in font_names():
        wide, short = Card(40, 8, 10.0, (255, 255, 255)), Card(40, 8, 10.0, (255, 255, 255))
        width = wide.text(2, 2, "执行标准", 3.0, BLACK, face)
        assert spread_text(short, 2, 2, "品名", width, 3.0, BLACK, face) == width
        (a, b), (c, d) = ink_columns(wide)[[0, -1]], ink_columns(short)[[0, -1]]
        assert abs(a - c) <= 3 and abs(b - d) <= 3, face  # 品 under 执, 名 under 准
        gap = np.diff(ink_columns(short)).max()
        assert gap > 10.0 * 3.0, face  # more than a character's width of bare card between 品 and 名


def test_tracked_values_are_letter_spaced_and_give_up_tracking_before_size():
    from training.tagsets.canvas import Card
    from training.tagsets.layout import BLACK
    from training.tagsets.twelfth_designs import tracked_text, tracked_width

    face = "wqy-microhei"
    card = Card(60, 8, 10.0, (255, 255, 255))
    plain = card.text(0, 0, "W2301", 3.0, BLACK, face)
    assert tracked_width(card, "W2301", 3.0, face, 0.4) == pytest.approx(plain + 4 * 0.4 * 3.0, abs=0.01)
    tight = Card(60, 8, 10.0, (255, 255, 255))
    used = tracked_text(tight, 1, 1, "W2301", 3.0, BLACK, face, 0.4, plain + 2 * 0.4 * 3.0)
    assert used == pytest.approx(plain + 4 * 0.2 * 3.0, abs=0.01)  # the tracking halved, the size kept


@pytest.mark.parametrize("price, rate, member", [
    ("399.00", 0.9, "359.00"), ("69.90", 0.85, "59.00"), ("1299.00", 0.88, "1143.00"), ("1000.00", 0.8, "800.00"),
])
def test_a_member_price_is_the_price_at_the_rate_in_whole_yuan(price, rate, member):
    from training.tagsets.twelfth_designs import member_price

    assert member_price(price, rate) == member


def test_a_badge_tag_names_the_retail_price_not_the_members():
    from training.tagsets.twelfth_designs import stripe_badge

    for seed in range(1, 9):
        values = random_values(np.random.default_rng(seed))
        art = stripe_badge(seed, values, 6.0)
        assert price_amount(art.fields["price"]) == Decimal(values.price)


# -- the three designs added in the twenty-first session (numbers among the fields, a zebra table, pale labels) ------

THIRTEENTH = ("batch_codes", "zebra_table", "pale_serif")


def test_thirteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, THIRTEENTH, 131):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and not tag["qr"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_thirteenth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, THIRTEENTH, 132):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_thirteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print():
    from training.tagsets.canvas import MIN_PRINT_MM

    for seed in range(1, 25):
        values = random_values(np.random.default_rng(seed))
        for design in THIRTEENTH:
            art = DESIGNS[design](seed, values, 10.0)
            assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed, art.fields)
            assert art.fields["composition"] == values.composition, (design, seed)
            assert price_amount(art.fields["price"]) == Decimal(values.price), (design, seed)
            if design == "zebra_table":
                assert values.size in art.fields["size"], (seed, art.fields["size"])
            else:
                assert art.fields["size"] == values.size


def test_a_batch_number_is_never_the_style_number_and_is_printed_beside_the_fields():
    from training.tagsets.thirteenth_designs import batch_number

    rng = np.random.default_rng(5)
    batches = {batch_number(rng, "20261015") for _ in range(200)}
    assert "20261015" not in batches and len(batches) > 50
    assert any("-" in b for b in batches) and any(b[0].isalpha() for b in batches) and any(b.isdigit() for b in batches)


@pytest.mark.parametrize("size, form, printed", [
    ("M", 0, "M(165/88A)"), ("XL", 1, "175/96A(XL)"), ("170/92A", 0, "L(170/92A)"), ("185/100B", 2, "3XL（185/100B）"),
    ("160/84Y", 1, "160/84Y(S)"),
])
def test_a_size_is_printed_as_letter_and_hao_together(size, form, printed):
    from training.tagsets.thirteenth_designs import letter_and_hao

    assert letter_and_hao(size, form) == printed


@pytest.mark.parametrize("price, form, printed", [
    ("299.00", 0, "299.00元"), ("299.00", 1, "299元"), ("69.90", 1, "69.90元"), ("1099.00", 2, "¥1099.00"),
])
def test_a_shop_price_is_printed_with_yuan_after_or_yen_before(price, form, printed):
    from training.tagsets.thirteenth_designs import shop_price

    assert shop_price(price, form) == printed


def test_mixed_runs_set_latin_apart_from_chinese_and_a_slant_leans_the_top_right():
    from training.tagsets.canvas import Card
    from training.tagsets.layout import BLACK
    from training.tagsets.thirteenth_designs import runs, slanted_text

    assert runs("棉 95% 氨纶 5%") == [("棉", False), (" 95% ", True), ("氨纶", False), (" 5%", True)]
    upright, slanted = Card(30, 10, 10.0, (255, 255, 255)), Card(30, 10, 10.0, (255, 255, 255))
    slanted_text(upright, 2, 2, "I", 5.0, BLACK, "wqy-microhei", 0.0)
    slanted_text(slanted, 2, 2, "I", 5.0, BLACK, "wqy-microhei", 0.25)

    def columns(card, rows):
        ink = np.asarray(card.image, np.int16).mean(axis=2)[rows] < 128
        return np.flatnonzero(ink.any(axis=0)).mean()

    top, foot = slice(25, 35), slice(60, 68)
    assert columns(slanted, top) - columns(slanted, foot) > 4  # the stem leans right
    assert abs(columns(upright, top) - columns(upright, foot)) < 1.5



def test_a_bold_run_weighs_the_same_at_every_scale_and_more_than_a_plain_one():
    """Emboldening by a whole-pixel stroke would make small print a smear and large print barely bold."""
    from training.tagsets.canvas import Card
    from training.tagsets.layout import BLACK
    from training.tagsets.thirteenth_designs import slanted_text

    def ink_mm2(px_per_mm, bold):
        card = Card(30, 8, px_per_mm, (255, 255, 255))
        slanted_text(card, 1, 1, "W2301", 3.0, BLACK, "wqy-microhei", 0.0, bold=bold)
        return (255 - np.asarray(card.image, np.float64).mean(axis=2)).sum() / 255 / px_per_mm ** 2

    small, large = ink_mm2(4.0, True), ink_mm2(12.0, True)
    assert abs(small - large) / large < 0.25
    assert large > 1.15 * ink_mm2(12.0, False)
