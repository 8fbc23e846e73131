"""Three designs added on 2026-12-04 (nineteenth session), after the reader had been developed while looking at the
thirty-four in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the thirty-four do not show:

- `boxed_cells`: a horizontal 合格证 whose fields sit each in its own **boxed cell** of a grid, the label small in the
  cell's top-left corner and the value below it in larger print (as printed forms set them);
- `bar_lines`: a wide tag whose fields run on a **few long lines parted by vertical bars**
  (`品名 羊毛大衣 | 货号 W2301 | 颜色 驼色`), a label before each value with a space, a colon or nothing between;
- `sale_reprice`: a vertical tag with **traditional-Chinese labels** (貨號, 顏色, 尺碼, 成份, 執行標準 …) beside
  simplified values, the fibre content as a **table of parts** (面料 then 里料, each fibre on its own row, the shares
  flush right) and a **struck-through old price** over the new one (the recipe's price is the new one).

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only.
"""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import TagValues

GREY: Color = (100, 100, 106)


# -- every field in its own boxed cell ------------------------------------------------------------------------------

def boxed_cells(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal 合格证 (100×58 mm): a grid of boxed cells, each label small in its cell's top-left corner and the
    value under it; the price in a larger cell beside the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    rule = pick(rng, (BLACK, (30, 52, 110), (120, 30, 36), (70, 70, 70)))
    label_ink = pick(rng, (rule, GREY))
    gap = pick(rng, (0.0, 0.0, 1.0))  # a shared ruled grid, or separate boxes a millimetre apart
    w, h = 100.0, 58.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 244), (242, 244, 246))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(95.5, 5.0, 1.5)
    card.text(4, 3.0, v.brand, 5.0, rule, face, max_w_mm=44, stroke=1)
    card.text(90, 3.8, pick(rng, ("合格证", "产品合格证")), 3.0, rule, face, anchor="ra")
    style_label, color_label = pick(rng, ("货号", "款号")), pick(rng, ("颜色", "色号"))
    size_label = pick(rng, ("号型", "规格", "尺码"))
    fibres = units_in_lines(v.composition, 64.0, lambda t: width_mm(card, t, 2.9, value_face))
    grid = [
        [(18.0, "品名", [v.product_name]), (28.0, style_label, [v.style_number]), (22.0, color_label, [v.color])],
        [(22.0, size_label, [v.size]), (16.0, "等级", [v.grade]), (30.0, pick(rng, ("执行标准", "产品标准")), [v.standard])],
        [(68.0, pick(rng, ("成分", "纤维含量", "面料成分")), fibres)],
        [(68.0, pick(rng, ("安全类别", "安全技术类别")), [v.safety_category])],
    ]
    y = 10.0
    for cells in grid:
        height = 9.6 + 3.4 * (max(len(lines) for _, _, lines in cells) - 1)
        x = 4.0
        for cell_w, label, lines in cells:
            card.rect((x, y, x + cell_w - gap, y + height - gap), outline=rule, width_mm=0.2)
            card.text(x + 0.8, y + 0.7, label, 2.0, label_ink, face)
            at = y + 3.9
            for line in lines:
                card.text(x + 1.6, at, line, 2.9, BLACK, value_face, max_w_mm=cell_w - gap - 2.6)
                at += 3.4
            x += cell_w
        y += height
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    card.rect((74, 10.0, 96 - gap, 22.0), outline=rule, width_mm=0.2)
    card.text(74.8, 10.7, pick(rng, ("零售价", "吊牌价", "统一零售价")), 2.0, label_ink, face)
    card.text(85, 14.6, price, 4.2, BLACK, value_face, anchor="ma", max_w_mm=20, stroke=1)
    ean_block(card, v.ean13, 74.5, 26.0, 21, 14, BLACK, value_face)
    card.text(4, y + 1.0, f"检验员：{int(rng.integers(1, 40)):02d}", 2.2, GREY, face)
    fields = {"product_name": v.product_name, "style_number": v.style_number, "color": v.color, "size": v.size,
              "grade": v.grade, "standard": v.standard, "composition": " ".join(fibres),
              "safety_category": v.safety_category, "price": price, "brand": v.brand, "ean13": v.ean13}
    return card.finish(fields)


# -- fields on long lines parted by vertical bars -------------------------------------------------------------------

def bar_lines(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A wide tag (100×56 mm): the brand, then four long lines of `label value | label value | …`, the bars printed
    as a character or ruled; the EAN-13 under them on the right."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (38, 34, 30), (26, 40, 78)))
    after_label = pick(rng, (" ", "：", ""))
    ruled = rng.random() < 0.5
    w, h = 100.0, 56.0
    card = Card(w, h, px_per_mm, pick(rng, ((253, 253, 250), (246, 241, 230), (238, 238, 238))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (1.0, 2.5)))
    card.hole(5.0, h / 2, 1.6)
    card.text(10, 4.0, v.brand, 5.2, ink, face, max_w_mm=50, stroke=1)
    card.line(10, 11.2, w - 5, 11.2, ink, 0.2)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    lines = [
        [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
         (pick(rng, ("颜色", "色号")), v.color, "color")],
        [(pick(rng, ("号型", "规格", "尺码")), v.size, "size"), ("等级", v.grade, "grade"),
         (pick(rng, ("执行标准", "产品标准")), v.standard, "standard")],
        [(pick(rng, ("成分", "面料")), v.composition, "composition")],
        [(pick(rng, ("安全类别", "安全技术类别")), v.safety_category, "safety_category"),
         (pick(rng, ("零售价", "吊牌价")), price, "price")],
    ]
    room, size, y = w - 14.0, 2.8, 14.5
    fields: dict[str, str] = {}
    for parts in lines:
        texts = [(label + after_label, value) for label, value, _ in parts]
        sep = 2.2 * size
        widest = sum(width_mm(card, a, size, face) + 0.5 + width_mm(card, b, size, value_face) for a, b in texts)
        widest += sep * (len(parts) - 1)
        at_size = size * min(1.0, room / widest)
        x = 10.0
        for i, ((label, value), (_, _, name)) in enumerate(zip(texts, parts)):
            if i:
                mid = x + sep * at_size / size / 2
                if ruled:
                    card.line(mid, y + 0.2, mid, y + at_size * 1.05, ink, 0.18)
                else:
                    card.text(mid, y, "|", at_size, ink, value_face, anchor="ma")
                x += sep * at_size / size
            x += card.text(x, y, label, at_size, ink, face) + 0.5
            x += card.text(x, y, value, at_size, ink, value_face)
            fields[name] = value
        y += 6.4
    ean_block(card, v.ean13, 62, y + 0.4, 32, 8.0, ink, value_face)
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- traditional labels, a table of parts, a struck-through price ---------------------------------------------------

def old_price(price: str, rng: np.random.Generator) -> str:
    """The price before the markdown: the new one over a 20–50 % discount, rounded up to a whole 9 or 99 as shops
    print it (`¥399.00` was `¥599.00`)."""
    new = float(price)
    was = new / (1.0 - float(rng.choice((0.2, 0.3, 0.4, 0.5))))
    step = 100 if was >= 500 else 10
    units = int(-(-was // step) * step) - 1
    return f"{max(units, int(new) + 9)}.00"


def _fibre_rows(composition: str) -> list[tuple[str, str]]:
    words = composition.split(" ")
    return list(zip(words[0::2], words[1::2]))


def sale_reprice(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (56×108 mm) with traditional-Chinese labels, the fibre content as a table of parts (面料 and
    里料, the shares flush right), and a markdown: the old price struck through over the new one."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (44, 30, 24)))
    accent = pick(rng, ((178, 30, 40), (200, 60, 20), BLACK))
    w, h = 56.0, 108.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240), (240, 236, 228))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 4.0)))
    card.hole(w / 2, 6.0, 1.9)
    card.text(w / 2, 10.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=46, stroke=1)
    card.line(5, 18.5, w - 5, 18.5, ink, 0.25)
    colon = pick(rng, ("：", ": "))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("貨號", "款號")), v.style_number, "style_number"),
            (pick(rng, ("顏色", "色號")), v.color, "color"), (pick(rng, ("尺碼", "號型", "規格")), v.size, "size"),
            ("等級", v.grade, "grade"), (pick(rng, ("執行標準", "產品標準")), v.standard, "standard"),
            (pick(rng, ("安全類別", "安全技術類別")), v.safety_category, "safety_category")]
    y = 21.0
    for label, value, _ in rows:
        used = card.text(5, y, label + colon, 2.8, ink, face)
        card.text(5 + used + 0.4, y, value, 2.8, ink, value_face, max_w_mm=w - 10.4 - used)
        y += 4.5
    # the fibre content: a part's name, then each fibre on its own row with its share flush right
    card.text(5, y, pick(rng, ("成份", "纖維成份", "成分")) + colon, 2.8, ink, face)
    y += 4.3
    lining = pick(rng, tuple(f for f in ("聚酯纤维", "锦纶", "粘纤", "棉", "铜氨纤维") if f not in v.composition))
    parts = [(pick(rng, ("面料", "面布")), _fibre_rows(v.composition)), ("里料", [(lining, "100%")])]
    right = w - 7.0
    for part, fibres in parts:
        card.text(7, y, part, 2.6, GREY, face)
        for fibre, share in fibres:
            card.text(17, y, fibre, 2.8, ink, value_face, max_w_mm=right - 17 - 9)
            card.text(right, y, share, 2.8, ink, value_face, anchor="ra")
            y += 3.9
        y += 0.6
    card.line(5, y + 0.4, w - 5, y + 0.4, ink, 0.15)
    y += 2.4
    form = pick(rng, ("yen", "yen", "yuan"))
    was, price = money(old_price(v.price, rng), form), money(v.price, form)
    used = card.text(5, y + 0.6, pick(rng, ("原價", "原价", "吊牌價")), 2.6, GREY, face)
    struck = card.text(5 + used + 1.5, y, was, 3.4, GREY, value_face)
    strike_y = y + 3.4 * 0.58
    card.line(5 + used + 1.2, strike_y, 5 + used + 1.8 + struck, strike_y, pick(rng, (GREY, accent)), 0.3)
    y += 5.2
    used = card.text(5, y + 1.4, pick(rng, ("現價", "特價", "折後價")), 3.0, accent, face)
    card.text(5 + used + 1.5, y, price, 5.2, accent, value_face, max_w_mm=w - 11.5 - used, stroke=1)
    ean_block(card, v.ean13, 9, h - 17.5, 38, 10.0, ink, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(composition=v.composition, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
