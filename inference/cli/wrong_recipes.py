"""Wrong recipes for right tags: the escape rate measured on every good frame of a test set.

A planted defect is a tag printed wrong against the right recipe; the same check, turned around, is
a right tag against a recipe that expects a neighbouring value — the next size, a price one digit
off, a style number one digit off, another colour, a look-alike fibre (锦纶 for 腈纶), another grade,
the next safety class, another product's standard one digit off. Every good frame of a set then gives
a defect sample, so the escape rate (judged OK although the tag does not say what the recipe expects)
rests on hundreds of samples instead of the few dozen planted ones. The changes are the smallest a
wrong job change makes, the hardest to tell apart: one digit, one size step. Each field is stepped up
in one round of the turns and down in the next: a reader that drops a glyph (a bold XXL, its Xs run
together, read XL) passes a job one step down, which a bench stepping only up never asks.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from inference.reading.normalize import parse_price
from inference.reading.recipe import Recipe
from inference.reading.repairs import FIBRES, GRADES

# The fields a wrong job change alters, in the order frames take turns with them.
FIELDS = ("size", "price", "style_number", "color", "composition", "grade", "safety_category", "standard")
LETTER_SIZES = ("XS", "S", "M", "L", "XL", "XXL", "3XL")
SAFETY_CLASSES = ("A", "B", "C")
COLOURS = ("黑色", "白色", "藏青", "卡其", "酒红", "米白", "浅灰", "墨绿", "雾霾蓝", "驼色", "姜黄", "砖红")


def neighbour(field: str, value: str, step: int = 1) -> str | None:
    """The value a neighbouring style or size would expect — `step` 1: the next size up, a price's leading digit one
    more, a style number's last digit 3 more, the next grade; -1: the other way — or None where none is made."""
    up = step > 0
    if field == "size":
        numeric = re.match(r"^(\d{2,3})(/.*)$", value)
        if numeric:
            height = int(numeric.group(1))
            moved = (height + 5 if height < 185 else height - 5) if up else (height - 5 if height >= 60 else height + 5)
            return f"{moved}{numeric.group(2)}"
        letter = value.strip().upper()
        if letter in LETTER_SIZES:
            return _stepped(LETTER_SIZES, LETTER_SIZES.index(letter), up)
        return None
    if field == "price":
        amount = parse_price(value)
        if amount is None or amount < 1:
            return None
        digits = str(int(amount))
        lead = int(digits[0])
        moved = (lead + 1 if lead < 9 else lead - 1) if up else (lead - 1 if lead > 1 else lead + 1)
        changed = Decimal(f"{moved}{digits[1:]}") + (amount - int(amount))
        return f"¥{changed:.2f}"
    if field == "style_number":
        positions = [i for i, ch in enumerate(value) if ch.isdigit()]
        if not positions:
            return None
        i = positions[-1]
        return value[:i] + str((int(value[i]) + (3 if up else 7)) % 10) + value[i + 1 :]
    if field == "color":
        others = [c for c in COLOURS if c != value and c.rstrip("色") != value.rstrip("色")]
        return others[sum(map(ord, value)) % len(others)] if others else None
    if field == "composition":
        return _other_fibre(value)
    if field == "safety_category":
        cls = re.search(r"([ABC])类", value)
        if not cls:
            return None
        other = _stepped(SAFETY_CLASSES, SAFETY_CLASSES.index(cls.group(1)), up)
        return value[: cls.start(1)] + other + value[cls.end(1) :]
    if field == "standard":  # another product's standard: its number's last digit
        number = re.search(r"(\d{3,5})(?=(?:\.\d+)?-\d{4}$|$)", value.strip())
        if not number:
            return None
        i = number.end(1) - 1
        return value[:i] + str((int(value[i]) + (3 if up else 7)) % 10) + value[i + 1 :]
    if field == "grade":
        grade = value.strip()
        return GRADES[(GRADES.index(grade) + (1 if up else -1)) % len(GRADES)] if grade in GRADES else None
    return None


def _stepped(series: tuple[str, ...], i: int, up: bool) -> str:
    """The entry of an ordered series one step from entry `i` (up or down), or the other way at its end."""
    j = i + (1 if up else -1)
    return series[j] if 0 <= j < len(series) else series[i - (1 if up else -1)]


def _other_fibre(value: str) -> str | None:
    """The composition with its first fibre swapped for the look-alike that shares most of its
    characters (腈纶 → 锦纶: one glyph apart, the hardest to tell)."""
    for word in sorted(FIBRES, key=len, reverse=True):
        at = value.find(word)
        if at < 0:
            continue
        alike = [f for f in FIBRES if len(f) == len(word) and f != word and f not in value]
        if not alike:
            continue
        best = max(alike, key=lambda f: (sum(a == b for a, b in zip(f, word)), -FIBRES.index(f)))
        return value[:at] + best + value[at + len(word):]
    return None


def wrong_recipe(recipe: Recipe, turn: int) -> tuple[Recipe, str, str, str] | None:
    """The recipe with one expected value changed (field by `turn`, stepped up in one round of the fields and down
    in the next): (recipe, field, right, wrong)."""
    expected = {rule.name: rule.expected for rule in recipe.fields if rule.expected}
    step = 1 if (turn // len(FIELDS)) % 2 == 0 else -1
    for k in range(len(FIELDS)):
        field = FIELDS[(turn + k) % len(FIELDS)]
        if field not in expected:
            continue
        wrong = neighbour(field, expected[field], step)
        if wrong is None or wrong == expected[field]:
            continue
        fields = tuple(replace(rule, expected=wrong) if rule.name == field else rule for rule in recipe.fields)
        return replace(recipe, fields=fields), field, expected[field], wrong
    return None
