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

from inference.reading.normalize import halfwidth, parse_price
from inference.reading.recipe import FieldRule, Recipe
from inference.reading.repairs import FIBRES, GRADES, PARTS
from inference.reading.spotting import best_spot, vocabulary_of
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
    elif rule.name not in ("style_number", "ean13"):
        units = tuple(_UNIT.findall(text))
        if len(units) > 1:
            out.append(units)
    return out


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


def spot_fields(rules: Sequence[FieldRule], lines: Sequence[OcrLine]) -> tuple[SpottedField, ...]:
    """The rules whose expected value the lines' posteriors support (lines without posteriors are
    passed over)."""
    posteriors = [line.posteriors for line in lines]
    if not any(p is not None for p in posteriors):
        return ()
    out = []
    for rule in rules:
        for alternative in forms(rule):
            spots = [best_spot(unit, posteriors, alphabet(rule)) for unit in alternative]
            if spots and all(s is not None and s.supported for s in spots):
                line = lines[spots[0].line_index].text  # type: ignore[union-attr]
                out.append(SpottedField(rule.name, rule.expected or "", min(s.confidence for s in spots),  # type: ignore[union-attr]
                                        sum(s.total for s in spots), line))  # type: ignore[union-attr]
                break
    return tuple(out)
