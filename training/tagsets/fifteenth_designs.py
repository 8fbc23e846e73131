"""Three designs added on 2026-12-04 (twenty-second session), after the reader had been developed while looking at the
forty-six in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the forty-six do not show:

- `down_fill`: a 羽绒服/棉服 合格证 whose fibre content comes in **three blocks**, each with its own composition:
  面料 (the recipe's), 里料 and 填充物 (`白鸭绒`, `灰鸭绒`, `白鹅绒` or a polyester fill `聚酯纤维 100%`), with
  **含绒量 90%** and **充绒量 180g** (or 充棉量) under it, under a `成分：` heading or as rows of their own; three
  compositions and two more percentages or weights where a recipe expects one;
- `slash_pairs`: a vertical tag whose rows **join two fields under one label** (`品名/货号：男士夹克/KX-203188`,
  `颜色/号型：黑色/170/92A`, either order, a bare or a spaced slash), as factory label software prints a compact
  tag; the 号型's own slash runs on from the joining one;
- `size_chart`: a horizontal tag whose size is only in a **size chart** (尺码对照表): rows 尺码, 号型, 胸围 and
  衣长 across five columns, the job's column **inverted**, **tinted and bold** or **framed**; every other size and
  the body measurements (cm) printed beside it.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a field joined to another is its
own part of the row). Faces are `fonts` faces only. Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import CHEST, HEIGHTS, TagValues, random_composition

DOWN_FILLS = ("白鸭绒", "灰鸭绒", "白鹅绒", "灰鹅绒")
FILL_WEIGHTS = ("120g", "150g", "165g", "180g", "210g", "260g")
LETTER_RUN = ("XS", "S", "M", "L", "XL", "XXL", "3XL")  # by height, 155 … 185


def _lining(rng: np.random.Generator, face: str) -> str:
    while True:
        lining = random_composition(rng)
        if lining != face:
            return lining


def _rows(card: Card, x: float, y: float, right: float, rows: list[tuple[str, str, str]], size: float, pitch: float,
          ink: Color, label_ink: Color, face: str, value_face: str, fields: dict[str, str]) -> float:
    """Colon rows from (x, y); a long value on two lines split between units; a row named '' is not judged."""
    for label, value, name in rows:
        used = card.text(x, y, label, size, label_ink, face)
        room = right - x - used - 0.6
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            card.text(x + used + 0.6, y + 3.6 * k, line, size, ink, value_face, max_w_mm=room)
        if name:
            fields[name] = " ".join(lines)
        y += pitch + 3.6 * (len(lines) - 1)
    return y


# -- three fibre blocks: 面料, 里料, 填充物 ------------------------------------------------------------------------

def down_fill(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical 合格证 for a padded garment (58×122 mm): colon rows, the fibre content as 面料 (the recipe's), 里料
    and 填充物 blocks with 含绒量/充绒量 (or 充棉量), under a 成分 heading or as rows of their own; the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (28, 34, 64), (44, 40, 38)))
    label_ink = pick(rng, (ink, ink, (96, 96, 100)))
    w, h = 58.0, 122.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 244), (240, 242, 246))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8, ring=pick(rng, (None, (210, 210, 214))))
    card.text(w / 2, 10.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=46, stroke=1)
    card.text(w / 2, 17.2, pick(rng, ("合格证", "产品合格证", "羽绒制品合格证")), 3.0, ink, face, anchor="ma")
    card.line(5, 21.6, w - 5, 21.6, ink, 0.2)
    size, pitch, x, right = 2.7, 4.5, 5.0, w - 5.0
    fields: dict[str, str] = {}
    y = _rows(card, x, 24.0, right, [
        ("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
        (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size")],
        size, pitch, ink, label_ink, face, value_face, fields)
    lining = _lining(rng, v.composition)
    if rng.random() < 0.7:
        fill = pick(rng, DOWN_FILLS)
        extra = [(pick(rng, ("含绒量：", "含绒量 ")), pick(rng, ("90%", "80%", "95%", "85%")), ""),
                 ("充绒量：", pick(rng, FILL_WEIGHTS), "")]
    else:
        fill = pick(rng, ("聚酯纤维 100%", "聚酯纤维 100%", "再生纤维素纤维 100%"))
        extra = [("充棉量：", pick(rng, FILL_WEIGHTS), "")]
    blocks = [(pick(rng, ("面料：", "面料：", "面布：", "外层：")), v.composition, "composition"),
              (pick(rng, ("里料：", "里布：")), lining, ""), ("填充物：", fill, ""), *extra]
    if rng.random() < 0.5:  # under a heading, indented
        card.text(x, y, pick(rng, ("成分：", "纤维含量：", "成分含量：")), size, label_ink, face)
        y = _rows(card, x + 3.0, y + pitch, right, blocks, size, pitch - 0.3, ink, label_ink, face, value_face, fields)
    else:
        y = _rows(card, x, y, right, blocks, size, pitch, ink, label_ink, face, value_face, fields)
    y = _rows(card, x, y, right, [
        ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
        (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")],
        size, pitch, ink, label_ink, face, value_face, fields)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    used = card.text(x, y + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, label_ink, face)
    card.text(x + used + 0.6, y, price, 4.6, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_top = max(y + 7.5, 104.0)
    ean_block(card, v.ean13, 10, ean_top, 38, min(10.0, h - 4.5 - ean_top), ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- two fields joined under one label ----------------------------------------------------------------------------

def slash_pairs(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (54×104 mm) whose first rows join two fields under one label (`品名/货号：衬衫/B2031`,
    `颜色/号型：黑色/170/92A`), the rest colon rows; the price; the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (36, 36, 40), (30, 40, 70)))
    w, h = 54.0, 104.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 238), (238, 236, 230))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (1.5, 2.5, 4.0)))
    card.hole(w / 2, 6.0, 1.8)
    card.text(w / 2, 11.0, v.brand, 6.4, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.line(5, 20.0, w - 5, 20.0, ink, 0.22)
    size, pitch, x, right = 2.8, 4.8, 4.5, w - 4.5
    sep = pick(rng, ("/", "/", " / "))
    name_pair = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number")]
    look_pair = [(pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "尺码", "规格")), v.size, "size")]
    grade_pair = [("等级", v.grade, "grade"), ("执行标准", v.standard, "standard")]
    pairs = [name_pair[::-1] if rng.random() < 0.4 else name_pair, look_pair[::-1] if rng.random() < 0.3 else look_pair]
    if rng.random() < 0.5:
        pairs.append(grade_pair)
    fields: dict[str, str] = {}
    y = 23.0
    for pair in pairs:
        label = "/".join(p[0] for p in pair) + "："
        value = sep.join(p[1] for p in pair)
        used = card.text(x, y, label, size, ink, face)
        if width_mm(card, value, size, value_face) * 2.1 / size > right - x - used - 0.5:  # the value under its label
            used, y = 2.5 - 0.5, y + pitch - 0.6
        card.text(x + used + 0.5, y, value, size, ink, value_face, max_w_mm=right - x - used - 0.5)
        fields.update({name: part for _, part, name in pair})
        y += pitch
    rest = [(pick(rng, ("成分：", "面料成分：")), v.composition, "composition")]
    if len(pairs) < 3:
        rest += [("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard")]
    rest.append((pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category"))
    y = _rows(card, x, y, right, rest, size, pitch, ink, ink, face, value_face, fields)
    price = money(v.price, pick(rng, ("yen", "yuan", "yen", "rmb")))
    used = card.text(x, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    card.text(x + used + 0.6, y, price, 4.6, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_top = max(y + 8.0, 84.0)
    ean_block(card, v.ean13, 8, ean_top, 38, min(10.0, h - 4.5 - ean_top), ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- the size only in a size chart ----------------------------------------------------------------------------------

def chart_columns(size: str, rng: np.random.Generator) -> tuple[list[tuple[str, str, int]], int]:
    """Five chart columns (letter, 号型, height) around `size` and the index of its column: a letter size runs the
    letters against the A body's 号型 by height; a 号型 runs its own body by 5 cm of height and 4 cm of girth."""
    if size in LETTER_RUN or size == "2XL":
        k = LETTER_RUN.index("XXL" if size == "2XL" else size)
        runs = [(s if not (size == "2XL" and s == "XXL") else "2XL", f"{hh}/{80 + 4 * i}A", hh)
                for i, (s, hh) in enumerate(zip(LETTER_RUN, HEIGHTS))]
    else:
        height, rest = size.split("/")
        girth, body = int(rest[:-1]), rest[-1]
        k = HEIGHTS.index(int(height))
        runs = [(LETTER_RUN[i], f"{hh}/{girth + 4 * (i - k)}{body}", hh) for i, hh in enumerate(HEIGHTS)]
    start = int(np.clip(k - int(rng.integers(0, 5)), 0, len(runs) - 5))
    return runs[start:start + 5], k - start


def size_chart(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal tag (104×70 mm): colon rows left, the price and the EAN-13 right, and across the foot a size chart
    (尺码 · 号型 · 胸围 · 衣长 over five sizes) with the job's column inverted, tinted or framed; no other size row."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (40, 40, 44)))
    stock = pick(rng, ((255, 255, 255), (250, 248, 242), (243, 244, 246)))
    mark = pick(rng, ("invert", "tint", "frame"))
    w, h = 104.0, 70.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.4)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(5.5, 5.5, 1.6)
    card.text(11, 3.2, v.brand, 5.0, ink, face, max_w_mm=50, stroke=1)
    card.line(5, 10.4, w - 5, 10.4, ink, 0.2)
    size, pitch, x, right = 2.5, 4.0, 5.0, 62.0
    fields: dict[str, str] = {}
    _rows(card, x, 12.2, right, [
        ("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
        (pick(rng, ("颜色：", "色号：")), v.color, "color"), ("等级：", v.grade, "grade"),
        ("执行标准：", v.standard, "standard"),
        (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category"),
        ("成分：", v.composition, "composition")],
        size, pitch, ink, ink, face, value_face, fields)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    card.text(66, 13.0, pick(rng, ("零售价", "吊牌价")), 2.8, ink, face)
    card.text(66, 17.0, price, 4.8, ink, value_face, max_w_mm=w - 5 - 66, stroke=1)
    ean_block(card, v.ean13, 66, 25.0, 33, 9.0, ink, value_face)
    columns, marked = chart_columns(v.size, rng)
    top, row_h, head_w, col_w = 47.0, 4.6, 14.0, 16.0
    chest_ease, length0 = int(pick(rng, (8, 10, 12))), int(pick(rng, (64, 66, 70)))
    card.text(x, top - 3.4, pick(rng, ("尺码对照表（单位：cm）", "号型尺码表 cm", "SIZE CHART 尺码表（cm）")), 2.3, ink, face)
    heads = (pick(rng, ("尺码", "SIZE")), "号型", "胸围", pick(rng, ("衣长", "后中长")))
    tint = tuple(int(c * 0.8 + t * 0.2) for c, t in zip(stock, ink))
    mx = x + head_w + marked * col_w
    if mark == "invert":
        card.rect((mx, top, mx + col_w, top + 4 * row_h), fill=ink)
    elif mark == "tint":
        card.rect((mx, top, mx + col_w, top + 4 * row_h), fill=tint)
    for r in range(5):
        card.line(x, top + r * row_h, x + head_w + 5 * col_w, top + r * row_h, ink, 0.15)
    for c in range(7):
        cx = x if c == 0 else x + head_w + (c - 1) * col_w
        card.line(cx, top, cx, top + 4 * row_h, ink, 0.15)
    if mark == "frame":
        card.rect((mx - 0.4, top - 0.4, mx + col_w + 0.4, top + 4 * row_h + 0.4), outline=ink, width_mm=0.55)
    for r, head in enumerate(heads):
        card.text(x + head_w / 2, top + r * row_h + 1.0, head, 2.3, ink, face, anchor="ma")
    for c, (letter, hao, height) in enumerate(columns):
        girth = int(hao.split("/")[1][:-1])
        cells = (letter, hao, str(girth + chest_ease), str(length0 + (height - 170) // 5 * 2))
        on = c == marked
        cell_ink = stock if on and mark == "invert" else ink
        for r, text in enumerate(cells):
            cx = x + head_w + c * col_w + col_w / 2
            card.text(cx, top + r * row_h + 1.0, text, 2.3, cell_ink, value_face, anchor="ma", max_w_mm=col_w - 1.0,
                      stroke=1 if on and mark == "tint" else 0)
    fields.update(size=v.size, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
