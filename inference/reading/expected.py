"""Where a recipe's expected value may stand on a tag, in which printed forms, and which of them
the lines' own posteriors support (spotting.py).

A value is spotted whole, or — where a tag prints it in pieces — unit by unit, every unit
supported: a composition over three lines ('羊毛 65%' / '桑蚕丝 24%' …), a size printed as 175/96A
with a big XL beside it, a safety category's class alone. A price is spotted as an amount in the
forms prices are printed in (399.00, ¥399.00, 399元, 1,099.00), never as bare digits that could sit
inside a style number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from inference.reading import hao_xing
from inference.reading.evidence import run_like
from inference.reading.labels import line_parts, split_labeled
from inference.reading.normalize import halfwidth, parse_price
from inference.reading.recipe import FieldRule, Recipe
from inference.reading.repairs import FIBRES, GRADES, PARTS
from inference.reading.spotting import (RIVAL_MARGIN, RIVAL_REACH, Posteriors, Spot, best_spot, keyword, likeliest_of_its_kind, spot,
                                        vocabulary_of)
from inference.reading.types import OcrLine, SpottedField

# A unit: a word with the numbers that follow it ('羊毛 65%', 'GB/T 2660-2017').
_UNIT = re.compile(r"\S+(?:\s+[\d.,%]\S*)*")
# Fields printed in a closed alphabet — codes, sizes, standards, prices: Latin capitals, digits and
# their signs, plus the few characters of the value itself (类, ¥, 元). A glyph outside it is a misread.
CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ/-.,%:()"
_CLOSED = ("style_number", "size", "standard", "safety_category", "price", "ean13")
# Fields whose words come from a published vocabulary: fibre contents (GB/T 29862 fibre names, garment
# parts, shares) and grades (GB 18401). A glyph no word of it has (膜 where 腈纶 is printed) is a misread,
# weighed like a code's: the expected character against the likeliest character the vocabulary has.
_LEXICONS = {
    "composition": "".join(FIBRES + PARTS) + "0123456789.%/:",
    "grade": "".join(GRADES),
}


def forms(rule: FieldRule) -> list[tuple[str, ...]]:
    """Alternatives, most complete first; each a tuple of strings that must all be supported."""
    expected = (rule.expected or "").strip()
    if not expected:
        return []
    if rule.name == "price":
        amount = parse_price(expected)
        return [(form,) for form in _price_forms(amount)] if amount is not None else []
    text = halfwidth(expected)
    out: list[tuple[str, ...]] = [(text,)]
    if rule.name == "size":
        parts = tuple(p for p in re.split(r"[()\s]+", text) if p)
        if len(parts) > 1:
            out.append(parts)
    elif rule.name == "safety_category":
        letter = re.search(r"([ABC])\s*类", text)
        if letter and f"{letter.group(1)}类" != text:
            out.append((f"{letter.group(1)}类",))
    elif rule.name == "standard":
        code = _STANDARD_CODE.match(text)
        if code:  # its code at one line's end, its number wrapped onto the next ('执行标准：FZ/T' / '81007-2022')
            out.append((code.group(1), code.group(2)))
    elif rule.name not in ("style_number", "ean13"):
        units = tuple(_UNIT.findall(text))
        if len(units) > 1:
            out.append(units)
    return out


# A standard as printed: its code (GB, GB/T, FZ/T, QB/T) and its number with the year.
_STANDARD_CODE = re.compile(r"^([A-Z]{2}(?:/[A-Z])?)\s+(\d[\d.]*-\d{4})$")
# Letter sizes, smallest first: a size's rivals are the others (none that it holds: L is in XL).
LETTER_SIZES = ("XXS", "XS", "S", "M", "L", "XL", "XXL", "2XL", "XXXL", "3XL", "4XL", "5XL", "6XL")
# The same size written two ways is no rival of itself.
_SAME_SIZE = {"XXL": "2XL", "2XL": "XXL", "XXXL": "3XL", "3XL": "XXXL"}
_SHARE = re.compile(r"^(\D+?)\s*(\d+(?:\.\d+)?)\s*%$")


def rivals(rule: FieldRule, unit: str) -> list[str]:
    """The other values a unit of a closed vocabulary could print where it stands: a safety category's other
    classes, the other grades, another fibre or another share digit, the sizes around a size. [] for open fields
    (names, colours) and units with no vocabulary (a standard's number)."""
    text = unit.strip()
    if rule.name == "safety_category":
        letter = re.search(r"([ABC])\s*类", text)
        return [text[: letter.start(1)] + other + text[letter.end(1) :] for other in "ABC" if other != letter.group(1)] if letter else []
    if rule.name == "grade":
        return [grade for grade in GRADES if grade != text] if text in GRADES else []
    if rule.name == "composition":
        share = _SHARE.match(text)
        if share is None:
            return []
        fibre, amount = share.group(1).strip(), share.group(2)
        out = [f"{other} {amount}%" for other in FIBRES if other != fibre and other not in fibre]
        out += [f"{fibre} {amount[:i]}{digit}{amount[i + 1 :]}%" for i, ch in enumerate(amount) if ch.isdigit()
                for digit in "0123456789" if digit != ch]
        return out
    if rule.name == "size":
        upper = text.upper()
        if upper in LETTER_SIZES:
            same = {upper, _SAME_SIZE.get(upper, upper)}
            return [size for size in LETTER_SIZES if size not in same and _SAME_SIZE.get(size) not in same and size not in upper]
        return hao_xing.neighbours(upper)
    return []


def _price_forms(amount: Decimal) -> list[str]:
    whole = int(amount)
    out = [f"{amount:.2f}", f"¥{amount:.2f}"]
    if amount >= 1000:
        out.append(f"{amount:,.2f}")
    if amount == whole:
        out.append(f"{whole}元")  # '¥1599' alone would also be found in '¥1599.50'
    return out


def printed_ean(recipe: Recipe) -> str:
    """The recipe's EAN-13, whose digits are printed under its bars; '' for other codes."""
    expected = recipe.barcode.expected or ""
    return expected if len(expected) == 13 and expected.isdigit() else ""


def alphabet(rule: FieldRule) -> str:
    """What the field can be printed in; '' where it is open (names, colours)."""
    base = CODE_ALPHABET if rule.name in _CLOSED else _LEXICONS.get(rule.name)
    if base is None:
        return ""
    return vocabulary_of([base, *(unit for alternative in forms(rule) for unit in alternative)])


def vocabulary(recipe: Recipe) -> str:
    """Every character the recipe's expected values may be spotted with, and the closed alphabet
    where a field is printed in one."""
    units = [unit for rule in recipe.fields for alternative in forms(rule) for unit in alternative]
    closed = [CODE_ALPHABET] if any(rule.name in _CLOSED for rule in recipe.fields) or printed_ean(recipe) else []
    lexicons = [_LEXICONS[rule.name] for rule in recipe.fields if rule.name in _LEXICONS]
    return vocabulary_of([*units, printed_ean(recipe), *closed, *lexicons])


def spot_printed_ean(recipe: Recipe, lines: Sequence[OcrLine]) -> tuple[SpottedField, ...]:
    """The recipe's EAN-13 digits, supported by a line's posteriors (its caption, read unsurely)."""
    ean = printed_ean(recipe)
    if not ean:
        return ()
    hit = best_spot(ean, [line.posteriors for line in lines], "0123456789")
    if hit is None or not hit.supported:
        return ()
    return (SpottedField("barcode", ean, hit.confidence, hit.total, lines[hit.line_index].text),)


def spot_fields(rules: Sequence[FieldRule], lines: Sequence[OcrLine], rivals_too: bool = False) -> tuple[SpottedField, ...]:
    """The rules whose expected value the lines' posteriors support (lines without posteriors are
    passed over). `rivals_too`: also against the field's own vocabulary (the expected value the likeliest of its
    rivals, or a rival shown surely in its place): asked last, once the second read is in, so that what the first
    spotting leaves in doubt — and therefore which lines are read again — is as it was."""
    posteriors = [line.posteriors for line in lines]
    if not any(p is not None for p in posteriors):
        return ()
    out = []
    for rule in rules:
        if rule.name == "size" and run_like(lines):
            continue  # a run prints every size: the expected one is there whether or not it is the one marked
        for alternative in forms(rule):
            spots = [_spot_unit(rule, unit, lines, posteriors, rivals_too) for unit in alternative]
            if spots and all(s is not None for s in spots):
                line = lines[spots[0].line_index].text  # type: ignore[union-attr]
                out.append(SpottedField(rule.name, rule.expected or "", min(s.confidence for s in spots),  # type: ignore[union-attr]
                                        sum(s.total for s in spots), line))  # type: ignore[union-attr]
                break
        else:
            shown = _fewer_digits_shown if rule.name == "price" else _rival_shown
            rival = shown(rule, lines, posteriors) if rivals_too else None
            if rival is not None:
                out.append(rival)
    return tuple(out)


# An amount as a price prints it: yuan, a point (or a comma), two cents.
_AMOUNT = re.compile(r"(?<![\d.,])(\d+)[.,](\d{2})(?!\d)")


def _fewer_digits_shown(rule: FieldRule, lines: Sequence[OcrLine], posteriors: Sequence[Posteriors | None]
                        ) -> SpottedField | None:
    """Where a price is read as the expected one with a repeated digit written fewer times ('88.00' where ¥888.00 is
    expected): a CTC recognizer writes a digit printed twice once where it misses the blank between them, so such a
    read is doubt (evidence.py) — unless the line's own posteriors show the amount read surely and leave no room for
    the lost digit: the expected amount placed anywhere on any line costs RIVAL_MARGIN more than the read one, or
    cannot be placed within RIVAL_REACH (no step between the glyphs where a blank was likely at all). Then the tag
    prints the other amount (a line's planted ¥88.00 read as such at every look, on a tag that should say ¥888.00),
    as a spotted value of its own (`expected` holds it)."""
    amount = parse_price(rule.expected or "")
    if amount is None:
        return None
    want, cents = f"{amount:.2f}".split(".")
    field_alphabet = alphabet(rule)
    room: list[Spot] | None = None  # the expected amount's best placements on any line: one search, asked once
    for line, post in zip(lines, posteriors):
        if post is None:
            continue
        for found in _AMOUNT.finditer(halfwidth(line.text)):
            digits = found.group(1)
            if found.group(2) != cents or not _repeats_shortened(want, digits):
                continue
            hit = best_spot(f"{digits}.{cents}", [post], field_alphabet)
            if hit is None or not hit.supported or hit.confidence < rule.min_confidence:
                continue
            if room is None:
                room = [s for s in (best_spot(form, posteriors, field_alphabet, RIVAL_REACH)
                                    for form in _price_forms(amount)) if s is not None]
            if all(s.total - hit.total >= RIVAL_MARGIN for s in room):
                return SpottedField(rule.name, f"¥{int(digits)}.{cents}", hit.confidence, hit.total, line.text)
    return None


def _repeats_shortened(want: str, read: str) -> bool:
    """Whether `read` is `want` with one or more runs of a repeated digit written fewer times, none dropped
    ('88' of '888', '129' of '1299'; not '99' of '1199': a run lost whole is no merge)."""
    def runs(digits: str) -> list[tuple[str, int]]:
        return [(m.group(0)[0], len(m.group(0))) for m in re.finditer(r"(\d)\1*", digits)]
    mine, theirs = runs(want), runs(read)
    return (len(read) < len(want) and [d for d, _ in mine] == [d for d, _ in theirs]
            and all(n <= m for (_, m), (_, n) in zip(mine, theirs)))


def _rival_shown(rule: FieldRule, lines: Sequence[OcrLine], posteriors: Sequence[Posteriors | None]) -> SpottedField | None:
    """Where a size is not shown as expected: another size of its series that a line shows surely (every character
    read at the recipe's confidence, supported as spotting asks) and far likelier there than the expected one, as a
    spotted value of its own (`expected` holds the rival). A size printed wrong reads as a neighbour of the series
    (155/76Y for 160/80Y), often with a glyph the recognizer doubted, which a plain read leaves NEAR."""
    if rule.name != "size" or not rule.expected:
        return None
    field_alphabet = alphabet(rule)
    expected = halfwidth(rule.expected).strip()
    shown = []
    for rival in rivals(rule, expected):
        hit = best_spot(rival, posteriors, field_alphabet)
        if hit is None or not hit.supported or _where_apart(hit, keyword(expected)) < rule.min_confidence:
            continue
        if not _labelled(lines[hit.line_index].text, rule.name):  # a lone M in a logo is no size read
            continue
        mine = spot(expected, posteriors[hit.line_index], field_alphabet, RIVAL_REACH)  # type: ignore[arg-type]
        if mine is None or mine.total - hit.total >= RIVAL_MARGIN:
            shown.append((hit.total, rival, hit))
    if not shown:
        return None
    _, rival, hit = min(shown, key=lambda item: item[0])
    return SpottedField(rule.name, rival, hit.confidence, hit.total, lines[hit.line_index].text)


def _labelled(text: str, name: str) -> bool:
    """Whether a line carries the field's own label (尺码, 号型, 规格, Size …)."""
    return any(found == name for found, *_ in split_labeled(text))


def _where_apart(hit: Spot, expected: str) -> float:
    """The rival's weakest character among those where it differs from the expected value (both as spotted; the
    weakest of all where their lengths differ): a glyph both share says nothing of which of them is printed."""
    if len(hit.text) != len(expected) or len(hit.char_probs) != len(hit.text):
        return hit.confidence
    apart = [p for p, a, b in zip(hit.char_probs, hit.text, expected) if a != b]
    return min(apart) if apart else hit.confidence


def _spot_unit(rule: FieldRule, unit: str, lines: Sequence[OcrLine], posteriors: Sequence[Posteriors | None],
               rivals_too: bool) -> Spot | None:
    """A unit supported alone, or (`rivals_too`) as the likeliest of its closed vocabulary's values there; neither
    off the field's own line where that line reads another of its values (`_elsewhere`), nor a lone letter only
    second-guessed under a glyph of another script (`_lone_letter_unseen`)."""
    hit = best_spot(unit, posteriors, alphabet(rule))
    if hit is not None and hit.supported:
        return None if _elsewhere(rule, unit, hit, lines) or _lone_letter_unseen(rule, unit, hit, lines) else hit
    others = rivals(rule, unit) if rivals_too else []
    if not others:
        return None
    hit = likeliest_of_its_kind(unit, others, posteriors, alphabet(rule))
    if hit is not None and (_elsewhere(rule, unit, hit, lines, others) or _lone_letter_unseen(rule, unit, hit, lines)):
        return None
    return hit


def _lone_letter_unseen(rule: FieldRule, unit: str, hit: Spot, lines: Sequence[OcrLine]) -> bool:
    """Whether `hit`, a one-letter size (S, M, L) spotted less surely than the recipe asks, stands where the line read
    no letter or digit at all: the recognizer saw a glyph of another script there (a small XL read 短, the L a 5 %
    second guess under it). One letter is the whole value, and the glyph it hides under may be two letters or more:
    the posteriors that allow L there had no room for the X they lost, so they cannot tell L from XL (twentyseventh_b
    000036: XL printed, a recipe's L passed). Doubt, not a pass; a multi-letter size, or one read surely, is spotted
    as before."""
    if rule.name != "size" or len(keyword(unit)) != 1 or hit.confidence >= rule.min_confidence:
        return False
    text = halfwidth(lines[hit.line_index].text)
    values = [text[part.value_start : part.end] for part in line_parts(text) if part.labelled and part.field == "size"]
    read = "".join(values) if values else text
    return not any(ch.isascii() and ch.isalnum() for ch in read)


def _elsewhere(rule: FieldRule, unit: str, hit: Spot, lines: Sequence[OcrLine], others: Sequence[str] | None = None) -> bool:
    """Whether `hit`, a field a tag prints once beside its label, was found on a line without that label while a
    line with it reads one of the field's other values."""
    if rule.name not in _ONCE_A_TAG or _labelled(lines[hit.line_index].text, rule.name):
        return False
    return _rival_on_its_label(rule, rivals(rule, unit) if others is None else others, lines)


# Fields a tag prints once, beside their own label: a value of theirs found on some other line (a size's S voted
# likeliest on the fibre content's line, a lone M of a logo) is no read of them where the labelled line reads a rival.
_ONCE_A_TAG = ("size", "grade", "safety_category")


def _rival_on_its_label(rule: FieldRule, others: Sequence[str], lines: Sequence[OcrLine]) -> bool:
    """Whether a line carrying the field's label reads one of `others` after it: the second read of a planted 3XL
    (recipe S) voted S likeliest of the sizes, at 7 %, on the fibre content's line, while its 号型 line read 3XL
    (set 5153, 000108)."""
    shown = {keyword(other).upper() for other in others}
    return any(_units_read(rule, line.text[part.value_start : part.end]) & shown
               for line in lines for part in line_parts(line.text) if part.labelled and part.field == rule.name)


def _units_read(rule: FieldRule, value: str) -> set[str]:
    """A labelled value as the units `forms` makes of an expected one: whole, and its parts where the field has parts
    ('GB18401:2010C类' also as 'C类'). A safety class voted likeliest on the fibre content's line, at 0.5 %, passed
    B类 while the class's own line read GB 18401-2010 C类 at 98 % (sixteenth_b 000106): the rival was read whole."""
    whole = keyword(value).strip(":：").upper()
    parts = forms(FieldRule(rule.name, expected=value.strip(":："))) if whole else []
    return ({whole} | {keyword(unit).upper() for alternative in parts for unit in alternative}) - {""}
