"""A fibre content printed as a table of parts, read back into one composition.

GB/T 29862 lets a tag list its fibre content per part of the garment, and many tags set it as a table: the part
(面料, 里料 …) in a narrow column, one fibre a row, each share flush right at the tag's edge:

    成分：
    面料   锦纶      92%
           氨纶       8%
    里料   棉       100%

The text detector boxes the share apart from its fibre (the gap between them is wider than any gap inside a line),
so the reader's lines are '面料 锦纶', '92%', '氨纶', '8%', '里料棉', '100%', and no line holds '锦纶 92%'. In
reading order, though, each share follows its fibre. `parts_of` walks a run of lines that hold nothing but parts,
fibres and shares, and gives each part its (fibre, share) pairs.

The table only ever confirms: `matching_part` answers the part that is the expected composition, or nothing, so a
table read badly leaves the field as the other reads left it and never makes a difference on its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from inference.reading.normalize import halfwidth
from inference.reading.repairs import FIBRES, PARTS, fix_composition
from inference.reading.types import OcrLine

Component = tuple[str, Decimal]

_TOKEN = re.compile(
    "|".join([
        r"(?P<share>\d+(?:\.\d+)?)\s*%",
        "(?P<part>" + "|".join(sorted(map(re.escape, PARTS), key=len, reverse=True)) + ")",
        "(?P<fibre>" + "|".join(sorted(map(re.escape, FIBRES), key=len, reverse=True)) + ")",
    ])
)
# Two names of one part: the shell (面料, 面布) and the lining (里料, 里布).
_SAME_PART = {"面布": "面料", "里布": "里料"}
# What may stand between the table's words: spaces, a colon after a part, leaders, separators.
_FILLER = re.compile(r"^[\s:：.…·,，、;；/|]*$")


@dataclass(frozen=True)
class TablePart:
    """One part of the table: its name ('' before any part is named), its fibres with their shares, and the lines
    they were read from."""

    name: str
    components: tuple[Component, ...]
    lines: tuple[OcrLine, ...]


def _tokens(line: OcrLine) -> list[tuple[str, str]] | None:
    """The line's parts, fibres and shares in order, or None where anything else is printed on it."""
    text = fix_composition(halfwidth(line.text))
    out: list[tuple[str, str]] = []
    at = 0
    for match in _TOKEN.finditer(text):
        if not _FILLER.match(text[at : match.start()]):
            return None
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        at = match.end()
    if not out or not _FILLER.match(text[at:]):
        return None
    return out


def parts_of(lines: Sequence[OcrLine]) -> list[list[TablePart]]:
    """Each run of consecutive lines holding only parts, fibres and shares, as its parts."""
    runs: list[list[TablePart]] = []
    current: list[tuple[OcrLine, list[tuple[str, str]]]] = []
    for line in [*lines, None]:
        tokens = _tokens(line) if line is not None else None
        if tokens is not None:
            current.append((line, tokens))  # type: ignore[arg-type]
            continue
        if current:
            runs.append(_parse(current))
            current = []
    return [run for run in runs if run]


def _parse(run: Sequence[tuple[OcrLine, list[tuple[str, str]]]]) -> list[TablePart]:
    parts: list[TablePart] = []
    name, components, used = "", [], []
    fibre: str | None = None
    for line, tokens in run:
        for kind, value in tokens:
            if kind == "part":
                if components:
                    parts.append(TablePart(name, tuple(components), tuple(dict.fromkeys(used))))
                name, components, used, fibre = _SAME_PART.get(value, value), [], [], None
            elif kind == "fibre":
                fibre = value
                used.append(line)
            elif fibre is not None:  # a share: its fibre is the last one named, on its row or the row before
                components.append((fibre, Decimal(value)))
                used.append(line)
                fibre = None
    if components:
        parts.append(TablePart(name, tuple(components), tuple(dict.fromkeys(used))))
    return parts


def expected_parts(expected: str) -> list[tuple[str, tuple[Component, ...]]]:
    """The recipe's composition as (part, components): one unnamed part where it names none."""
    line = OcrLine(expected, 1.0, (0.0, 0.0, 0.0, 0.0))
    return [(p.name, p.components) for run in parts_of([line]) for p in run]


def matching_part(expected: str, lines: Sequence[OcrLine]) -> TablePart | None:
    """The table part printed as the recipe's composition: by name where the recipe names its parts (every part it
    names must be there, the same), else the table's first part (the shell, listed first), which must be it."""
    want = expected_parts(expected)
    if not want:
        return None
    for run in parts_of(lines):
        if len(run) < 2 and sum(len(p.lines) for p in run) < 2:
            continue  # one line holding the whole content is the ordinary case, read as such elsewhere
        if all(name == "" for name, _ in want):
            if len(want) == 1 and run[0].components == want[0][1]:
                return run[0]
            continue
        named = {p.name: p for p in run}
        found = [named.get(name) for name, _ in want]
        if all(p is not None and p.components == comps for p, (_, comps) in zip(found, want)):
            return found[0]
    return None
