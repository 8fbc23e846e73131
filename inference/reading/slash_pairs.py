"""Two fields under one label: '品名/货号：男士夹克/H71373062', '颜色/号型：咖啡色/155/84A'.

Some tags save a row by joining two labels with a slash and their values the same way. Read label by label, the
first label's value is the slash alone and the second takes both values ('颜色' = '/', '号型' = '咖啡色/155/84A'):
the colour was never found and the size was a colour. The values are parted at the slash where each part reads as
a value of its field; a 号型 holds a slash of its own (155/84A), so the cut is chosen by the fields' grammar, not
by position. Where no cut gives every field a value of its kind, nothing is parted (the line reads as before).
Two names of one field joined so ('色号/颜色：藏青（C09）', '货号/款号：…') are one label: the value is the field's whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from inference.reading import hao_xing
from inference.reading.letter_sizes import is_letter_size
from inference.reading.normalize import halfwidth

_SLASHES = "/／"
_CODE = re.compile(r"^[A-Z0-9][A-Z0-9-]{2,}$")
_WORDS = re.compile(r"^[\u4e00-\u9fff]+$")
_STANDARD = re.compile(r"^(?:GB|FZ|QB|SN)(?:/T)?\d{3,5}(?:\.\d+)?-\d{4}$")
# The fields a slash pair is seen with, and what a value of each looks like.
_KINDS = {
    "product_name": lambda v: bool(_WORDS.match(v)),
    "color": lambda v: bool(_WORDS.match(v)),
    "style_number": lambda v: bool(_CODE.match(v)) and any(ch.isdigit() for ch in v),
    "size": lambda v: is_letter_size(v) or hao_xing.parse(v) is not None,
    "grade": lambda v: v in ("优等品", "一等品", "合格品"),
    "standard": lambda v: bool(_STANDARD.match(v)),
    "safety_category": lambda v: bool(re.search(r"[ABC]类$", v)),
}


def only_slash(value: str) -> bool:
    """Whether a label's value is the slash that joins it to the next label ('色号/号型：…' read label by label)."""
    return value.strip() in tuple(_SLASHES)


def parted(names: Sequence[str], value: str) -> list[tuple[int, int]] | None:
    """Where `value` (after the last of the labels `names`) parts into one value per field, as (start, end) in it:
    the one cut at slashes that gives every field a value of its kind. None where there is no such cut, or more
    than one, or a field has no grammar here."""
    if len(names) >= 2 and len(set(names)) == 1:  # two names of one field ('色号/颜色：藏青'): its value is the whole
        return [(0, len(value))] * len(names)
    if len(names) < 2 or any(name not in _KINDS for name in names):
        return None
    slashes = [i for i, ch in enumerate(value) if ch in _SLASHES]
    fits = []
    for cuts in combinations(slashes, len(names) - 1):
        bounds = [-1, *cuts, len(value)]
        spans = [(bounds[k] + 1, bounds[k + 1]) for k in range(len(names))]
        if all(_KINDS[name](_key(value[a:b])) for name, (a, b) in zip(names, spans)):
            fits.append(spans)
    return fits[0] if len(fits) == 1 else None


def _key(text: str) -> str:
    return re.sub(r"\s+", "", halfwidth(text)).upper()
