"""The one size a size label's own line names, on a tag that also prints a run of sizes.

A tag with a size-conversion table or a size chart lists the style's whole run of sizes and marks the garment's
entry, which the reader may not see. A size row (`尺码：M`, `号型：165/80Y`) naming one size, and nothing else, says
which size the garment is, as on every tag without a run; the run repeats it among the style's others. So such a row
may confirm the recipe's size. Only a row with its colon counts: a table's or a chart's head (`尺码 | S | M …`) carries
none, and a line the text detector joined across its cells (`尺码 S`) is no row. It never contradicts it on its own: a row naming another size leaves the run's doubt
standing, and the marked entry, where it is read, decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from inference.reading.labels import split_labeled
from inference.reading.letter_sizes import size_tokens
from inference.reading.normalize import halfwidth
from inference.reading.size_marks import size_read_mended
from inference.reading.types import OcrLine

SIZE_ROW = "the one size its own labelled row names, beside a run of sizes"
# What may stand beside the one size after its label: colons, spaces, brackets' leftovers.
_AROUND = re.compile(r"^[\s:：.·、,，;；|]*$")


def named_size(line: OcrLine) -> tuple[str, float] | None:
    """(size, weakest character) where the line is a size label, its colon and exactly one size, else None."""
    text = line.text
    labelled = split_labeled(text)
    if len(labelled) != 1 or labelled[0][0] != "size":
        return None
    start = labelled[0][1]
    value = size_read_mended(halfwidth(text[start:]).upper())  # as a run's entry is: '185/884' is 185/88A
    if ":" not in halfwidth(text[labelled[0][2]:start]) + value[:2]:
        return None
    tokens = size_tokens(value)
    if len(tokens) != 1:
        return None
    at = value.find(tokens[0])
    if at < 0 or not _AROUND.match(value[:at] + value[at + len(tokens[0]):]):
        return None
    chars = line.char_confidences
    if len(chars) == len(text):
        span = [c for ch, c in zip(text[start + at:start + at + len(tokens[0])], chars[start + at:]) if not ch.isspace()]
        return tokens[0], float(min(span)) if span else float(line.confidence)
    return tokens[0], float(line.confidence)


def named_sizes(reads: Sequence[Sequence[OcrLine]]) -> list[tuple[str, float]]:
    """Every size a size row names alone, in any read of the tag's lines, once, with the confidence of its surest read:
    reads that name the same size agree on it, though one of them doubted a character the others read surely
    (twentyfourth_b 000024: '尺码：165/80Y' read with its 5 at 54 % in the first read, at 99 % in the second). Reads
    naming different sizes stay apart: they disagree."""
    surest: dict[str, float] = {}
    for read in reads:
        for line in read:
            if (found := named_size(line)) is not None:
                surest[found[0]] = max(surest.get(found[0], 0.0), found[1])
    return list(surest.items())
