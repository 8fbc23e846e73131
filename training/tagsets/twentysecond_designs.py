"""Three designs added on 2026-12-05 (twenty-sixth session), after the reader had been developed while looking at the
sixty-seven in `designs`: a fresh yardstick nobody tuned for. Each prints **two candidates for one field**, as Chinese
tags do, and only one of them is the field the recipe states:

- `promo_price`: the retail price (吊牌价/零售价/统一零售价, the recipe's) and a **lower price of the shop's offer**
  (活动价/折后价/会员价/专柜特惠价, often with its discount `8折`/`7.5折`), not struck through: the offer set first and
  larger on a red panel, both on one line in either order, or two cells side by side;
- `standards_line`: the **product standard and the safety standard together** after one label, as factories print
  them (`执行标准：FZ/T 81007-2022  GB 18401-2010 B类`, joined by `、`, or the safety standard first and the product
  standard on the line under it); no 安全类别 row of its own;
- `twin_codes`: **two barcodes**: the product's EAN-13 (the recipe's) and the shop's own code beside it — an in-store
  EAN-13 (GS1 restricted-circulation prefix 2x, under `店内码`) or a Code 128 of the shop's ten-digit SKU number
  (colour number, size number, item number; under `SKU`/`商品编码`); the EAN-13 turned 90° along the tag's edge on
  some jobs. The recipe counts both codes.

Truth's `fields` keep what is printed for the field (the retail price, the product standard, the EAN's digits); the
other candidate is named in no field.
"""

from __future__ import annotations

import zlib
from decimal import ROUND_FLOOR, Decimal

import numpy as np

from training.tagsets.canvas import MIN_PRINT_MM, Card, TagArt, print_turned
from training.tagsets.fonts import font, font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.values import COLORS, PRICES, TagValues, ean13_with_check

RED = (196, 30, 36)
OFFER_LABELS = ("活动价", "折后价", "会员价", "专柜特惠价")
RETAIL_LABELS = ("吊牌价", "零售价", "统一零售价")
DISCOUNTS = ("9折", "8.5折", "8折", "7.5折", "7折", "6折", "5折")
# A maker's colour card numbers its colours once: the SKU's colour part.
COLOUR_NUMBER = {name: f"{(11 * i + 5) % 89 + 10:02d}" for i, name in enumerate(COLORS)}


def offer_price(price: str, discount: str) -> str:
    """The shop's price at `discount` ('8折': 80 %), cut down to whole yuan as shops price, or one yuan less where
    that lands on a price the value list holds (so a misprinted retail price never meets it)."""
    rate = Decimal(discount.rstrip("折")) / 10
    amount = (Decimal(price) * rate).quantize(Decimal(1), rounding=ROUND_FLOOR)
    while f"{amount}.00" in PRICES or amount >= Decimal(price):
        amount -= 1
    return f"{max(amount, Decimal(1))}.00"


def store_code(ean13: str) -> str:
    """The shop's in-store EAN-13 for the same item: a GS1 restricted-circulation number (prefix 20-29), never the
    product's GTIN."""
    return ean13_with_check(f"2{ean13[3]}{ean13[2:12][::-1]}")


def sku(v: TagValues) -> str:
    """The ten-digit SKU number a shop's system prints as Code 128: colour number, size number, item number (from the
    style number, so another style gets another SKU)."""
    size_number = zlib.crc32(v.size.encode()) % 90 + 10
    return f"{COLOUR_NUMBER.get(v.color, '00')}{size_number}{zlib.crc32(v.style_number.encode()) % 10**6:06d}"


def _width_mm(card: Card, text: str, size: float, face: str) -> float:
    return font(face, card.px(size)).getlength(text) / card.px_per_mm


def _two_lines(card: Card, value: str, size: float, face: str, room_mm: float) -> bool:
    """Whether `Card.text` sets `value` on two lines: on one it would shrink below the smallest legal print."""
    width = _width_mm(card, value, size, face)
    return width > room_mm and size * room_mm / width < MIN_PRINT_MM and " " in value


def _card(rng: np.random.Generator, style_seed: int, w: float, h: float, px_per_mm: float) -> Card:
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (246, 246, 242))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    return card


def _rows(card: Card, x: float, y: float, right: float, rows, size: float, pitch: float, ink, face: str,
          value_face: str) -> tuple[dict[str, str], float]:
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.4
        card.text(x + used + 0.4, y, value, size, ink, value_face, max_w_mm=room, wrap_mm=pitch * 1.6)
        fields[name] = value
        y += pitch * (1.7 if _two_lines(card, value, size, value_face, room) else 1.0)
    return fields, y


def _field_rows(rng: np.random.Generator, v: TagValues, standards: bool = True) -> list[tuple[str, str, str]]:
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade")]
    if standards:
        rows += [("执行标准：", v.standard, "standard"),
                 (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    return rows


def promo_price(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (56×104 mm) printing the retail price and a lower offer price, neither struck through."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    card = _card(rng, style_seed, 56.0, 104.0, px_per_mm)
    card.hole(28, 5.5, 1.8)
    card.text(28, 10.0, v.brand, 6.0, BLACK, face, anchor="ma", max_w_mm=42, stroke=1)
    x, right = 4.5, 51.5
    fields, y = _rows(card, x, 19.0, right, _field_rows(rng, v), 2.8, 4.5, BLACK, face, value_face)
    form = pick(rng, ("yen", "yen", "yuan", "yen_spaced"))
    discount = pick(rng, DISCOUNTS)
    retail, offer = money(v.price, form), money(offer_price(v.price, discount), form)
    retail_label, offer_label = pick(rng, RETAIL_LABELS), pick(rng, OFFER_LABELS)
    with_discount = rng.random() < 0.5
    layout = pick(rng, ("offer_first", "one_line", "cells"))
    y += 1.0
    if layout == "offer_first":  # the offer large on a red panel, the retail price small under it
        card.rect((x, y, right, y + 11.0), fill=RED, radius_mm=1.2)
        head = offer_label + (f"  {discount}" if with_discount else "")
        card.text(x + 2.0, y + 1.2, head, 2.8, (255, 255, 255), face)
        card.text(right - 2.0, y + 4.0, offer, 5.6, (255, 255, 255), value_face, anchor="ra", max_w_mm=30, stroke=1)
        used = card.text(x, y + 12.6, retail_label + "：", 2.8, BLACK, face)
        card.text(x + used + 0.4, y + 12.4, retail, 3.2, BLACK, value_face, max_w_mm=right - x - used)
    elif layout == "one_line":  # 零售价 ¥399.00  会员价 ¥319.00, either first
        pairs = [(retail_label[-3:], retail, BLACK), (offer_label[-3:], offer, RED)]
        if rng.random() < 0.5:
            pairs.reverse()
        at = x
        for label, amount, ink in pairs:
            at += card.text(at, y + 0.6, label, 2.6, ink, face) + 0.8
            at += card.text(at, y, amount, 3.6, ink, value_face, max_w_mm=12.5, stroke=1) + 1.8
        if with_discount:
            card.text(x, y + 5.0, f"（{offer_label}{discount}）", 2.4, RED, face)
    else:  # two cells side by side, each label over its amount
        mid = (x + right) / 2
        card.rect((x, y, right, y + 12.0), outline=BLACK, width_mm=0.25)
        card.line(mid, y, mid, y + 12.0, BLACK, 0.25)
        cells = [(retail_label, retail, BLACK), (offer_label + (f" {discount}" if with_discount else ""), offer, RED)]
        if rng.random() < 0.5:
            cells.reverse()
        for k, (label, amount, ink) in enumerate(cells):
            centre = (x + mid) / 2 if k == 0 else (mid + right) / 2
            card.text(centre, y + 1.0, label, 2.5, BLACK, face, anchor="ma", max_w_mm=mid - x - 2)
            card.text(centre, y + 5.0, amount, 4.2, ink, value_face, anchor="ma", max_w_mm=mid - x - 2, stroke=1)
    ean_block(card, v.ean13, 8.0, 104.0 - 17.0, 40.0, 10.0, BLACK, value_face)
    fields.update(price=retail, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def standards_line(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A 合格证 (57×103 mm) in a ruled frame printing the product standard and GB 18401's class after one 执行标准
    label."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 40, 80), (40, 40, 48)))
    card = _card(rng, style_seed, 57.0, 103.0, px_per_mm)
    card.rect((2.0, 9.5, 55.0, 101.0), outline=ink, width_mm=0.35, radius_mm=1.0)
    card.hole(28.5, 5.0, 1.8)
    card.text(28.5, 11.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.text(28.5, 19.0, pick(rng, ("合格证", "产品合格证")), 3.2, ink, face, anchor="ma")
    card.line(2.0, 23.5, 55.0, 23.5, ink, 0.25)
    x, right = 4.5, 52.5
    fields, y = _rows(card, x, 26.0, right, _field_rows(rng, v, standards=False), 2.8, 4.6, ink, face, value_face)
    label = pick(rng, ("执行标准：", "执行标准：", "产品标准："))
    used = card.text(x, y, label, 2.8, ink, face)
    room = right - x - used - 0.4
    layout = pick(rng, ("one_line", "comma", "safety_first"))
    first, second = (v.safety_category, v.standard) if layout == "safety_first" else (v.standard, v.safety_category)
    joint = "、" if layout == "comma" else "  "
    if layout == "one_line":  # the label on its line, both standards on the next, set smaller to fit
        card.text(x + 3.0, y + 4.2, first + joint + second, 2.8, ink, value_face, max_w_mm=right - x - 3.0)
        y += 4.2 + 4.6
    else:  # the second standard on the line under the first, as printers break a line between two standards
        card.text(x + used + 0.4, y, first + ("、" if layout == "comma" else ""), 2.8, ink, value_face, max_w_mm=room)
        card.text(x + used + 0.4, y + 4.2, second, 2.8, ink, value_face, max_w_mm=room)
        y += 4.2 + 4.6
    fields.update(standard=v.standard, safety_category=v.safety_category)
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    price = money(v.price, pick(rng, ("yen", "yuan", "yen_spaced")))
    card.text(x + used + 0.6, y, price, 4.8, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_block(card, v.ean13, 8.5, 103.0 - 18.0, 40.0, 10.0, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def twin_codes(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal tag (100×60 mm) carrying the product's EAN-13 and the shop's own code (in-store EAN-13 or SKU)."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    card = _card(rng, style_seed, 104.0, 64.0, px_per_mm)
    card.hole(5.5, 32, 1.6)
    card.text(11, 3.2, v.brand, 5.0, BLACK, face, max_w_mm=40, stroke=1)
    x, right = 11.0, 58.0
    fields, y = _rows(card, x, 10.5, right, _field_rows(rng, v), 2.6, 4.3, BLACK, face, value_face)
    price = money(v.price, pick(rng, ("yen", "yuan", "rmb")))
    used = card.text(x, y + 0.8, pick(rng, ("零售价：", "吊牌价：")), 2.8, BLACK, face)
    card.text(x + used + 0.6, y, price, 4.2, BLACK, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    shop = pick(rng, ("store_ean", "sku128"))
    turned = rng.random() < 0.4
    if shop == "store_ean":
        shop_text, shop_label, shop_format = store_code(v.ean13), pick(rng, ("店内码", "店内码 Store")), "EAN-13"
    else:
        shop_text, shop_label, shop_format = sku(v), pick(rng, ("SKU", "SKU：", "商品编码")), "Code128"
    if turned:  # the product's EAN-13 along the right edge, the shop's code across the block beside it
        strip = Card(46.0, 14.4, px_per_mm, card.stock)
        ean_block(strip, v.ean13, 0.0, 0.0, 46.0, 10.0, BLACK, value_face)
        print_turned(card, strip, 87.5, 9.0, clockwise=rng.random() < 0.5)
        code_x, code_w, top = 61.0, 24.5, 20.0
    else:
        ean_block(card, v.ean13, 62.0, 7.0, 36.0, 10.0, BLACK, value_face)
        code_x, code_w, top = 62.0, 36.0, 27.0
    card.text(code_x, top, shop_label, 2.4, (90, 90, 96), face)
    if shop_format == "EAN-13":
        ean_block(card, shop_text, code_x, top + 3.2, code_w, 9.0, BLACK, value_face)
    else:
        card.linear_code(shop_text, "Code128", code_x, top + 3.2, code_w, 9.0, BLACK)
        card.text(code_x + code_w / 2, top + 12.8, shop_text, 2.2, BLACK, value_face, anchor="ma", max_w_mm=code_w)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
