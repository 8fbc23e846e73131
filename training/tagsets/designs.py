"""Eighty-five hangtag designs (seven here, three each in fresh_designs, third_designs, fourth_designs, fifth_designs,
sixth_designs, seventh_designs, eighth_designs, ninth_designs, tenth_designs, eleventh_designs, twelfth_designs,
thirteenth_designs, fourteenth_designs, fifteenth_designs, sixteenth_designs, seventeenth_designs, eighteenth_designs,
nineteenth_designs, twentieth_designs, twentyfirst_designs, twentysecond_designs, twentythird_designs,
twentyfourth_designs, twentyfifth_designs, twentysixth_designs and twentyseventh_designs),
each from a common
Chinese retail convention; none shares layout with training.synth.

A design draws one card from a job's values at a given scale and says what it printed, field by field,
exactly as printed ("RMB 1,099.00", "￥199元"). Its look (font, ink, label wording) comes from
`style_seed`, so every image of a job shows the same card.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighteenth_designs import foil_stamped, held_fingers, polybag_sealed
from training.tagsets.eighth_designs import folded_booklet, qr_first, round_diecut
from training.tagsets.eleventh_designs import bar_lines, boxed_cells, sale_reprice
from training.tagsets.fifteenth_designs import down_fill, size_chart, slash_pairs
from training.tagsets.fifth_designs import sideways_block, size_run, thermal_label
from training.tagsets.fonts import font_names
from training.tagsets.fourteenth_designs import hologram_seal, split_columns, tick_form
from training.tagsets.fourth_designs import brand_band, dotted_leaders, logo_face
from training.tagsets.fresh_designs import english_first, price_sticker, two_column
from training.tagsets.layout import BLACK
from training.tagsets.layout import ean_block as _ean_block
from training.tagsets.layout import money as _money
from training.tagsets.layout import pick as _pick
from training.tagsets.layout import row as _row
from training.tagsets.nineteenth_designs import (bra_cup, bra_values, jeans_values, jeans_waist, kids_height,
                                                 kids_values)
from training.tagsets.ninth_designs import clear_pvc, currency_list, vertical_columns
from training.tagsets.seventh_designs import glossy_hotspot, overprint_offset, string_occluded
from training.tagsets.seventeenth_designs import cij_inkjet, spec_line, woven_label
from training.tagsets.sixteenth_designs import correction_sticker, fullwidth_print, hung_upside_down
from training.tagsets.sixth_designs import curled_tag, dense_tag, handwritten_price
from training.tagsets.tenth_designs import label_over_value, stamped_price, two_row_table
from training.tagsets.third_designs import hairline_rows, shield_centred, tear_slip
from training.tagsets.thirteenth_designs import batch_codes, pale_serif, zebra_table
from training.tagsets.twelfth_designs import spread_labels, stripe_badge, tracked_caps
from training.tagsets.twentieth_designs import punched_size, run_on_text, vertical_name
from training.tagsets.twentyfirst_designs import (blend_lining, blend_values, colour_code, grouped_style,
                                                  grouped_style_values)
from training.tagsets.twentysecond_designs import promo_price, standards_line, twin_codes
from training.tagsets.twentythird_designs import halftone_photo, letterpress, reverse_cells
from training.tagsets.twentyfifth_designs import half_shadow, shoe_tag, shoe_values, steep_angle
from training.tagsets.twentyfourth_designs import east_asia_export, fold_across, size_conversion
from training.tagsets.twentysixth_designs import euro_export, ribbon_wrinkle, slanted_face
from training.tagsets.twentyseventh_designs import big_numerals, clear_film, metallic_board
from training.tagsets.values import TagValues


def vertical_classic(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """White vertical tag, punched hole, brand on top, labelled rows (colon style), EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    card = Card(50, 92, px_per_mm, _pick(rng, ((250, 250, 246), (244, 242, 236), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 2.0)
    card.rounded(2.5)
    card.hole(25, 6, 1.8)
    card.text(25, 11, v.brand, 7.0, BLACK, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(5, 20, 45, 20, BLACK)
    size_label = _pick(rng, ("号型：", "规格：", "尺码："))
    price_label = _pick(rng, ("零售价：", "吊牌价：", "统一零售价："))
    price = _money(v.price, _pick(rng, ("yen", "yen", "yuan")))
    rows = [("品名：", v.product_name, "product_name"), (_pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (_pick(rng, ("颜色：", "色号：")), v.color, "color"), (size_label, v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全技术类别：", v.safety_category, "safety_category")]
    y = 23.0
    for label, value, _ in rows:
        _row(card, 5, y, label, value, 3.0, BLACK, BLACK, face, value_face, 41, pitch=4.9)
        y += 4.9
    used = card.text(5, y + 1.0, price_label, 3.2, BLACK, face)
    card.text(5 + used + 0.6, y + 0.2, price, 4.6, BLACK, value_face, max_w_mm=40 - used, stroke=1)
    _ean_block(card, v.ean13, 6, 76, 38, 10, BLACK, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def dark_bilingual(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Dark vertical tag printed in gold or white, bilingual slash labels; Code 128 of the style number
    on a white block."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    stock = _pick(rng, ((20, 20, 22), (18, 30, 58), (22, 48, 36), (70, 16, 24)))
    ink = _pick(rng, ((214, 178, 96), (240, 240, 236), (226, 196, 120)))
    card = Card(54, 96, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 3.0)
    card.rounded(4.0)
    card.hole(27, 6.5, 2.0, ring=ink)
    card.text(27, 12, v.brand.upper(), 6.5, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    rows = [("品名/Name：", v.product_name, "product_name"), ("货号 Style No.", v.style_number, "style_number"),
            (_pick(rng, ("Colour 颜色", "颜色/Color：")), v.color, "color"),
            (_pick(rng, ("Size 号型", "号型/Size：")), v.size, "size"),
            ("成分/Fabric：", v.composition, "composition"), ("等级/Grade：", v.grade, "grade"),
            ("执行标准/Standard：", v.standard, "standard"), ("安全类别/Safety：", v.safety_category, "safety_category")]
    y = 23.0
    for label, value, _ in rows:
        _row(card, 5, y, label, value, 2.8, ink, ink, face, value_face, 44, pitch=4.6)
        y += 4.6
    price = _money(v.price, "rmb")
    card.text(5, y + 1.5, _pick(rng, ("零售价 Retail Price", "吊牌价 Price")), 2.6, ink, face)
    card.text(49, y + 5.0, price, 5.0, ink, value_face, anchor="ra", max_w_mm=42, stroke=1)
    card.rect((3, 78, 51, 93), fill=(250, 250, 250), radius_mm=1.0)
    card.linear_code(v.style_number, "Code128", 7, 79.5, 40, 8.5, BLACK)
    card.text(27, 88.6, v.style_number, 2.8, BLACK, value_face, anchor="ma")
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand.upper())
    return card.finish(fields)


def wide_price_block(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Horizontal tag: fields on the left, the price in light print on a coloured panel, size in a box."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    panel = _pick(rng, ((196, 32, 40), (228, 110, 20), (24, 70, 150), (30, 30, 30)))
    card = Card(104, 60, px_per_mm, _pick(rng, ((252, 252, 250), (246, 244, 238))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(2.0)
    card.hole(6, 6, 1.6)
    card.text(11, 3.5, v.brand, 5.0, BLACK, face, max_w_mm=40, stroke=1)
    rows = [("品名：", v.product_name, "product_name"), (_pick(rng, ("款号：", "型号：", "货号：")), v.style_number, "style_number"),
            (_pick(rng, ("色号：", "颜色：")), v.color, "color"), ("成分：", v.composition, "composition"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category"),
            ("等级：", v.grade, "grade")]
    y = 11.5
    for label, value, _ in rows:
        _row(card, 5, y, label, value, 2.7, BLACK, BLACK, face, value_face, 58, pitch=4.2)
        y += 4.2
    card.rect((68, 6, 100, 28), fill=panel, radius_mm=1.5)
    light: Color = (255, 255, 255) if panel != (228, 110, 20) else (255, 250, 230)
    card.text(84, 8.5, _pick(rng, ("吊牌价", "零售价", "统一零售价")), 3.0, light, face, anchor="ma")
    price = _money(v.price, _pick(rng, ("yen", "rmb")))
    card.text(84, 16.5, price, 5.2, light, value_face, anchor="ma", max_w_mm=29, stroke=1)
    card.text(70, 31.5, _pick(rng, ("规格", "号型")), 2.8, BLACK, face)
    card.rect((78, 30.5, 100, 40.5), outline=BLACK, width_mm=0.4)
    card.text(89, 31.6, v.size, 5.0, BLACK, value_face, anchor="ma", max_w_mm=19)
    _ean_block(card, v.ean13, 60, 44.5, 39, 9.0, BLACK, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, size=v.size, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def kraft_stamped(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Kraft stock with a reinforced hole, stamped dark ink, a QR code and an EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    stock = _pick(rng, ((190, 150, 104), (176, 136, 92), (200, 164, 118)))
    ink = _pick(rng, ((40, 28, 20), (22, 22, 26), (60, 30, 24)))
    card = Card(56, 90, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 6.0, fibres=True)
    card.rounded(6.0)
    card.hole(28, 7, 2.2, ring=(236, 224, 200))
    card.text(28, 13, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    rows = [("品名", v.product_name, "product_name"), (_pick(rng, ("型号", "款号")), v.style_number, "style_number"),
            (_pick(rng, ("色号", "颜色")), v.color, "color"), (_pick(rng, ("号型", "规格")), v.size, "size"),
            ("面料", v.composition, "composition"), ("执行标准", v.standard, "standard"),
            ("安全类别", v.safety_category, "safety_category"), ("等级", v.grade, "grade")]
    y = 22.5
    for label, value, _ in rows:
        _row(card, 5, y, label + "：", value, 2.9, ink, ink, face, value_face, 46, pitch=4.5)
        y += 4.5
    price = _money(v.price, _pick(rng, ("yuan", "yen")))
    card.text(5, y + 1.0, "零售价", 3.0, ink, face)
    card.text(5, y + 5.0, price, 5.0, ink, value_face, max_w_mm=27, stroke=1)
    card.qr_code(f"https://m.{v.brand.lower().replace('&', '')}.cn/p/{v.style_number}", 36, y - 0.5, 15, ink)
    card.stamp_wear(np.random.default_rng(style_seed + 2))
    _ean_block(card, v.ean13, 7, 74, 42, 9, ink, value_face)  # the code is printed, not stamped
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def big_size_corner(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Pastel vertical tag whose size is printed large, unlabelled, in the top corner; Code 93 of the
    style number; the price inline after its label."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    card = Card(48, 88, px_per_mm, _pick(rng, ((236, 240, 246), (248, 236, 232), (238, 246, 236), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 2.0)
    card.die_cut(5.0)
    card.hole(8.5, 8.5, 1.7)
    size_mm = 9.0 if len(v.size) <= 3 else 5.8
    card.text(44, 4.0, v.size, size_mm, BLACK, value_face, anchor="ra", max_w_mm=28, stroke=1)
    card.text(4, 17, v.product_name, 4.6, BLACK, face, max_w_mm=40, stroke=1)
    card.text(4, 23, v.brand, 3.0, (90, 90, 96), face, max_w_mm=40)
    rows = [(_pick(rng, ("货号", "款号")), v.style_number, "style_number"), ("颜色", v.color, "color"),
            ("成分", v.composition, "composition"), ("等级", v.grade, "grade"), ("标准", v.standard, "standard"),
            ("类别", v.safety_category, "safety_category")]
    y = 29.0
    for label, value, _ in rows:
        _row(card, 4, y, label + " ", value, 2.8, BLACK, (90, 90, 96), face, value_face, 40, pitch=4.4)
        y += 4.4
    price = _money(v.price, "yen")
    _row(card, 4, y + 1.5, _pick(rng, ("零售价 ", "吊牌价 ")), price, 3.6, BLACK, BLACK, face, value_face, 40)
    card.linear_code(v.style_number, "Code93", 4, 69, 40, 10, BLACK)
    card.text(24, 80.2, v.style_number, 2.6, BLACK, value_face, anchor="ma")
    fields = {name: value for _, value, name in rows}
    fields.update(size=v.size, product_name=v.product_name, price=price, brand=v.brand)
    return card.finish(fields)


def grid_table(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Horizontal die-cut tag with the fields in a ruled two-column table (label cell | value cell)."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    rule = _pick(rng, ((60, 60, 60), (30, 60, 120), (120, 40, 40)))
    card = Card(96, 64, px_per_mm, _pick(rng, ((255, 255, 255), (250, 248, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.die_cut(4.0)
    card.hole(5.5, 32, 1.6)
    card.text(12, 3.0, v.brand, 4.6, rule, face, max_w_mm=30, stroke=1)
    card.text(92, 3.6, "合格证", 3.6, rule, face, anchor="ra")
    rows = [("品名", v.product_name, "product_name"), (_pick(rng, ("货号", "款号", "型号")), v.style_number, "style_number"),
            (_pick(rng, ("颜色", "色号")), v.color, "color"), (_pick(rng, ("规格", "号型")), v.size, "size"),
            ("成分", v.composition, "composition"), ("执行标准", v.standard, "standard"),
            ("安全类别", v.safety_category, "safety_category"), ("等级", v.grade, "grade")]
    x0, x1, x2, top, step = 11, 26, 60, 10.0, 5.2
    card.rect((x0, top, x2, top + step * len(rows)), outline=rule, width_mm=0.3)
    card.line(x1, top, x1, top + step * len(rows), rule)
    for i, (label, value, _) in enumerate(rows):
        y = top + i * step
        if i:
            card.line(x0, y, x2, y, rule, 0.2)
        card.text(x0 + 1.2, y + 1.2, label, 2.7, rule, face, max_w_mm=14.5)
        card.text(x1 + 1.2, y + 1.2, value, 2.7, BLACK, value_face, max_w_mm=32, wrap_mm=step - 1.2)
    price = _money(v.price, _pick(rng, ("yen", "rmb")))
    card.text(79.5, 11, _pick(rng, ("统一零售价", "零售价", "吊牌价")), 3.0, rule, face, anchor="ma")
    card.text(79.5, 16, price, 4.8, BLACK, value_face, anchor="ma", max_w_mm=28, stroke=1)
    card.linear_code(v.ean13, "EAN-13", 65.5, 32, 28, 16, BLACK)
    card.text(79.5, 48.8, v.ean13, 2.6, BLACK, value_face, anchor="ma")
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def stacked_labels(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Horizontal export-style tag: each label is Chinese over a small English line, values in a column to
    the right; QR code and Code 128 of the style number; the price under 零售价/RETAIL."""
    rng = np.random.default_rng(style_seed)
    face, value_face = _pick(rng, font_names()), _pick(rng, font_names())
    accent = _pick(rng, ((150, 30, 40), (30, 80, 60), (40, 40, 40), (20, 60, 130)))
    card = Card(100, 66, px_per_mm, _pick(rng, ((238, 238, 234), (246, 240, 228), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(3.0)
    card.hole(94, 6, 1.6)
    card.rect((0, 0, 100, 2.2), fill=accent)
    card.text(5, 4.5, v.brand, 5.0, accent, face, max_w_mm=40, stroke=1)
    rows = [("品名", "PRODUCT", v.product_name, "product_name"), ("款号", "STYLE", v.style_number, "style_number"),
            ("颜色", "COLOUR", v.color, "color"), ("号型", "SIZE", v.size, "size"),
            ("成分", "FABRIC", v.composition, "composition"), ("执行标准", "STANDARD", v.standard, "standard"),
            ("安全类别", "SAFETY", v.safety_category, "safety_category"), ("等级", "GRADE", v.grade, "grade")]
    y = 13.0
    for zh, en, value, _ in rows:
        card.text(5, y, zh, 2.5, BLACK, face)
        card.text(5, y + 2.7, en, 1.6, (110, 110, 110), face)
        card.text(22, y + 0.9, value, 2.8, BLACK, value_face, max_w_mm=42, wrap_mm=5.0)
        y += 6.0
    price = _money(v.price, _pick(rng, ("yen", "rmb")))
    card.text(70, 13, "零售价", 2.8, BLACK, face)
    card.text(70, 16.4, "RETAIL PRICE", 1.7, (110, 110, 110), face)
    card.text(97, 20.5, price, 4.6, accent, value_face, anchor="ra", max_w_mm=29, stroke=1)
    card.qr_code(f"https://{v.brand.lower().replace('&', '')}.com.cn/q/{v.ean13}", 78, 28, 14, BLACK)
    card.linear_code(v.style_number, "Code128", 60, 47, 36, 10, BLACK)
    card.text(78, 58.2, v.style_number, 2.4, BLACK, value_face, anchor="ma")
    fields = {name: value for _, _, value, name in rows}
    fields.update(price=price, brand=v.brand)
    return card.finish(fields)


Design = Callable[[int, TagValues, float], TagArt]
DESIGNS: dict[str, Design] = {
    "vertical_classic": vertical_classic,
    "dark_bilingual": dark_bilingual,
    "wide_price_block": wide_price_block,
    "kraft_stamped": kraft_stamped,
    "big_size_corner": big_size_corner,
    "grid_table": grid_table,
    "stacked_labels": stacked_labels,
    # added once the reader had been developed against the seven above (issue 14's fresh yardstick)
    "two_column": two_column,
    "english_first": english_first,
    "price_sticker": price_sticker,
    # added on 2026-12-02 evening, after the reader had been developed against all ten above: a fresh yardstick
    "hairline_rows": hairline_rows,
    "shield_centred": shield_centred,
    "tear_slip": tear_slip,
    # added on 2026-12-03, after the reader had been developed against all thirteen above: a fresh yardstick
    "logo_face": logo_face,
    "dotted_leaders": dotted_leaders,
    "brand_band": brand_band,
    # added on 2026-12-03 later, after the reader had been developed against all sixteen above: a fresh yardstick
    "thermal_label": thermal_label,
    "size_run": size_run,
    "sideways_block": sideways_block,
    # added on 2026-12-03 (tenth session), after the reader had been developed against all nineteen: a fresh yardstick
    "curled_tag": curled_tag,
    "handwritten_price": handwritten_price,
    "dense_tag": dense_tag,
    # added on 2026-12-03 (eleventh session), after the reader had been developed against all twenty-two: a fresh yardstick
    "overprint_offset": overprint_offset,
    "glossy_hotspot": glossy_hotspot,
    "string_occluded": string_occluded,
    # added on 2026-12-03 (thirteenth session), after the reader had been developed against all twenty-five: a fresh yardstick
    "round_diecut": round_diecut,
    "folded_booklet": folded_booklet,
    "qr_first": qr_first,
    # added on 2026-12-03 (fifteenth session), after the reader had been developed against all twenty-eight: a fresh yardstick
    "currency_list": currency_list,
    "vertical_columns": vertical_columns,
    "clear_pvc": clear_pvc,
    # added on 2026-12-04 (seventeenth session), after the reader had been developed against all thirty-one: a fresh yardstick
    "two_row_table": two_row_table,
    "stamped_price": stamped_price,
    "label_over_value": label_over_value,
    # added on 2026-12-04 (nineteenth session), after the reader had been developed against all thirty-four: a fresh yardstick
    "boxed_cells": boxed_cells,
    "bar_lines": bar_lines,
    "sale_reprice": sale_reprice,
    # added on 2026-12-04 (twentieth session), after the reader had been developed against all thirty-seven: a fresh yardstick
    "spread_labels": spread_labels,
    "tracked_caps": tracked_caps,
    "stripe_badge": stripe_badge,
    # added on 2026-12-04 (twenty-first session), after the reader had been developed against all forty: a fresh yardstick
    "batch_codes": batch_codes,
    "zebra_table": zebra_table,
    "pale_serif": pale_serif,
    # added on 2026-12-04 (twenty-second session), after the reader had been developed against all forty-three: a fresh yardstick
    "tick_form": tick_form,
    "split_columns": split_columns,
    "hologram_seal": hologram_seal,
    # added on 2026-12-04 (twenty-second session), after the reader had been developed against all forty-six: a fresh yardstick
    "down_fill": down_fill,
    "slash_pairs": slash_pairs,
    "size_chart": size_chart,
    # added on 2026-12-05 (twenty-third session), after the reader had been developed against all forty-nine: a fresh yardstick
    "fullwidth_print": fullwidth_print,
    "correction_sticker": correction_sticker,
    "hung_upside_down": hung_upside_down,
    # added on 2026-12-05 (twenty-third session) beside the three above, after the reader had been developed against all
    # forty-nine: a fresh yardstick
    "woven_label": woven_label,
    "cij_inkjet": cij_inkjet,
    "spec_line": spec_line,
    # added on 2026-12-05 (twenty-fourth session), after the reader had been developed against all fifty-five: how a tag
    # is presented to the camera on a line (in its polybag, held by an operator, foil on dark card)
    "polybag_sealed": polybag_sealed,
    "held_fingers": held_fingers,
    "foil_stamped": foil_stamped,
    # added on 2026-12-05 (twenty-fourth session), after the reader had been developed against all fifty-five: sizes in
    # the systems of children's wear, jeans and bras
    "kids_height": kids_height,
    "jeans_waist": jeans_waist,
    "bra_cup": bra_cup,
    # added on 2026-12-05 (twenty-fifth session), after the reader had been developed against all sixty-one: value
    # grammars of colour codes, grouped style numbers and three-fibre blends with their lining
    "colour_code": colour_code,
    "grouped_style": grouped_style,
    "blend_lining": blend_lining,
    # added on 2026-12-05 (twenty-fifth session), after the reader had been developed against all sixty-one: layouts
    # it never met (the product name top to bottom, a size punched in a grid of sizes, fields run on as a paragraph)
    "vertical_name": vertical_name,
    "punched_size": punched_size,
    "run_on_text": run_on_text,
    # added on 2026-12-05 (twenty-sixth session), after the reader had been developed against all sixty-seven: print
    # processes that change how the characters look (reversed labels off register, a halftone photograph, letterpress)
    "reverse_cells": reverse_cells,
    "halftone_photo": halftone_photo,
    "letterpress": letterpress,
    # added on 2026-12-05 (twenty-sixth session), after the reader had been developed against all sixty-seven: two
    # candidates for one field (a retail and an offer price, a product and a safety standard, two barcodes)
    "promo_price": promo_price,
    "standards_line": standards_line,
    "twin_codes": twin_codes,
    # added on 2026-12-05 (twenty-seventh session), after the reader had been developed against all seventy-three: a
    # field among others no earlier design sets beside it (a size-conversion table, rows across a fold, the price
    # beside a yen price under the same ¥ sign)
    "size_conversion": size_conversion,
    "fold_across": fold_across,
    "east_asia_export": east_asia_export,
    # added on 2026-12-05 (twenty-eighth session), after the reader had been developed against all seventy-six: a shoe's
    # tag (a shoe size or mm, materials by part, no safety class), a card partly in a shadow, a card seen at a steep angle
    "shoe_tag": shoe_tag,
    "half_shadow": half_shadow,
    "steep_angle": steep_angle,
    # added on 2026-12-05 (twenty-ninth session), after the reader had been developed against all seventy-nine: an
    # export tag with the colour and fibres in four European languages, values overprinted by a thermal-transfer
    # printer with a worn ribbon and dead head elements, a slanted face throughout
    "euro_export": euro_export,
    "ribbon_wrinkle": ribbon_wrinkle,
    "slanted_face": slanted_face,
    # added on 2026-12-06 (thirtieth session), after the reader had been developed against all eighty-two: one dark
    # ink straight on silver or gold metallised board, the size printed huge as the design with the rest in small
    # print, a clear tamper-evident film stuck over the price or the size
    "metallic_board": metallic_board,
    "big_numerals": big_numerals,
    "clear_film": clear_film,
}
# The symbology each design carries, so a recipe and a defect know what the barcode encodes.
BARCODE_OF = {"vertical_classic": "EAN-13", "dark_bilingual": "Code128", "wide_price_block": "EAN-13",
              "kraft_stamped": "EAN-13", "big_size_corner": "Code93", "grid_table": "EAN-13", "stacked_labels": "Code128",
              "two_column": "EAN-13", "english_first": "Code128", "price_sticker": "EAN-13",
              "hairline_rows": "EAN-13", "shield_centred": "Code128", "tear_slip": "EAN-13",
              "logo_face": None, "dotted_leaders": "EAN-13", "brand_band": "EAN-13",  # logo_face: a QR code only
              "thermal_label": "Code128", "size_run": "EAN-13", "sideways_block": "EAN-13",
              "curled_tag": "EAN-13", "handwritten_price": "EAN-13", "dense_tag": "EAN-13",
              "overprint_offset": "EAN-13", "glossy_hotspot": "EAN-13", "string_occluded": "EAN-13",
              "round_diecut": "EAN-13", "folded_booklet": "EAN-13", "qr_first": "EAN-13",
              "currency_list": "EAN-13", "vertical_columns": "EAN-13", "clear_pvc": "EAN-13",
              "two_row_table": "EAN-13", "stamped_price": "EAN-13", "label_over_value": "EAN-13",
              "boxed_cells": "EAN-13", "bar_lines": "EAN-13", "sale_reprice": "EAN-13",
              "spread_labels": "EAN-13", "tracked_caps": "EAN-13", "stripe_badge": "EAN-13",
              "batch_codes": "EAN-13", "zebra_table": "EAN-13", "pale_serif": "EAN-13",
              "tick_form": "EAN-13", "split_columns": "EAN-13", "hologram_seal": "EAN-13",
              "down_fill": "EAN-13", "slash_pairs": "EAN-13", "size_chart": "EAN-13",
              "fullwidth_print": "EAN-13", "correction_sticker": "EAN-13", "hung_upside_down": "EAN-13",
              "woven_label": "EAN-13", "cij_inkjet": "EAN-13", "spec_line": "EAN-13",
              "polybag_sealed": "EAN-13", "held_fingers": "EAN-13", "foil_stamped": "EAN-13",
              "kids_height": "EAN-13", "jeans_waist": "EAN-13", "bra_cup": "EAN-13",
              "colour_code": "EAN-13", "grouped_style": "EAN-13", "blend_lining": "EAN-13",
              "vertical_name": "EAN-13", "punched_size": "EAN-13", "run_on_text": "EAN-13",
              "reverse_cells": "EAN-13", "halftone_photo": "EAN-13", "letterpress": "EAN-13",
              "promo_price": "EAN-13", "standards_line": "EAN-13", "twin_codes": "EAN-13",
              "size_conversion": "EAN-13", "fold_across": "EAN-13", "east_asia_export": "EAN-13",
              "shoe_tag": "EAN-13", "half_shadow": "EAN-13", "steep_angle": "EAN-13",
              "euro_export": "EAN-13", "ribbon_wrinkle": "EAN-13", "slanted_face": "EAN-13",
              "metallic_board": "EAN-13", "big_numerals": "EAN-13", "clear_film": "EAN-13"}
# Cards the photograph shows turned a half turn (the tag hung by its hole upside down), besides the scene's tilt.
HUNG_UPSIDE_DOWN = {"hung_upside_down"}
# Designs whose jobs draw values of their own from the job's generator (a size system and the product names,
# fibres and standards that go with it), after its style seed.
JOB_VALUES: dict[str, Callable[[np.random.Generator, TagValues], TagValues]] = {
    "kids_height": kids_values, "jeans_waist": jeans_values, "bra_cup": bra_values,
    "grouped_style": grouped_style_values, "blend_lining": blend_values, "shoe_tag": shoe_values}
HAS_QR = {"kraft_stamped", "stacked_labels", "logo_face", "dense_tag", "qr_first", "hologram_seal"}
