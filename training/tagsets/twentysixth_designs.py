"""Three designs added on 2026-12-05 (twenty-ninth session), after the reader had been developed while looking at the
seventy-nine in `designs`: a fresh yardstick nobody tuned for. Each is a tag a real line meets that none of the
seventy-nine is:

- `euro_export`: a Chinese factory's **export tag for a European buyer** that also sells at home: the style number
  and the size once under labels in several languages (`货号 / REF. / ART.-NR.`, `尺码 / SIZE / TAILLE / GRÖSSE`),
  the Chinese fields as **one block of colon rows** with the RMB price, and the colour and the fibre content
  **repeated in three or four European languages** (English, French, German, Spanish; `NAVY / MARINE / MARINEBLAU /
  MARINO`, `95% COTTON 5% ELASTANE`, `95% COTON 5% ÉLASTHANNE` …) either language by language or field by field,
  half of them with the euro price beside it (`EUR 49,95`, decimal comma); the Chinese block first or last;
- `ribbon_wrinkle`: a pre-printed 合格证 form (brand, labels, rules in the brand's ink) whose **values and EAN-13 are
  overprinted on the line by a thermal-transfer printer with a tired ribbon and head**: the ribbon **running low**
  (ink density falling across the head, 55-100 %), a **wrinkle in the ribbon** (one or two narrow diagonal voids with
  a faint margin, across the values), and one to three **dead head elements** (a one-dot white line along the feed,
  top to bottom through every value it crosses; an operator keeps printing while the code still scans, so never
  through the code, which spans most of the card: they fall in the margins, through the right end of a long value);
- `slanted_face`: a brand tag **set in a slanted face throughout** (斜体: the design program shears a face that has no
  italic, 10-16°, Chinese included), labels and values alike, condensed (长体, 0.8-0.9) on half the jobs, the brand
  bold; the EAN-13's digits upright, as the code's own print.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a long value wrapped between its units
keeps its words).
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventeenth_designs import unit_lines
from training.tagsets.twentyfourth_designs import _field_rows, colon_rows
from training.tagsets.values import TagValues

# -- an export tag with its colour and fibres in European languages -------------------------------------------------

LANGUAGES = ("EN", "FR", "DE", "ES")
# each colour `values` draws, as a European buyer's tag names it (English, French, German, Spanish)
COLOUR_WORDS = {
    "黑色": ("BLACK", "NOIR", "SCHWARZ", "NEGRO"), "藏青": ("NAVY", "MARINE", "MARINEBLAU", "MARINO"),
    "米白": ("OFF-WHITE", "BLANC CASSÉ", "WOLLWEISS", "CRUDO"), "卡其": ("KHAKI", "KAKI", "KHAKI", "CAQUI"),
    "酒红": ("BURGUNDY", "BORDEAUX", "BORDEAUX", "BURDEOS"), "白色": ("WHITE", "BLANC", "WEISS", "BLANCO"),
    "灰色": ("GREY", "GRIS", "GRAU", "GRIS"), "浅灰": ("LIGHT GREY", "GRIS CLAIR", "HELLGRAU", "GRIS CLARO"),
    "深蓝": ("DARK BLUE", "BLEU FONCÉ", "DUNKELBLAU", "AZUL OSCURO"), "军绿": ("OLIVE", "KAKI", "OLIV", "VERDE MILITAR"),
    "驼色": ("CAMEL", "CAMEL", "KAMEL", "CAMEL"), "杏色": ("APRICOT", "ABRICOT", "APRIKOSE", "ALBARICOQUE"),
    "粉红": ("PINK", "ROSE", "ROSA", "ROSA"), "宝蓝": ("ROYAL BLUE", "BLEU ROI", "KÖNIGSBLAU", "AZUL REY"),
    "咖啡色": ("BROWN", "MARRON", "BRAUN", "MARRÓN"), "燕麦色": ("OATMEAL", "AVOINE", "HAFER", "AVENA"),
    "雾霾蓝": ("DUSTY BLUE", "BLEU GRISÉ", "RAUCHBLAU", "AZUL POLVO"), "奶白": ("CREAM", "CRÈME", "CREME", "CRUDO"),
    "墨绿": ("DARK GREEN", "VERT FONCÉ", "DUNKELGRÜN", "VERDE OSCURO"),
    "焦糖色": ("CARAMEL", "CARAMEL", "KARAMELL", "CARAMELO"), "浅蓝": ("LIGHT BLUE", "BLEU CLAIR", "HELLBLAU", "AZUL CLARO"),
    "花灰": ("GREY MARL", "GRIS CHINÉ", "GRAU MELIERT", "GRIS VIGORÉ"), "橙色": ("ORANGE", "ORANGE", "ORANGE", "NARANJA"),
    "紫色": ("PURPLE", "VIOLET", "LILA", "MORADO"),
}
# each fibre `values` draws, by the names of the EU textile regulation (1007/2011) in the same four languages
FIBRE_WORDS = {
    "棉": ("COTTON", "COTON", "BAUMWOLLE", "ALGODÓN"), "聚酯纤维": ("POLYESTER", "POLYESTER", "POLYESTER", "POLIÉSTER"),
    "氨纶": ("ELASTANE", "ÉLASTHANNE", "ELASTHAN", "ELASTANO"), "粘纤": ("VISCOSE", "VISCOSE", "VISKOSE", "VISCOSA"),
    "锦纶": ("POLYAMIDE", "POLYAMIDE", "POLYAMID", "POLIAMIDA"), "羊毛": ("WOOL", "LAINE", "WOLLE", "LANA"),
    "腈纶": ("ACRYLIC", "ACRYLIQUE", "POLYACRYL", "ACRÍLICO"), "桑蚕丝": ("SILK", "SOIE", "SEIDE", "SEDA"),
    "亚麻": ("LINEN", "LIN", "LEINEN", "LINO"), "莫代尔": ("MODAL", "MODAL", "MODAL", "MODAL"),
    "再生纤维素纤维": ("LYOCELL", "LYOCELL", "LYOCELL", "LYOCELL"),
}
COLOUR_LABELS = ("COLOUR", "COULEUR", "FARBE", "COLOR")
FABRIC_LABELS = ("COMPOSITION", "COMPOSITION", "MATERIAL", "COMPOSICIÓN")
MADE_IN = ("MADE IN CHINA", "FABRIQUÉ EN CHINE", "HERGESTELLT IN CHINA", "HECHO EN CHINA")
EUROS_PER_YUAN = 0.125  # a buyer's price list: about 8 yuan to the euro, then up to the next ,95


def in_language(composition: str, language: int) -> str:
    """A fibre content (`棉 95% 氨纶 5%`) as an EU label prints it in language `language` of LANGUAGES: the share first
    (`95% COTTON 5% ELASTANE`)."""
    words = composition.split(" ")
    return " ".join(f"{share} {FIBRE_WORDS[fibre][language]}" for fibre, share in zip(words[0::2], words[1::2]))


def euro_price(price: str) -> str:
    """The euro price a buyer's list sets beside a yuan price: about an eighth, up to the next ,95, with a decimal
    comma (`399.00` → `EUR 49,95`)."""
    return f"EUR {math.ceil(float(price) * EUROS_PER_YUAN - 0.95)},95"


def _latin_case(text: str, upper: bool) -> str:
    return text if upper else " ".join(w.capitalize() if not w.endswith("%") else w for w in text.split(" "))


def euro_export(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """An export tag (60×124 mm): style number and size under multilingual labels, the Chinese colon rows and the RMB
    price as one block, the colour and fibre content in three or four European languages, the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face, latin = pick(rng, font_names()), pick(rng, font_names()), pick(rng, latin_font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (40, 40, 40)))
    grey = pick(rng, ((96, 96, 100), (110, 106, 100), ink))
    w, h = 60.0, 124.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (246, 244, 238), (238, 236, 230))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.9)
    card.text(w / 2, 9.5, v.brand, 6.2, ink, face, anchor="ma", max_w_mm=w - 12, stroke=1)
    languages = [0, 1, 2, 3] if rng.random() < 0.5 else sorted(rng.choice(4, size=3, replace=False).tolist())
    if 0 not in languages:
        languages = [0] + languages[1:]
    upper = rng.random() < 0.6
    made_in = [MADE_IN[k] for k in languages]
    card.text(w / 2, 17.0, " · ".join(made_in[:2]), 2.2, grey, latin, anchor="ma")
    card.text(w / 2, 19.6, " · ".join(made_in[2:]), 2.2, grey, latin, anchor="ma")
    x, right = 5.0, w - 4.5
    y = 24.0
    card.line(x, y - 1.2, right, y - 1.2, grey, 0.2)
    style_label = "货号 / " + " / ".join(("REF.", "RÉF.", "ART.-NR.", "REF.")[k] for k in languages[:2])
    size_label = "尺码 / " + " / ".join(("SIZE", "TAILLE", "GRÖSSE", "TALLA")[k] for k in languages)
    card.text(x, y, style_label, 2.2, grey, latin if rng.random() < 0.5 else face)
    card.text(x, y + 2.8, v.style_number, 3.6, ink, value_face, max_w_mm=right - x, stroke=1)
    card.text(x, y + 7.6, size_label, 2.2, grey, face)
    card.text(x, y + 10.4, v.size, 4.2, ink, value_face, max_w_mm=right - x, stroke=1)
    y += 16.6
    card.line(x, y - 1.2, right, y - 1.2, grey, 0.2)
    fields = {"style_number": v.style_number, "size": v.size}

    def chinese_block(top: float) -> float:
        rows = [row for row in _field_rows(v, rng, size_row=False) if row[2] != "style_number"]
        printed, bottom = colon_rows(card, x, top, right, rows, 2.8, 4.4, ink, ink, face, value_face,
                                     pick(rng, ("：", ": ")))
        fields.update(printed)
        price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
        used = card.text(x, bottom + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
        card.text(x + used + 0.6, bottom + 0.2, price, 4.4, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
        fields["price"] = price
        return bottom + 7.4

    def latin_block(top: float) -> float:
        colour = COLOUR_WORDS[v.color]
        by_language = rng.random() < 0.5
        size = 2.4
        if by_language:  # EN  NAVY / 95% COTTON 5% ELASTANE, one language a line or two
            for k in languages:
                card.text(x, top + 0.2, LANGUAGES[k], 2.0, grey, latin)
                text = f"{_latin_case(colour[k], upper)} · {_latin_case(in_language(v.composition, k), upper)}"
                lines = unit_lines(text, right - x - 6.0, lambda t: width_mm(card, t, size, latin))
                for n, line in enumerate(lines):
                    card.text(x + 6.0, top + n * 2.9, line, size, ink, latin)
                top += 2.9 * len(lines) + 0.9
        else:  # COLOUR / COULEUR / FARBE: NAVY / MARINE / MARINEBLAU, then the fibres a language a line
            labels = " / ".join(COLOUR_LABELS[k] for k in languages)
            card.text(x, top, _latin_case(labels, upper), 2.1, grey, latin, max_w_mm=right - x)
            names = " / ".join(_latin_case(colour[k], upper) for k in languages)
            lines = unit_lines(names, right - x, lambda t: width_mm(card, t, size, latin))
            for n, line in enumerate(lines):
                card.text(x, top + 2.8 + n * 2.9, line, size, ink, latin)
            top += 2.8 + 2.9 * len(lines) + 0.8
            card.text(x, top, _latin_case(" / ".join(dict.fromkeys(FABRIC_LABELS[k] for k in languages)), upper),
                      2.1, grey, latin, max_w_mm=right - x)
            top += 2.8
            for k in languages:
                card.text(x, top, _latin_case(in_language(v.composition, k), upper), size, ink, latin,
                          max_w_mm=right - x)
                top += 2.9
        if rng.random() < 0.5:
            card.text(x, top + 0.6, euro_price(v.price), 3.0, ink, latin, stroke=0)
            top += 4.0
        return top + 1.6

    if rng.random() < 0.5:
        y = chinese_block(y)
        card.line(x, y - 1.6, right, y - 1.6, grey, 0.2)
        latin_block(y)
    else:
        y = latin_block(y)
        card.line(x, y - 1.6, right, y - 1.6, grey, 0.2)
        chinese_block(y)
    ean_block(card, v.ean13, 9.0, h - 17.0, w - 18.0, 10.0, BLACK, value_face)
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- values overprinted by a thermal-transfer printer with a tired ribbon and head ----------------------------------

HEAD_DPMM = 8.0  # a 203 dpi print head: one element prints a line 0.125 mm wide along the feed


def ribbon_faults(shape: tuple[int, int], px_per_mm: float, rng: np.random.Generator,
                  spare: tuple[float, float], wrinkle_rows: tuple[float, float]) -> np.ndarray:
    """How much of its ink a thermal-transfer pass lays down at each card pixel of `shape`, 0..1: the ribbon running
    low across the head (one side 55-80 % of the other), one or two **wrinkles** (a narrow diagonal void, 0.15-0.35
    mm, with a faint margin either side, across the card between `wrinkle_rows`' y, mm) and one to three **dead
    elements** (a one-element line along the feed, top to bottom), never in the x span `spare` (mm: the code's
    columns)."""
    h, w = shape
    mm = px_per_mm
    xs = np.arange(w, dtype=np.float32)
    low, high = float(rng.uniform(0.55, 0.8)), float(rng.uniform(0.92, 1.0))
    across = np.linspace(low, high, w, dtype=np.float32)
    if rng.random() < 0.5:
        across = across[::-1]
    density = np.repeat(across[None, :], h, axis=0)
    ys = np.arange(h, dtype=np.float32)[:, None]
    top, bottom = wrinkle_rows[0] * mm, wrinkle_rows[1] * mm
    for _ in range(int(rng.integers(1, 3))):
        slope = math.tan(math.radians(float(rng.uniform(15, 40)))) * (1 if rng.random() < 0.5 else -1)
        x0 = float(rng.uniform(0.2, 0.8)) * w
        y0 = float(rng.uniform(top, bottom))
        # distance from the line through (x0, y0) leaning `slope` from the feed (vertical)
        dist = np.abs((xs[None, :] - x0) - slope * (ys - y0)) / math.sqrt(1 + slope * slope)
        core = float(rng.uniform(0.15, 0.35)) * mm / 2
        margin = core + 0.3 * mm
        along = (ys >= top) & (ys <= bottom)
        density = np.where(along & (dist <= core), 0.0, density)
        density = np.where(along & (dist > core) & (dist <= margin), density * 0.55, density)
    element = mm / HEAD_DPMM
    spare_px = (spare[0] * mm - element, spare[1] * mm + element)
    for _ in range(int(rng.integers(1, 4))):
        for _try in range(20):
            cx = float(rng.uniform(0.08, 0.92)) * w
            if not spare_px[0] <= cx <= spare_px[1]:
                break
        else:
            continue
        dead = np.abs(xs - cx) <= max(0.5, element / 2)
        density[:, dead] = 0.0
    return np.clip(density, 0.0, 1.0)


def ribbon_wrinkle(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A pre-printed 合格证 form (56×94 mm) whose values and EAN-13 a thermal-transfer printer overprinted with a
    ribbon running low, a wrinkle in it and dead head elements."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    form_ink: Color = pick(rng, ((190, 30, 40), (28, 46, 110), (24, 96, 60), (96, 60, 36), (70, 70, 74)))
    stock = pick(rng, ((255, 255, 255), (248, 246, 240), (242, 242, 238)))
    w, h = 56.0, 94.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.9)
    card.text(w / 2, 9.5, v.brand, 6.0, form_ink, face, anchor="ma", max_w_mm=w - 12, stroke=1)
    card.text(w / 2, 16.6, pick(rng, ("合格证", "产品合格证")), 3.0, form_ink, face, anchor="ma")
    overprint = Card(w, h, px_per_mm, (255, 255, 255))  # the printer's pass, white where it lays no ink
    x, right, size, pitch = 5.0, w - 4.5, 2.8, 4.6
    colon = pick(rng, ("：", ": "))
    rows = _field_rows(v, rng)
    y = 22.0
    fields: dict[str, str] = {}
    first_value = y
    for label, value, name in rows:
        used = card.text(x, y, label + colon, size, form_ink, face)
        card.line(x + used + 0.2, y + size + 0.5, right, y + size + 0.5, form_ink, 0.15)
        vx = x + used + 0.8
        lines = [value] if width_mm(card, value, size, value_face) <= right - vx else unit_lines(
            value, right - vx, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            overprint.text(vx, y + 1.12 * size * k, line, size, BLACK, value_face, max_w_mm=right - vx)
        fields[name] = " ".join(lines)
        y += pitch + 1.12 * size * (len(lines) - 1)
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, form_ink, face)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    overprint.text(x + used + 0.8, y + 0.4, price, 4.4, BLACK, value_face, max_w_mm=right - x - used - 0.8, stroke=1)
    last_value = y + 5.0
    code = (8.0, h - 17.5, w - 16.0, 10.0)
    ean_block(overprint, v.ean13, *code, BLACK, value_face)
    density = ribbon_faults((overprint.image.size[1], overprint.image.size[0]), px_per_mm,
                            np.random.default_rng(style_seed + 5), (code[0], code[0] + code[2]), (first_value, last_value))
    laid = 1.0 - np.asarray(overprint.image.convert("L"), np.float32) / 255.0  # the pass's ink cover
    ink = np.asarray(BLACK, np.float32) / 255.0
    pixels = np.asarray(card.image, np.float32)
    cover = (laid * density)[..., None]
    card.image = Image.fromarray(np.clip(pixels * (1.0 - cover * (1.0 - ink)) + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    card.barcodes += overprint.barcodes
    card.smallest_print_px = min(card.smallest_print_px, overprint.smallest_print_px)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a slanted face throughout -------------------------------------------------------------------------------------

def slanted_text(card: Card, x_mm: float, y_mm: float, text: str, size_mm: float, ink: Color, face: str,
                 slant_deg: float, stretch: float = 1.0, stroke: int = 0) -> float:
    """One line from (x, y) (its top left) in `face` sheared `slant_deg` to the right about its foot (an oblique, as
    a design program slants a face that has no italic) and its glyphs scaled to `stretch` of their width. Returns
    the width it advances (mm), the lean at the top not counted."""
    f = font(face, card.px(size_mm))
    x0, y0, x1, y1 = f.getbbox(text, anchor="la", stroke_width=stroke)
    mask = Image.new("L", (int(math.ceil(x1)) + 2, int(math.ceil(y1)) + 2), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255, anchor="la", stroke_width=stroke, stroke_fill=255)
    if abs(stretch - 1.0) > 1e-3:
        mask = mask.resize((max(1, int(round(mask.width * stretch))), mask.height), Image.LANCZOS)
    advance = mask.width
    shear = math.tan(math.radians(slant_deg))
    lean = int(math.ceil(shear * mask.height))
    # output (u, v) samples input (u + shear * v - lean, v): the foot stays, the top leans right by `lean`
    mask = mask.transform((mask.width + lean, mask.height), Image.AFFINE, (1.0, shear, -float(lean), 0.0, 1.0, 0.0),
                          resample=Image.BICUBIC)
    card.image.paste(Image.new("RGB", mask.size, ink), (card.px(x_mm), card.px(y_mm)), mask)
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))
    return advance / card.px_per_mm


def slanted_face(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A brand tag (54×90 mm) set in a slanted face throughout (10-16°, condensed 0.8-0.9 on half the jobs): colon
    rows, the price large, the EAN-13 with its upright digits."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (60, 30, 36), (36, 52, 44)))
    slant = float(rng.uniform(10, 16))
    stretch = float(rng.uniform(0.8, 0.9)) if rng.random() < 0.5 else 1.0
    w, h = 54.0, 90.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (246, 243, 234), (236, 240, 242), (244, 236, 228))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0, 4.0)))
    card.hole(w / 2, 5.5, 1.8)
    brand_size = min(6.4, (w - 14.0) / max(0.1, width_mm(card, v.brand, 1.0, face, stretch)))
    brand_w = width_mm(card, v.brand, brand_size, face, stretch)
    slanted_text(card, (w - brand_w) / 2, 9.0, v.brand, brand_size, ink, face, slant, stretch, stroke=1)
    card.line(5.0, 17.6, w - 5.0, 17.6, ink, 0.3)
    x, right, size, pitch = 5.0, w - 5.0, 2.9, 4.7
    colon = pick(rng, ("：", ": "))
    y = 20.5
    fields: dict[str, str] = {}
    for label, value, name in _field_rows(v, rng):
        used = slanted_text(card, x, y, label + colon, size, ink, face, slant, stretch)
        vx = x + used + 0.5
        room = right - vx - size * math.tan(math.radians(slant))
        lines = [value] if width_mm(card, value, size, value_face, stretch) <= room else unit_lines(
            value, room, lambda t: width_mm(card, t, size, value_face, stretch))
        for k, line in enumerate(lines):
            slanted_text(card, vx, y + 1.12 * size * k, line, size, ink, value_face, slant, stretch)
        fields[name] = " ".join(lines)
        y += pitch + 1.12 * size * (len(lines) - 1)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = slanted_text(card, x, y + 1.4, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face, slant, stretch)
    room = right - x - used - 2.0
    price_size = min(5.0, room / max(0.1, width_mm(card, price, 1.0, value_face, stretch)))
    slanted_text(card, x + used + 0.8, y + 0.4, price, price_size, ink, value_face, slant, stretch, stroke=1)
    ean_block(card, v.ean13, 8.0, h - 16.5, w - 16.0, 9.5, BLACK, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
