"""A closed set printed as options to mark: a pre-printed 合格证's 等级 □优等品 □一等品 □合格品 or 安全类别 □A类 □B类
□C类, the job's option ticked, filled or ringed. Every option is printed, so finding the expected one says nothing;
the evidence is which one is marked.

The recognizer reads an empty box as 口 (or □) and a ticked or filled one as nothing at all, or as a mark glyph
(☑, ✓, ■). So the marked option is the one mark glyph, else the one option without a box where the others have
theirs; where neither tells (every option boxed, or two without), the mark is not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from inference.reading.repairs import GRADES
from inference.reading.types import OcrLine

EMPTY_BOXES = frozenset("口□☐▢囗")
MARKS = frozenset("☑✓✔√■●☒✗")
# The fields printed as a closed set of options, and how one option is written.
_OPTION = {
    "grade": re.compile("|".join(GRADES)),
    "safety_category": re.compile(r"([ABC])\s*[类頬突美米]"),
}


@dataclass(frozen=True)
class Option:
    """One option printed on a line: its value ('一等品', 'B类'), whether a box or a mark stands before it, and how
    surely the option's own characters were read (their mean: a tick drawn over a word dims a character of it)."""

    value: str
    boxed: bool
    ticked: bool
    confidence: float


@dataclass(frozen=True)
class PrintedOptions:
    """The options one read of a tag prints for a field, and the one marked where the read shows it."""

    listed: tuple[str, ...]
    marked: str | None
    confidence: float
    raw: str


def printed_options(name: str, lines: Sequence[OcrLine]) -> PrintedOptions | None:
    """The options of field `name` printed in one read's lines, where two or more different ones are: None where
    the tag prints one value (a 等级：一等品 row) or the field has no closed set."""
    pattern = _OPTION.get(name)
    if pattern is None:
        return None
    found: list[Option] = []
    raw: list[str] = []
    for line in lines:
        here = [_option(line, match, name) for match in pattern.finditer(line.text)]
        if here:
            found.extend(here)
            raw.append(line.text)
    listed = tuple(dict.fromkeys(option.value for option in found))
    if len(listed) < 2:
        return None
    ticked = {option.value for option in found if option.ticked}
    unboxed = {option.value for option in found if not option.boxed}
    boxed = {option.value for option in found if option.boxed}
    if len(ticked) == 1:
        marked = next(iter(ticked))
    elif not ticked and len(unboxed) == 1 and boxed - unboxed:
        marked = next(iter(unboxed))
    else:
        marked = None
    confidence = min(option.confidence for option in found) if marked is not None else 0.0
    return PrintedOptions(listed, marked, confidence, " / ".join(raw))


def _option(line: OcrLine, match: re.Match, name: str) -> Option:
    value = f"{match.group(1)}类" if name == "safety_category" else match.group(0)
    before = match.start() - 1
    while before >= 0 and line.text[before].isspace():
        before -= 1
    glyph = line.text[before] if before >= 0 else ""
    # The option's own characters, not its box: the recognizer is seldom sure which of its box glyphs (口 □ 囗) a box
    # is, but any of them is a box. An option word is a closed set's member read whole, which no slip makes of another.
    scored = len(line.char_confidences) == len(line.text)
    word = [line.char_confidences[i] for i in range(match.start(), match.end()) if not line.text[i].isspace()] if scored else []
    confidence = sum(word) / len(word) if word else line.confidence
    return Option(value, glyph in EMPTY_BOXES, glyph in MARKS, float(confidence))


def marked_option(name: str, reads: Sequence[Sequence[OcrLine]]) -> tuple[PrintedOptions, ...]:
    """The printed options of each read that lists them."""
    return tuple(found for read in reads if (found := printed_options(name, read)) is not None)
