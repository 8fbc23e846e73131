"""Three designs added on 2026-12-05 (twenty-seventh session), after the reader had been developed while looking at
the seventy-three in `designs`: a fresh yardstick nobody tuned for. Each is a tag Chinese garment makers print that
sets a judged field among others no earlier design puts beside it:

- `size_conversion`: a 合格证 with a **size-conversion table** (尺码对照: a row for each of five sizes of the style's
  run, columns 尺码 · 号型 · US · EU · UK), the garment's **row** marked (reverse print, a tint, a frame or an arrow
  at its end); a 尺码 row above it on some jobs only. The other rows hold four other sizes in the recipe's systems
  and numbers of three others (US 8, EU 38, UK 10) that are no size the recipe names;
- `fold_across`: a horizontal tag printed as one spread and **folded in two**, photographed half open: the crease
  down the middle, each panel a plane turned its own way to the camera (foreshortened, tapered by perspective,
  lit differently), and **every row runs across the fold** (the label on the left panel, the value on the right);
- `east_asia_export`: a long export tag for East Asian shops: the Chinese block (the recipe's fields, the price in
  RMB) beside a **Japanese block** (品番, サイズ, 素材, the price in **yen, written with the same ¥ sign**:
  `¥8,390（税込）`) and a **Korean block** (품번, 사이즈, 소재, `76,000원`), in either order, the Chinese first or
  second. The recipe's price is the RMB one; the yen and won prices are in no field.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a long value wrapped between its
units keeps its words). Faces are `fonts` faces only; Hangul only in the faces that hold it (`HANGUL_FACES`).
Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import math

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventeenth_designs import unit_lines
from training.tagsets.sixth_designs import warped_across
from training.tagsets.values import TagValues

HANGUL_FACES = ("wqy-zenhei", "wqy-microhei")  # the AR PL faces hold no Hangul


def _field_rows(v: TagValues, rng: np.random.Generator, size_row: bool = True) -> list[tuple[str, str, str]]:
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color")]
    if size_row:
        rows.append((pick(rng, ("号型", "规格", "尺码")), v.size, "size"))
    return rows + [(pick(rng, ("成分", "面料")), v.composition, "composition"), ("等级", v.grade, "grade"),
                   ("执行标准", v.standard, "standard"),
                   (pick(rng, ("安全类别", "安全技术类别")), v.safety_category, "safety_category")]


def colon_rows(card: Card, x: float, y: float, right: float, rows, size: float, pitch: float, ink: Color,
               label_ink: Color, face: str, value_face: str, colon: str) -> tuple[dict[str, str], float]:
    """Label and value rows; a value too long for its line goes on under it, cut between its units, in line with
    the value above. Returns the fields as printed and the next row's top."""
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = card.text(x, y, label + colon, size, label_ink, face)
        vx = x + used + 0.4
        lines = [value] if width_mm(card, value, size, value_face) <= right - vx else unit_lines(
            value, right - vx, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            card.text(vx, y + 1.12 * size * k, line, size, ink, value_face, max_w_mm=right - vx)
        fields[name] = " ".join(lines)
        y += pitch + 1.12 * size * (len(lines) - 1)
    return fields, y


# -- a size-conversion table, the garment's row marked -------------------------------------------------------------

# The letter run by height (GB/T 1335's 5 cm steps, chest 4 cm a step on the A body: XS 155/80A … 3XL 185/104A), one
# size past each end for a neighbouring size a mix-up gives; and the US, EU and UK sizes of each, as conversion
# tables on Chinese export tags print them.
RUN_HEIGHTS = (150, 155, 160, 165, 170, 175, 180, 185, 190)
RUN_LETTERS = ("XXS", "XS", "S", "M", "L", "XL", "XXL", "3XL", "4XL")
WOMENS = {"US": ("0", "2", "4", "6", "8", "10", "12", "14", "16"),
          "EU": ("32", "34", "36", "38", "40", "42", "44", "46", "48"),
          "UK": ("4", "6", "8", "10", "12", "14", "16", "18", "20")}
MENS = {"US": ("32", "34", "36", "38", "40", "42", "44", "46", "48"),
        "EU": ("42", "44", "46", "48", "50", "52", "54", "56", "58"),
        "UK": ("32", "34", "36", "38", "40", "42", "44", "46", "48")}


def run_index(size: str) -> int:
    """Where `size` stands in the run: a letter by itself (2XL is XXL), a 号型 by its height."""
    if "/" in size:
        return RUN_HEIGHTS.index(int(size.split("/")[0]))
    return RUN_LETTERS.index("XXL" if size == "2XL" else size)


def conversion_rows(size: str, menswear: bool, rng: np.random.Generator) -> tuple[list[tuple[str, ...]], int]:
    """Five rows (letter, 号型, US, EU, UK) of the run around `size` and the index of its row: a letter size runs
    against the A body's 号型, a 号型 runs its own body by 5 cm of height and 4 cm of girth. The garment's own
    spelling (2XL) in its row."""
    k = run_index(size)
    if "/" in size:
        height, rest = size.split("/")
        girth, body = int(rest[:-1]), rest[-1]
        hao = [f"{h}/{girth + 4 * (i - k)}{body}" for i, h in enumerate(RUN_HEIGHTS)]
    else:
        hao = [f"{h}/{76 + 4 * i}A" for i, h in enumerate(RUN_HEIGHTS)]
    letters = [size if i == k and "/" not in size else letter for i, letter in enumerate(RUN_LETTERS)]
    lo, hi = min(1, k), max(7, k)  # XXS and 4XL only where the garment's size is one
    start = int(np.clip(k - int(rng.integers(0, 5)), lo, hi - 4))
    table = MENS if menswear else WOMENS
    rows = [(letters[i], hao[i], table["US"][i], table["EU"][i], table["UK"][i]) for i in range(start, start + 5)]
    return rows, k - start


def size_conversion(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical 合格证 (58×110 mm): colon rows, the price, a size-conversion table (尺码 · 号型 · US · EU · UK over five
    sizes of the run) with the garment's row marked, the EAN-13 under it."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (44, 40, 40)))
    stock = pick(rng, ((255, 255, 255), (250, 248, 242), (244, 245, 247)))
    mark = pick(rng, ("invert", "tint", "frame", "arrow"))
    w, h = 58.0, 110.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.0, 1.8)
    card.text(w / 2, 9.0, v.brand, 5.6, ink, face, anchor="ma", max_w_mm=w - 14, stroke=1)
    card.line(5, 16.0, w - 5, 16.0, ink, 0.2)
    size_row = rng.random() < 0.4
    colon = pick(rng, ("：", "： "))
    fields, y = colon_rows(card, 4.5, 18.0, w - 4.5, _field_rows(v, rng, size_row), 2.7, 4.2, ink, ink, face,
                           value_face, colon)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced", "rmb")))
    used = card.text(4.5, y + 1.2, pick(rng, ("零售价", "吊牌价")) + colon.strip(), 3.0, ink, face)
    card.text(4.5 + used + 1.0, y + 0.2, price, 4.6, ink, value_face, max_w_mm=w - 10.0 - used, stroke=1)
    menswear = "男" in v.product_name or ("女" not in v.product_name and rng.random() < 0.5)
    rows, marked = conversion_rows(v.size, menswear, rng)
    top = y + 9.5
    card.text(4.5, top - 3.6, pick(rng, ("尺码对照表", "尺码对照 SIZE GUIDE", "国际尺码换算")), 2.4, ink, face)
    heads = (pick(rng, ("尺码", "SIZE", "国际")), "号型", "US", "EU", "UK")
    widths = (9.0, 14.0, 9.0, 9.0, 9.0)
    x0, row_h = 4.5, 4.3
    lefts = [x0 + sum(widths[:c]) for c in range(len(widths))]
    right = lefts[-1] + widths[-1]
    tint = tuple(int(c * 0.78 + t * 0.22) for c, t in zip(stock, ink))
    my = top + (marked + 1) * row_h
    if mark == "invert":
        card.rect((x0, my, right, my + row_h), fill=ink)
    elif mark == "tint":
        card.rect((x0, my, right, my + row_h), fill=tint)
    for r in range(len(rows) + 2):
        card.line(x0, top + r * row_h, right, top + r * row_h, ink, 0.15 if 0 < r < len(rows) + 1 else 0.25)
    for c in range(len(widths) + 1):
        cx = lefts[c] if c < len(widths) else right
        card.line(cx, top, cx, top + (len(rows) + 1) * row_h, ink, 0.15)
    if mark == "frame":
        card.rect((x0 - 0.4, my - 0.4, right + 0.4, my + row_h + 0.4), outline=ink, width_mm=0.55)
    elif mark == "arrow":  # a solid arrowhead in the margin pointing at the garment's row
        tip, mid = right + 0.6, my + row_h / 2
        card.draw.polygon([(card.px(tip), card.px(mid)), (card.px(tip + 2.2), card.px(mid - 1.3)),
                           (card.px(tip + 2.2), card.px(mid + 1.3))], fill=ink)
    for c, head in enumerate(heads):
        card.text(lefts[c] + widths[c] / 2, top + 1.0, head, 2.2, ink, face, anchor="ma", max_w_mm=widths[c] - 0.8)
    for r, cells in enumerate(rows):
        on = r == marked
        cell_ink = stock if on and mark == "invert" else ink
        for c, text in enumerate(cells):
            card.text(lefts[c] + widths[c] / 2, top + (r + 1) * row_h + 1.0, text, 2.2, cell_ink, value_face,
                      anchor="ma", max_w_mm=widths[c] - 0.8, stroke=1 if on and mark in ("tint", "frame") else 0)
    code_top = top + (len(rows) + 1) * row_h + 3.0
    ean_block(card, v.ean13, 10.0, code_top, w - 20.0, min(10.0, h - code_top - 4.5), ink, value_face)
    fields.update(size=v.size, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a tag folded in two, rows across the fold --------------------------------------------------------------------

def fold_map(width_px: int, fold_px: float, left_rad: float, right_rad: float, distance_px: float):
    """The forward map of a card folded along the column `fold_px` (a valley: the crease farthest), its left panel
    turned `left_rad` and its right panel `right_rad` towards the camera, seen from `distance_px` in front of the
    crease. Returns (x'(s), scale(s)) of the arc length s (card pixels): the projected x (0 at the crease) and the
    perspective scale (1 at the panel edge nearest the camera, less towards the crease, so rows taper)."""
    def depth(s):
        s = np.asarray(s, np.float64)
        return np.where(s < fold_px, -(fold_px - s) * math.sin(left_rad), -(s - fold_px) * math.sin(right_rad))

    nearest = float(min(depth(0.0), depth(float(width_px))))

    def scale(s):
        return (distance_px + nearest) / (distance_px + depth(s))

    def x(s):
        s = np.asarray(s, np.float64)
        lateral = np.where(s < fold_px, -(fold_px - s) * math.cos(left_rad), (s - fold_px) * math.cos(right_rad))
        return lateral * scale(s)

    return x, scale


def folded(art: TagArt, fold_px: float, left_rad: float, right_rad: float, distance_px: float,
           gains: tuple[float, float]) -> TagArt:
    """`art` folded along `fold_px` and photographed half open (see `fold_map`): each column lands at its projected
    x, its height shrunk about the card's middle by the perspective scale, each panel lit by its own gain and the
    crease shaded (sixth_designs.warped_across)."""
    w = art.rgba.shape[1]
    x_of, scale_of = fold_map(w, fold_px, left_rad, right_rad, distance_px)

    def light(s: np.ndarray) -> np.ndarray:
        near = np.clip(1.0 - np.abs(s - fold_px) / (0.04 * w), 0.0, 1.0)
        return np.where(s < fold_px, gains[0], gains[1]) * (1.0 - 0.18 * near ** 2)  # the crease's shadow

    return warped_across(art, x_of, scale_of, light, np.array([fold_px]))


def fold_across(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal tag (two 56×80 mm panels) printed as one spread: the brand over the fold, each row's label on
    the left panel and its value on the right (just past the crease or flush right, with dotted leaders or none),
    the price the same way, the EAN-13 on the right panel; folded in two and photographed half open."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (52, 40, 34)))
    label_ink = pick(rng, (ink, (96, 96, 102)))
    stock = pick(rng, ((252, 252, 248), (246, 243, 234), (240, 242, 244), (238, 230, 216)))
    panel, h = 56.0, 80.0
    w = 2 * panel
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(6.0, 6.0, 1.7)  # punched through both panels at the closed tag's corner
    card.hole(w - 6.0, 6.0, 1.7)
    card.text(panel, 4.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=70, stroke=1)
    card.text(panel, 12.4, pick(rng, ("合格证", "产品合格证", "产品信息")), 2.8, label_ink, face, anchor="ma")
    flush_right = rng.random() < 0.5
    leaders = flush_right and rng.random() < 0.5
    size, pitch, x_label, room = 2.8, 4.7, 6.0, w - 6.0
    rows = _field_rows(v, rng)
    fields: dict[str, str] = {}
    y = 17.5
    for label, value, name in rows:
        used = card.text(x_label, y, label, size, label_ink, face)
        space = room - panel - 2.5
        lines = [value] if width_mm(card, value, size, value_face) <= space else unit_lines(
            value, space, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            if flush_right:
                vw = card.text(room, y, line, size, ink, value_face, anchor="ra", max_w_mm=space)
                if leaders and k == 0:
                    dots = "·" * max(0, int((room - vw - x_label - used - 3.0) / (0.5 * size)))
                    card.text(x_label + used + 1.2, y, dots, size, label_ink, face)
            else:
                card.text(panel + 2.5, y, line, size, ink, value_face, max_w_mm=space)
            y += 1.12 * size if k < len(lines) - 1 else pitch
        fields[name] = " ".join(lines)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    card.text(x_label, y + 1.6, pick(rng, ("零售价", "吊牌价", "统一零售价")), 3.0, label_ink, face)
    if flush_right:
        card.text(room, y + 0.6, price, 4.6, ink, value_face, anchor="ra", max_w_mm=room - panel - 2.0, stroke=1)
    else:
        card.text(panel + 2.5, y + 0.6, price, 4.6, ink, value_face, max_w_mm=room - panel - 2.5, stroke=1)
    ean_block(card, v.ean13, panel + 12.0, h - 14.5, 34.0, 9.0, BLACK, value_face)
    flat = card.finish({**fields, "price": price, "brand": v.brand, "ean13": v.ean13})
    # the panel turned further from the lamp is the darker; one panel faces the camera almost square
    steep, shallow = math.radians(float(rng.uniform(22, 42))), math.radians(float(rng.uniform(0, 12)))
    left, right = (steep, shallow) if rng.random() < 0.5 else (shallow, steep)
    gains = (float(rng.uniform(0.86, 0.95)), 1.0) if left > right else (1.0, float(rng.uniform(0.86, 0.95)))
    fold_px = panel * px_per_mm
    return folded(flat, fold_px, left, right, float(rng.uniform(3.0, 5.0)) * fold_px, gains)


# -- an export tag in Chinese, Japanese and Korean ----------------------------------------------------------------

JAPANESE_FIBRES = {"棉": "綿", "聚酯纤维": "ポリエステル", "氨纶": "ポリウレタン", "粘纤": "レーヨン", "锦纶": "ナイロン",
                   "羊毛": "毛", "腈纶": "アクリル", "桑蚕丝": "絹", "亚麻": "麻", "莫代尔": "モダール",
                   "再生纤维素纤维": "再生セルロース"}
KOREAN_FIBRES = {"棉": "면", "聚酯纤维": "폴리에스터", "氨纶": "폴리우레탄", "粘纤": "레이온", "锦纶": "나일론",
                 "羊毛": "울", "腈纶": "아크릴", "桑蚕丝": "실크", "亚麻": "린넨", "莫代尔": "모달",
                 "再生纤维素纤维": "재생 셀룰로스"}
KOREAN_CHEST = ("80", "85", "90", "95", "100", "105", "110", "115", "120")  # KS sizes by chest, XXS … 4XL


def translated(composition: str, words: dict[str, str]) -> str:
    """'棉 95% 氨纶 5%' with each fibre in another language's word for it."""
    parts = composition.split(" ")
    return " ".join(words.get(p, p) for p in parts)


def letter_of(size: str) -> str:
    """The letter a shop abroad sells `size` as: a letter as it is, a 号型 by its height."""
    return size if "/" not in size else RUN_LETTERS[run_index(size)]


def yen_price(price: str) -> int:
    """The Japanese shop's price for a yuan price: about 21 yen a yuan, up to the next hundred, less ten."""
    return math.ceil(float(price) * 21 / 100) * 100 - 10


def won_price(price: str) -> int:
    """The Korean shop's price: about 190 won a yuan, up to the next thousand."""
    return math.ceil(float(price) * 190 / 1000) * 1000


def east_asia_export(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A long vertical export tag (58×128 mm): the brand, then a Chinese block (colon rows, the price in RMB), a
    Japanese block (品番, サイズ, 素材, the price in yen with the same ¥ sign) and a Korean block (품번, 사이즈, 소재, the
    price in won), each under a small language chip, the Chinese first or second; the EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    hangul_face = pick(rng, HANGUL_FACES)
    ink = pick(rng, (BLACK, (30, 34, 60), (40, 40, 44)))
    chip = pick(rng, (ink, (150, 30, 42), (30, 50, 112), (110, 110, 116)))
    stock = pick(rng, ((255, 255, 255), (248, 247, 242), (240, 241, 243)))
    w, h = 58.0, 128.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.0, 1.8)
    card.text(w / 2, 9.0, v.brand, 5.8, ink, face, anchor="ma", max_w_mm=w - 14, stroke=1)
    card.line(5, 16.5, w - 5, 16.5, ink, 0.2)
    colon = pick(rng, ("：", "： "))
    jp_price = f"{yen_price(v.price):,}"
    jp_price = pick(rng, (f"¥{jp_price}（税込）", f"¥{jp_price}", f"¥ {jp_price}"))
    jp_rows = [("品番", v.style_number), ("サイズ", letter_of(v.size)),
               (pick(rng, ("素材", "組成")), translated(v.composition, JAPANESE_FIBRES)),
               (pick(rng, ("価格", "販売価格", "税込価格")), jp_price)]
    kr_size = KOREAN_CHEST[run_index(v.size)] if v.size in RUN_LETTERS + ("2XL",) or "/" in v.size else v.size
    kr_rows = [("품번", v.style_number), ("사이즈", kr_size),
               (pick(rng, ("소재", "혼용률")), translated(v.composition, KOREAN_FIBRES)),
               (pick(rng, ("가격", "판매가")), pick(rng, (f"{won_price(v.price):,}원", f"KRW {won_price(v.price):,}")))]
    order = pick(rng, (("cn", "jp", "kr"), ("cn", "jp", "kr"), ("jp", "cn", "kr"), ("cn", "kr", "jp")))
    fields: dict[str, str] = {}
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    y = 19.0
    for block in order:
        name, chip_face = {"cn": ("中文", face), "jp": ("日本語", face), "kr": ("한국어", hangul_face)}[block]
        cw = width_mm(card, name, 2.2, chip_face) + 1.6
        card.rect((4.5, y, 4.5 + cw, y + 3.2), fill=chip, radius_mm=0.5)
        card.text(5.3, y + 0.5, name, 2.2, stock, chip_face)
        y += 4.4
        if block == "cn":
            printed, y = colon_rows(card, 4.5, y, w - 4.5, _field_rows(v, rng), 2.7, 4.2, ink, ink, face, value_face,
                                    colon)
            fields.update(printed)
            used = card.text(4.5, y + 0.9, pick(rng, ("零售价", "吊牌价")) + colon.strip(), 2.9, ink, face)
            card.text(4.5 + used + 1.0, y, price, 4.2, ink, value_face, max_w_mm=w - 10.0 - used, stroke=1)
            y += 6.6
        else:
            rows_face = face if block == "jp" else hangul_face
            text_face = value_face if block == "jp" else hangul_face
            rows = jp_rows if block == "jp" else kr_rows
            _, y = colon_rows(card, 4.5, y, w - 4.5, [(label, value, label) for label, value in rows], 2.4, 3.7, ink,
                              ink, rows_face, text_face, "：" if block == "jp" else ": ")
            y += 1.6
    ean_block(card, v.ean13, 10.0, max(y + 0.5, h - 15.5), w - 20.0, 9.0, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
