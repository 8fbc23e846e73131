"""The GB/T 1335 号型 grammar, in one place: height / chest (or waist) girth, then a body type.

A 号型 such as 170/92A names a garment for a body 170 cm tall with a 92 cm chest of body type A (Y, A, B, C;
children's sizes have none). Three readers ask three things of it, each with its own form below:

- `IN_TEXT` finds one inside any line ('号型：170/92A(L)', with the letter size some tags print beside it);
- `parse` takes one recipe value apart, and `neighbours` names the sizes a misread could be taken for;
- `digits_mended` puts back a digit the recognizer read as a letter of its shape ('175/B4A'), where the
  grammar says a digit must stand.
"""

from __future__ import annotations

import re

HEIGHT = r"\d{2,3}"
GIRTH = r"\d{2,3}"
BODY = r"[A-Z]{0,2}"
BODY_TYPES = ("Y", "A", "B", "C")
# A series steps 5 cm in height with 4 cm in chest (5·4 系列); a girth alone steps 2 or 4 cm.
HEIGHT_STEP, GIRTH_STEP = 5, 4

# inside text (upper case, half-width): group 1 the 号型, group 2 a letter size in brackets after it
IN_TEXT = re.compile(rf"(?<![\d/])({HEIGHT}/{GIRTH}{BODY})(?:\(([A-Z0-9]{{1,4}})\))?")
_VALUE = re.compile(rf"^({HEIGHT})/({GIRTH})({BODY})$")
# the same with letters where a digit may have been misread as one of its shape (8→B, 0→O, 1→I, 5→S, 2→Z)
_LOOSE = re.compile(r"(?<![\dA-Z/])(\d[\dOBISZ]{1,2})/([\dOBISZ]{1,2}\d)([A-Z]{0,2})(?![\d/])")
_DIGIT_SHAPES = str.maketrans("OBISZ", "08152")


def parse(value: str) -> tuple[int, int, str] | None:
    """(height, girth, body type) of one 号型 value ('170/92A' → (170, 92, 'A')), or None where it is none."""
    match = _VALUE.match(value.strip().upper())
    return (int(match.group(1)), int(match.group(2)), match.group(3)) if match else None


def neighbours(value: str) -> list[str]:
    """The sizes next to `value` in its series and the same size of other body types: what a size printed
    instead of it would most likely be. [] where `value` is no 号型."""
    parts = parse(value)
    if parts is None:
        return []
    height, girth, body = parts
    steps = [(height + HEIGHT_STEP * k, girth + GIRTH_STEP * k) for k in (-2, -1, 1, 2)]
    steps += [(height, girth + d) for d in (-4, -2, 2, 4)]
    out = [f"{h}/{g}{body}" for h, g in steps if h > 0 and g > 0]
    out += [f"{height}/{girth}{other}" for other in BODY_TYPES if other != body] if body else []
    return out


def digits_mended(text: str) -> str:
    """`text` (half-width, upper case) with each 号型's height and girth letters of a digit's shape turned back
    into that digit ('175/B4A' → '175/84A'); the same length, so character confidences still line up."""
    def mend(match: re.Match) -> str:
        return match.group(1).translate(_DIGIT_SHAPES) + "/" + match.group(2).translate(_DIGIT_SHAPES) + match.group(3)

    return _LOOSE.sub(mend, text)
