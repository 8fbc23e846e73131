"""A read that shows another size surely outweighs a second guess for the expected one.

The recognizer's posteriors may allow the recipe's size under a line's characters as a faint second guess (spotting.py):
'规络 170/841' allows 175/84Y, its 5 at 3.5 % under a 0 read at 86 %. For a size that is weak evidence: the sizes of
a run differ in a character or two, and a tag printed 170/84Y is read so. Where a read of the tag shows another
size of the same system whole, each character in which it differs from the expected one read as surely as the recipe
asks (the unsqueezed second read: '170/84Y', its 0 at 98 %), the faint guess is no read of the expected size: doubt,
never a pass (fifteenth_b 000040: a recipe of 175/84Y passed a tag printed 170/84Y). A difference it is not either:
that is for the reads that show it to settle (evidence.py)."""

from __future__ import annotations

from collections.abc import Sequence

from inference.reading import hao_xing
from inference.reading.letter_sizes import is_letter_size, size_tokens
from inference.reading.normalize import halfwidth
from inference.reading.size_series import well_formed
from inference.reading.types import OcrLine


def rival_size_read_surely(expected: str, min_confidence: float, lines: Sequence[OcrLine]) -> str | None:
    """The first size another than `expected`, of its system and length, that a line reads whole with every character
    it differs in read at `min_confidence` or more; None where no line shows one."""
    want = "".join(halfwidth(expected).split()).upper()
    letter = is_letter_size(want)
    if not letter and hao_xing.parse(want) is None:
        return None
    for line in lines:
        text = halfwidth(line.text).upper()
        if len(text) != len(line.char_confidences):
            continue  # no confidence per character to weigh the difference by
        start = 0
        for token in size_tokens(text):
            at = text.find(token, start)
            start = at + len(token)
            if token == want or len(token) != len(want) or is_letter_size(token) != letter \
                    or not well_formed(token):
                continue
            differing = [line.char_confidences[at + i] for i, (a, b) in enumerate(zip(token, want)) if a != b]
            if differing and min(differing) >= min_confidence:
                return token
    return None
