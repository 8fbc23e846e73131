"""Three designs added on 2026-12-03 (fifteenth session), after the reader had been developed while looking at the
twenty-eight in `designs` and the seven batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the twenty-eight do not show:

- `currency_list`: an export or cross-border tag whose price is one entry of a list in several currencies
  (`RMB 399.00 / USD 59.00 / EUR 55,00`, `CN¥ 399.00` beside `JP¥ 8,990`, region names `中国大陆 ¥399.00` / `香港
  HK$450`), as a table or run on in one or two lines, the RMB entry first or not; the recipe's price is the RMB one;
- `vertical_columns`: a traditional-style (国风) tag set in vertical columns (竖排): characters top to bottom, columns
  right to left, the brand in the rightmost column beside a red seal; Latin and digit runs either turned a quarter
  turn clockwise (two characters or fewer set across the column, 纵中横) or stacked upright one under the other;
  the EAN-13 horizontal at the foot;
- `clear_pvc`: a clear or frosted PVC tag: the print sits on see-through stock, so whatever lies under the tag
  (the scene's fabric, wood, printed sheets) shows behind the text at a lower contrast; a bright specular rim along
  the cut edge, a soft gloss streak, and a white underprint only where a code must scan.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says. Faces are `fonts` faces only. Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import math
import unicodedata

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import stretched_text, width_mm
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import TagValues

# -- a price list in several currencies ----------------------------------------------------------------------

# code, symbol, region, RMB per unit, whole units only
CURRENCIES = (("USD", "US$", "美国", 7.2, False), ("EUR", "€", "欧元区", 7.8, False), ("HKD", "HK$", "香港", 0.92, True),
              ("JPY", "JP¥", "日本", 0.048, True), ("GBP", "£", "英国", 9.1, False), ("SGD", "S$", "新加坡", 5.35, False),
              ("TWD", "NT$", "台湾", 0.225, True))


def foreign_amount(price: str, rmb_per_unit: float, whole: bool) -> str:
    """What an export price list asks in another currency for an RMB `price`: converted, then rounded up as shops
    price (whole currencies to a ...90 or whole ten, the others to .00 or .90), thousands separated."""
    amount = float(price) / rmb_per_unit
    if whole:
        step = 100 if amount >= 1000 else 10
        value = math.ceil(amount / step) * step - (10 if amount >= 1000 else 0)
        return f"{max(value, step):,}"
    units = math.ceil(amount)
    return f"{units - 0.1:,.2f}" if units >= 20 and units % 2 else f"{units:,.2f}"


def price_entries(price: str, rng: np.random.Generator) -> tuple[list[tuple[str, str]], int, str]:
    """The list as printed: (lead, amount) per currency, the index of the RMB entry and the form ('code': `CNY` then
    `549.00`, `EUR` then `70,90`; 'symbol': `CN¥ 399.00`, `US$ 59.00`; 'region': `中国大陆` then `¥399.00`)."""
    form = pick(rng, ("code", "code", "symbol", "region"))
    n = int(rng.integers(2, 5))
    chosen = [CURRENCIES[int(k)] for k in rng.choice(len(CURRENCIES), size=n, replace=False)]
    comma_euro = form == "code" and rng.random() < 0.4  # a European tag's decimal comma: `EUR 55,00`
    entries = []
    for code, symbol, region, rate, whole in chosen:
        amount = foreign_amount(price, rate, whole)
        if code == "EUR" and comma_euro and "." in amount:
            amount = amount.replace(",", " ").replace(".", ",")
        entries.append({"code": (code, amount), "symbol": ("", f"{symbol} {amount}"), "region": (region, f"{symbol}{amount}")}[form])
    if form == "code":
        rmb = (pick(rng, ("RMB", "CNY")), price)
    elif form == "symbol":
        rmb = ("", f"CN¥ {price}")
    else:
        rmb = (pick(rng, ("中国大陆", "中国", "内地")), f"¥{price}")
    at = 0 if rng.random() < 0.5 else int(rng.integers(1, n + 1))
    entries.insert(at, rmb)
    return entries, at, form


def printed_price(entry: tuple[str, str], form: str) -> str:
    """The RMB entry as a reader sees the price: the currency code and the amount (`CNY 549.00`), the symbol and the
    amount (`CN¥ 399.00`, `¥399.00`); a region name is a label, not part of the price."""
    lead, amount = entry
    return f"{lead} {amount}" if form == "code" else amount


def currency_list(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """An export tag: colon rows, then a price list in several currencies (a table, or run on between slashes), the
    RMB entry anywhere in it; MADE IN CHINA and an EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    w, h = 56.0, 116.0
    stock = pick(rng, ((252, 252, 250), (246, 244, 238), (238, 238, 236), (232, 236, 240)))
    accent = pick(rng, (BLACK, (28, 46, 92), (120, 28, 36), (40, 70, 56)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 6.0, 1.8, ring=pick(rng, (None, (206, 206, 210))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(w / 2, 10.5, brand, 6.0, accent, latin if brand.isascii() else face, anchor="ma", max_w_mm=44, stroke=1)
    card.line(5, 19.0, w - 5, 19.0, accent, 0.3)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]
    y = 21.5
    for label, value, _ in rows:
        row(card, 5, y, label, value, 2.7, BLACK, BLACK, face, value_face, w - 10, pitch=4.3)
        y += 4.3
    entries, at, form = price_entries(v.price, rng)
    card.text(5, y + 1.2, pick(rng, ("零售价 RETAIL PRICE", "建议零售价 PRICE", "价格 PRICE", "零售价")), 2.6, accent, face)
    y += 5.6
    size = 3.2
    if rng.random() < 0.6:  # a table: lead on the left, the amount flush right
        for k, (lead, amount) in enumerate(entries):
            s = size + (0.6 if k == at and rng.random() < 0.5 else 0.0)
            if lead:
                card.text(6, y + (s - 2.8) * 0.6, lead, 2.8, BLACK, face if not lead.isascii() else latin)
            amount_face = face if form == "region" else latin
            card.text(w - 6, y, amount, s, BLACK, amount_face, anchor="ra", stroke=int(k == at and "Bold" not in amount_face))
            y += s + 1.3
    else:  # run on: `RMB 399.00 / USD 59.00 / EUR 55,00`, wrapped between entries
        x, room = 5.0, w - 10
        for k, (lead, amount) in enumerate(entries):
            text = (f"{lead} " if lead else "") + amount + (" /" if k < len(entries) - 1 else "")  # `CNY 549.00 /`
            item_face = face if not text.isascii() else latin
            tw = width_mm(card, text + " ", size, item_face)
            if x > 5.0 and x + tw - width_mm(card, " ", size, item_face) > 5.0 + room:
                x, y = 5.0, y + size * 1.35
            card.text(x, y, text, size, BLACK, item_face, max_w_mm=room)
            x += tw
        y += size * 1.35
    card.text(w / 2, h - 25.5, pick(rng, ("MADE IN CHINA 中国制造", "中国制造 MADE IN CHINA", "MADE IN CHINA")), 2.2,
              (96, 96, 100), face, anchor="ma")
    assert y <= h - 26.0, "the price list must end above MADE IN CHINA"
    ean_block(card, v.ean13, (w - 36) / 2, h - 21.5, 36, 10, BLACK, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=printed_price(entries[at], form), brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- vertical columns (竖排) ----------------------------------------------------------------------------------

def runs(text: str) -> list[tuple[str, bool]]:
    """`text` cut into runs for vertical setting: (run, wide) where a wide run is CJK (each character upright in its
    cell) and a narrow one Latin, digits and their punctuation (`GB 18401-2010 B`); spaces between runs drop out,
    spaces inside a narrow run stay."""
    out: list[tuple[str, bool]] = []
    for c in text:
        wide = unicodedata.east_asian_width(c) in ("W", "F")
        if out and out[-1][1] == wide and (not wide or c != " "):
            out[-1] = (out[-1][0] + c, wide)
        elif c != " ":
            out.append((c, wide))
    return [(r.strip(), wide) for r, wide in out if r.strip()]


def _paste_ink(card: Card, mask: Image.Image, x_px: int, y_px: int, ink: Color) -> None:
    card.image.paste(Image.new("RGB", mask.size, ink), (x_px, y_px), mask)
    card.draw = ImageDraw.Draw(card.image)


def column_text(card: Card, cx: float, y: float, text: str, size: float, ink: Color, face: str, latin: str) -> float:
    """`text` set down a column centred on `cx` from `y` (mm): CJK upright, one character to a cell; Latin runs as
    `latin` says ('turned': a quarter turn clockwise, two characters or fewer across the column; 'upright': stacked).
    Returns the y below the last character."""
    f = font(face, card.px(size))
    card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))
    cell = size * 1.06
    for k, (run, wide) in enumerate(runs(text)):
        if k:
            y += size * 0.25
        if wide:
            for c in run:
                card.draw.text((card.px(cx), card.px(y)), c, font=f, fill=ink, anchor="mt")
                y += cell
        elif latin == "upright" or len(run) == 1:
            for c in run:
                if c == " ":
                    y += size * 0.35
                    continue
                card.draw.text((card.px(cx), card.px(y + size * 0.06)), c, font=f, fill=ink, anchor="mt")
                y += size * 0.82
        elif len(run) <= 2:  # 纵中横: set across the column, condensed to one cell
            across = width_mm(card, run, size, face)
            squeeze = min(1.0, size * 0.95 / across)
            stretched_text(card, cx - across * squeeze / 2, y, run, size, ink, face, squeeze)
            y += cell
        else:
            mask = Image.new("L", (int(f.getlength(run)) + 4, int(f.size * 1.4)), 0)
            ImageDraw.Draw(mask).text((2, int(f.size * 0.1)), run, font=f, fill=255, anchor="la")
            turned = mask.transpose(Image.Transpose.ROTATE_270)  # a quarter turn clockwise: read top to bottom
            cols = np.nonzero(np.asarray(turned).max(axis=0) > 0)[0]
            rows = np.nonzero(np.asarray(turned).max(axis=1) > 0)[0]
            turned = turned.crop((int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1))
            _paste_ink(card, turned, card.px(cx) - turned.width // 2, card.px(y + size * 0.1), ink)
            y += turned.height / card.px_per_mm + size * 0.25
    return y


def vertical_columns(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A traditional-style tag set in vertical columns, right to left: the brand and a red seal, then one column per
    field (label, a gap, the value; a value that runs past the column's foot goes on in the next column), the price
    last; a frame of double rules, column rules or none; the EAN-13 horizontal at the foot."""
    rng = np.random.default_rng(style_seed)
    faces = font_names()
    kai = [f for f in faces if f in ("ukai", "uming")] or list(faces)
    face, value_face = pick(rng, kai), pick(rng, faces)
    w, h = 68.0, 112.0
    stock, ink, label_ink = pick(rng, (((244, 238, 222), BLACK, (150, 36, 32)), ((236, 228, 206), (40, 32, 28), (40, 32, 28)),
                                      ((200, 166, 120), (40, 28, 20), (40, 28, 20)), ((250, 248, 242), (28, 36, 60), (150, 36, 32))))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 3.0 if stock[0] > 220 else 5.0, fibres=True)
    card.rounded(pick(rng, (1.0, 2.0)))
    card.hole(w / 2, 6.0, 1.9)
    latin = pick(rng, ("turned", "turned", "upright"))
    size, pitch = 3.0, 5.0
    top, foot = 12.5, h - 27.0
    frame = pick(rng, ("double", "columns", "none"))
    if frame == "double":
        card.rect((2.5, 2.5, w - 2.5, h - 2.5), outline=label_ink, width_mm=0.45)
        card.rect((3.6, 3.6, w - 3.6, h - 3.6), outline=label_ink, width_mm=0.2)
    brand_x = w - 9.0
    if v.brand.isascii():
        column_text(card, brand_x, top, v.brand.upper(), 5.2, ink, pick(rng, latin_font_names()), "turned")
    else:
        column_text(card, brand_x, top, v.brand, 5.6, ink, face, latin)
    seal = pick(rng, ("正品", "监制", "合格"))
    sx, sy, side = brand_x - 3.2, foot - 9.0, 6.4
    card.rect((sx, sy, sx + side, sy + side * 1.7), fill=(178, 36, 30), radius_mm=0.6)
    column_text(card, sx + side / 2, sy + 0.9, seal, 4.0, stock, face, latin)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "尺码", "规格")), v.size, "size"),
            (pick(rng, ("成分", "面料")), v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category"),
            (pick(rng, ("零售价", "吊牌价")), price, "price")]
    x = brand_x - 7.0

    def length(text: str) -> float:  # how long `text` runs down a column, set on a strip off the card
        return column_text(Card(6, 240, px_per_mm, stock), 3, 0.0, text, size, ink, value_face, latin)

    for label, value, _ in rows:
        y = column_text(card, x, top, label, size, label_ink, face, latin) + size * 0.55
        # a value past the column's foot goes on in the next column, level with its start, cut between its units
        for k, part in enumerate(units_in_lines(value, foot - y, length)):
            if k:
                x -= pitch
            column_text(card, x, y, part, size, ink, value_face, latin)
        if frame == "columns":
            card.line(x - pitch / 2, top - 1.0, x - pitch / 2, foot + 1.0, label_ink, 0.15)
        x -= pitch
    assert x + pitch - size / 2 > 3.6, "every column must lie inside the frame"
    ean_block(card, v.ean13, (w - 38) / 2, h - 22.0, 38, 10, BLACK, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(brand=v.brand.upper() if v.brand.isascii() else v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a clear or frosted PVC tag ------------------------------------------------------------------------------

def see_through(print_rgb: np.ndarray, ink: Color, inside: np.ndarray, solid: np.ndarray, tint: Color,
                clearness: float, rim: np.ndarray, rim_rgb: np.ndarray, gloss: np.ndarray) -> np.ndarray:
    """RGBA of ink on PVC: the print (drawn in `ink` on white) covers its share `c` of each pixel; the stock lets
    `clearness` of what lies behind through (none where `solid`, a white underprint; little along the `rim`); a gloss
    layer of white share `gloss` lies on top. Layered as light meets them: ink over stock over whatever is under the
    tag, so the photograph shows c·ink + (1-c)·(b·stock + (1-b)·behind)."""
    luma = print_rgb.astype(np.float32) @ np.float32([0.299, 0.587, 0.114])
    ink_luma = float(np.dot(ink, (0.299, 0.587, 0.114)))
    c = np.clip((255.0 - luma) / max(255.0 - ink_luma, 1.0), 0.0, 1.0)
    b = np.where(solid, 1.0, 1.0 - clearness).astype(np.float32)
    b = np.maximum(b, rim * 0.9)
    stock = np.where(solid[..., None], np.float32(250.0), np.asarray(tint, np.float32))
    stock = stock * (1 - rim[..., None]) + rim_rgb * rim[..., None]
    alpha = c + (1 - c) * b
    rgb = c[..., None] * np.asarray(ink, np.float32) + ((1 - c) * b)[..., None] * stock
    g = gloss
    out_alpha = g + (1 - g) * alpha
    rgb = g[..., None] * 255.0 + (1 - g)[..., None] * rgb
    rgb = rgb / np.maximum(out_alpha, 1e-4)[..., None]
    out_alpha = out_alpha * inside
    return np.dstack([np.clip(rgb + 0.5, 0, 255), np.clip(out_alpha * 255 + 0.5, 0, 255)]).astype(np.uint8)


def clear_pvc(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A clear (65-82 % see-through) or frosted (25-45 %) PVC tag printed in one dark ink: brand, colon rows and the
    price straight on the plastic, the EAN-13 on a white underprint (the price on one too, half the time); a specular
    rim along the cut edge, brightest on the lamp's side, and a soft gloss streak across."""
    rng = np.random.default_rng(style_seed)
    # a Ming or Kai face's hairlines cover a fraction of a pixel and vanish into what lies behind: PVC is printed in a Hei
    sans = [f for f in font_names() if f.startswith("wqy")] or list(font_names())
    face, value_face = pick(rng, sans), pick(rng, sans)
    frosted = rng.random() < 0.5
    clearness = float(rng.uniform(0.25, 0.45) if frosted else rng.uniform(0.65, 0.82))
    tint = pick(rng, ((240, 242, 242), (236, 240, 244))) if frosted else pick(rng, ((222, 232, 234), (228, 230, 226)))
    ink = pick(rng, (BLACK, (20, 34, 80), (16, 16, 18)))
    w, h = 54.0, 90.0
    card = Card(w, h, px_per_mm, (255, 255, 255))
    card.rounded(pick(rng, (3.0, 5.0)))
    card.hole(w / 2, 6.0, 2.0)
    solid = Image.new("L", card.image.size, 0)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(w / 2, 10.5, brand, 6.0, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.line(6, 19.0, w - 6, 19.0, ink, 0.25)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]
    y = 21.5
    for label, value, _ in rows:
        row(card, 5, y, label, value, 2.8, ink, ink, face, value_face, w - 10, pitch=4.5)
        y += 4.5
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    if rng.random() < 0.5:
        ImageDraw.Draw(solid).rounded_rectangle(tuple(card.px(t) for t in (4.0, y + 0.4, w - 4.0, y + 7.4)), radius=card.px(1.0),
                                                fill=255)
    used = card.text(6, y + 2.2, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    card.text(6 + used + 0.6, y + 1.4, price, 4.6, ink, value_face, max_w_mm=w - 14 - used, stroke=1)
    ImageDraw.Draw(solid).rectangle(tuple(card.px(t) for t in (6.0, h - 19.5, w - 6.0, h - 4.0)), fill=255)
    ean_block(card, v.ean13, 9.0, h - 18.5, w - 18.0, 9.5, ink, value_face)
    inside = np.asarray(card.mask, np.float32) / 255.0
    rim_px = max(2, card.px(0.6))
    framed = Image.new("L", (card.mask.width + 2 * rim_px, card.mask.height + 2 * rim_px), 0)  # off the card is not card
    framed.paste(card.mask, (rim_px, rim_px))
    eroded = np.asarray(framed.filter(ImageFilter.MinFilter(2 * rim_px + 1)), np.float32)[rim_px:-rim_px, rim_px:-rim_px]
    rim = np.clip(inside - eroded / 255.0, 0.0, 1.0)
    yy, xx = np.mgrid[0:card.image.size[1], 0:card.image.size[0]].astype(np.float32)
    lamp = float(rng.uniform(0, 2 * np.pi))
    facing = np.cos(np.arctan2(yy - yy.mean(), xx - xx.mean()) - lamp)
    rim_rgb = (150.0 + 100.0 * np.clip(facing, 0, 1))[..., None] * np.ones(3, np.float32)
    slope, offset = float(rng.uniform(-1.2, 1.2)), float(rng.uniform(0.2, 0.8))
    across = (yy / card.px_per_mm - h * offset) - slope * (xx / card.px_per_mm - w / 2)
    gloss = float(rng.uniform(0.12, 0.3)) * np.exp(-0.5 * (across / float(rng.uniform(3.0, 7.0))) ** 2)
    if frosted:  # a matte surface: the frosting's grain
        gloss = gloss + np.abs(np.random.default_rng(style_seed + 2).normal(0, 0.015, gloss.shape))
    rgba = see_through(np.asarray(card.image), ink, inside, np.asarray(solid) > 0, tint, clearness, rim, rim_rgb,
                       gloss.astype(np.float32))
    card.image = Image.fromarray(rgba[..., :3])
    card.mask = Image.fromarray(rgba[..., 3])
    card.draw = ImageDraw.Draw(card.image)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
