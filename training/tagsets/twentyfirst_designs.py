"""Three designs added on 2026-12-05 (twenty-fifth session), after the reader had been developed while looking at the
sixty-one in `designs`: a fresh yardstick nobody tuned for. Each prints one field in a **value grammar** the earlier
designs never use, as Chinese factories print it:

- `colour_code`: the colour as a **code and a name** (`C09 藏青`, `09#藏青`, `藏青（C09）`, `09 藏青`) after 颜色/色号/
  色号/颜色; the recipe names the colour (`藏青`), as a job sheet's colour column does;
- `grouped_style`: the style number **grouped** as the maker's numbering scheme prints it: digits in groups parted by
  spaces (`1035 02 18`, `24 1035 02 18`; the recipe types it without the spaces, `10350218`) or a season code with
  slashes (`2024/AW-1035`, `24SS/1035/02`; slashes and all, in the recipe too); the price with a thousands separator
  and 元 (`1,299.00元`) or after ¥ (`¥1,299.00`);
- `blend_lining`: a **three-fibre blend and its lining** in FZ/T 01053 print forms: the share glued to the fibre
  (`棉65% 聚酯纤维30% 氨纶5%`), before it (`65%棉 30%聚酯纤维 5%氨纶`) or the fibres parted by slashes
  (`棉65%/聚酯纤维30%/氨纶5%`), under 面料/面料成分, with 里料 (`聚酯纤维100%`, not in the recipe) after it on the same
  line or the next; a wash-care line in words (`洗涤说明：30度以下水洗 不可漂白 …`, numbers no recipe checks).

Truth's `fields` keep the print; its `values` the recipe's form (writer._recipe_form): the colour's name, the style
number without the spaces, the fibre content as `棉 65% 聚酯纤维 30% 氨纶 5%`.
"""

from __future__ import annotations

import re

import numpy as np

from training.tagsets.canvas import MIN_PRINT_MM, Card, TagArt
from training.tagsets.fonts import font, font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.values import COLORS, TagValues

# A maker's colour card numbers its colours once; a colour keeps its code on every style.
COLOUR_CODE = {name: f"{(7 * i + 3) % 97 + 1:02d}" for i, name in enumerate(COLORS)}

SEASONS = ("AW", "SS", "FW", "SP")
SPACED_STYLE = re.compile(r"^\d{8}$|^\d{10}$")
BLENDS = ("棉 65% 聚酯纤维 30% 氨纶 5%", "聚酯纤维 60% 粘纤 35% 氨纶 5%", "羊毛 50% 锦纶 30% 腈纶 20%",
          "棉 55% 亚麻 40% 氨纶 5%", "粘纤 70% 锦纶 25% 氨纶 5%", "莫代尔 48% 棉 47% 氨纶 5%",
          "聚酯纤维 72% 粘纤 24% 氨纶 4%", "羊毛 60% 聚酯纤维 30% 羊绒 10%")
LININGS = ("聚酯纤维 100%", "粘纤 100%", "铜氨纤维 100%", "棉 100%", "聚酯纤维 65% 棉 35%")
CARE_WORDS = ("30度以下水洗", "手洗", "不可漂白", "悬挂晾干", "平摊晾干", "低温熨烫", "不可干洗", "不可翻转干燥")
FIBRE_SHARE = re.compile(r"(\D+?) (\d+%)")


def colour_print(name: str, form: str) -> str:
    """The colour as the tag prints it with its code: 'C09 藏青', '09#藏青', '藏青（C09）', '09 藏青'."""
    code = COLOUR_CODE.get(name, "00")
    return {"c_code": f"C{code} {name}", "hash": f"{code}#{name}", "after": f"{name}（C{code}）",
            "digits": f"{code} {name}"}[form]


def grouped(style_number: str) -> str:
    """A digits-only style number grouped as its scheme prints it: 4·2·2 ('1035 02 18') or 2·4·2·2; any other as it is."""
    if not SPACED_STYLE.match(style_number):
        return style_number
    cuts = (0, 4, 6, 8) if len(style_number) == 8 else (0, 2, 6, 8, 10)
    return " ".join(style_number[a:b] for a, b in zip(cuts, cuts[1:]))


def blend_print(composition: str, form: str) -> str:
    """'棉 65% 聚酯纤维 30% 氨纶 5%' as printed: 'glued' 棉65% 聚酯纤维30% …, 'share_first' 65%棉 30%聚酯纤维 …,
    'slashes' 棉65%/聚酯纤维30%/…"""
    pairs = FIBRE_SHARE.findall(" " + composition)
    pairs = [(fibre.strip(), share) for fibre, share in pairs]
    if form == "share_first":
        return " ".join(f"{share}{fibre}" for fibre, share in pairs)
    return ("/" if form == "slashes" else " ").join(f"{fibre}{share}" for fibre, share in pairs)


def grouped_money(price: str, form: str) -> str:
    """A price with a thousands separator: '1,299.00元' or '¥1,299.00' (no separator under a thousand)."""
    units, cents = price.split(".")
    amount = f"{int(units):,}.{cents}"
    return f"{amount}元" if form == "yuan" else f"¥{amount}"


def grouped_style_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """A style number of a maker's numbering scheme: digits (style·colour·size, with the year in front on some)
    or a year, a season code and a serial with slashes."""
    serial = int(rng.integers(1001, 9990))
    kind = pick(rng, ("digits", "digits", "year_digits", "season", "season_short"))
    if kind == "digits":
        number = f"{serial}{int(rng.integers(1, 40)):02d}{int(rng.integers(10, 50)):02d}"
    elif kind == "year_digits":
        number = f"{int(rng.integers(23, 27))}{serial}{int(rng.integers(1, 40)):02d}{int(rng.integers(10, 50)):02d}"
    elif kind == "season":
        number = f"{int(rng.integers(2023, 2027))}/{pick(rng, SEASONS)}-{serial}"
    else:
        number = f"{int(rng.integers(23, 27))}{pick(rng, SEASONS)}/{serial}/{int(rng.integers(1, 40)):02d}"
    return v.replace(style_number=number)


def blend_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """A face fabric of three fibres: the blends makers of trousers, suits and knitwear print."""
    return v.replace(composition=pick(rng, BLENDS))


def _card(rng: np.random.Generator, style_seed: int, w: float, h: float, px_per_mm: float) -> Card:
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (244, 244, 240), (248, 244, 236))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    return card


def _rows(card: Card, x: float, y: float, right: float, rows, size: float, pitch: float, ink, face: str,
          value_face: str) -> tuple[dict[str, str], float]:
    """Colon rows (label, value, field or None); a value too long for its line goes on two, split between its units."""
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face) if label else 0.0
        room = right - x - used - 0.4
        card.text(x + used + 0.4, y, value, size, ink, value_face, max_w_mm=room, wrap_mm=pitch * 1.6)
        if name:
            fields[name] = value
        y += pitch * (1.7 if _wraps(card, value, size, value_face, room) else 1.0)
    return fields, y


def _wraps(card: Card, value: str, size: float, face: str, room_mm: float) -> bool:
    """Whether `Card.text` sets `value` on two lines: it would shrink below the smallest legal print on one."""
    f = font(face, card.px(size))
    width, limit = f.getlength(value), card.px(room_mm)
    return width > limit and int(card.px(size) * limit / width) < card.px(MIN_PRINT_MM) and " " in value


def _finish(card: Card, rng: np.random.Generator, v: TagValues, x: float, y: float, right: float, price: str,
            ink, face: str, value_face: str, fields: dict[str, str]) -> TagArt:
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    card.text(x + used + 0.6, y, price, 4.8, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_block(card, v.ean13, 8.0, card.height_mm - 17.0, card.width_mm - 16.0, 10.0, ink, value_face)
    fields.update(product_name=v.product_name, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def _head(card: Card, rng: np.random.Generator, v: TagValues, ink, face: str) -> None:
    card.text(card.width_mm / 2, 10.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=card.width_mm - 14, stroke=1)
    card.text(card.width_mm / 2, 17.5, pick(rng, ("合格证", "产品合格证")), 3.2, ink, face, anchor="ma")


def colour_code(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A 合格证 (54×100 mm) whose colour row carries the maker's colour code beside the name."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 40, 80), (60, 36, 22)))
    card = _card(rng, style_seed, 54.0, 100.0, px_per_mm)
    _head(card, rng, v, ink, face)
    form = pick(rng, ("c_code", "hash", "after", "digits"))
    colour_label = pick(rng, ("颜色：", "色号：", "色号/颜色：", "颜色/色号："))
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (colour_label, colour_print(v.color, form), "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    x, right = 4.5, 49.5
    fields, y = _rows(card, x, 23.0, right, rows, 2.8, 4.6, ink, face, value_face)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    return _finish(card, rng, v, x, y + 0.8, right, price, ink, face, value_face, fields)


def grouped_style(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A 合格证 (56×100 mm) whose style number is printed grouped (spaces) or with its season code and slashes, and
    whose price carries a thousands separator."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (26, 42, 78), (40, 40, 48)))
    card = _card(rng, style_seed, 56.0, 100.0, px_per_mm)
    _head(card, rng, v, ink, face)
    rows = [("品名：", v.product_name, "product_name"),
            (pick(rng, ("货号：", "款号：", "款式编号：", "货号/Style No.：")), grouped(v.style_number), "style_number"),
            ("颜色：", v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    x, right = 4.5, 51.5
    fields, y = _rows(card, x, 23.0, right, rows, 2.8, 4.6, ink, face, value_face)
    price = grouped_money(v.price, pick(rng, ("yuan", "yen")))
    return _finish(card, rng, v, x, y + 0.8, right, price, ink, face, value_face, fields)


def blend_lining(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A 合格证 (58×112 mm) with the face fabric's blend and the lining in print forms of FZ/T 01053, and a care line."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 40, 80), (40, 40, 48)))
    card = _card(rng, style_seed, 58.0, 112.0, px_per_mm)
    _head(card, rng, v, ink, face)
    form = pick(rng, ("glued", "share_first", "slashes"))
    lining = blend_print(pick(rng, LININGS), form)
    blend = blend_print(v.composition, form)
    face_label, lining_label = pick(rng, (("面料：", "里料："), ("面料成分：", "里料成分："), ("面布：", "里布：")))
    x, right = 4.5, 53.5
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            ("颜色：", v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size")]
    fields, y = _rows(card, x, 23.0, right, rows, 2.8, 4.6, ink, face, value_face)
    if rng.random() < 0.5:  # under a 成分 heading, each part indented on its own line
        card.text(x, y, pick(rng, ("成分：", "纤维含量：")), 2.8, ink, face)
        parts, y = _rows(card, x + 3.0, y + 4.4, right, [(face_label, blend, "composition"),
                                                          (lining_label, lining, None)], 2.7, 4.4, ink, face, value_face)
    else:  # the face fabric's row, the lining on the next
        parts, y = _rows(card, x, y, right, [(face_label, blend, "composition"), (lining_label, lining, None)],
                         2.8, 4.6, ink, face, value_face)
    fields.update(parts)
    more = [("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    graded, y = _rows(card, x, y, right, more, 2.8, 4.6, ink, face, value_face)
    fields.update(graded)
    words = [CARE_WORDS[int(k)] for k in sorted(rng.choice(len(CARE_WORDS), size=4, replace=False))]
    used = card.text(x, y, "洗涤说明：", 2.2, (90, 90, 96), face)
    card.text(x + used, y, " ".join(words), 2.2, (90, 90, 96), face, max_w_mm=right - x - used, wrap_mm=5.0)
    price = money(v.price, pick(rng, ("yen", "yuan", "yen_spaced")))
    return _finish(card, rng, v, x, y + 6.0, right, price, ink, face, value_face, fields)
