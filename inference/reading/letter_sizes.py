"""Letter sizes (XS … XXXL, 2XL … 6XL, one size), in one place, beside the 号型 grammar of `hao_xing`.

A tag names its size as a letter size, a GB/T 1335 号型, or both ('170/92A(L)'). Several readers ask the same
questions of a size, each here once:

- `is_letter_size`: is a whole value one letter size ('XL', 'FREE', '均码')?
- `size_tokens`: the sizes a piece of text names, letter sizes and 号型, in order ('□XS □S ■M' names XS, S, M);
- `letter_sizes`: of those, the letter sizes alone;
- `size_rank`: where a size stands in its series (XS < S < M; 165/88A < 170/92A).
"""

from __future__ import annotations

import re

from inference.reading import hao_xing
from inference.reading.normalize import halfwidth

# a whole value (upper case, half-width)
_WHOLE = re.compile(r"^(?:X{0,4}[SML]|[2-6]XL|XXS|F|FREE|均码)$")
# inside text (upper case, half-width): a letter size standing alone, not part of a code or a word
IN_TEXT = re.compile(r"(?<![A-Z0-9])(?:[2-6]XL|XXS|X{0,4}[SML])(?![A-Z0-9])")


def is_letter_size(value: str) -> bool:
    """Whether `value` (upper case, half-width, stripped) is one letter size."""
    return bool(_WHOLE.match(value))


def size_tokens(text: str) -> list[str]:
    """The sizes a piece of text names (letter sizes and 号型), in order: '□XS □S ■M' names XS, S and M."""
    upper = halfwidth(text).upper()
    found = [(m.start(), m.group(1)) for m in hao_xing.IN_TEXT.finditer(upper)]
    taken = [(m.start(), m.end()) for m in hao_xing.IN_TEXT.finditer(upper)]
    found += [(m.start(), m.group(0)) for m in IN_TEXT.finditer(upper) if not any(a <= m.start() < b for a, b in taken)]
    return [token for _, token in sorted(found)]


def letter_sizes(text: str) -> list[str]:
    """The letter sizes `text` names, in order (its 号型 left out)."""
    return [token for token in size_tokens(text) if hao_xing.parse(token) is None]


# letter sizes smallest first; two spellings of one size share a place
_SERIES = ("XXS", "XS", "S", "M", "L", "XL", ("XXL", "2XL"), ("XXXL", "3XL"), ("XXXXL", "4XL"), "5XL", "6XL")
_RANK = {name: k for k, step in enumerate(_SERIES) for name in ((step,) if isinstance(step, str) else step)}


def size_rank(token: str) -> tuple[int, int] | None:
    """Where a size stands in its series, comparable within one system: a letter size by its place (XS < S < … <
    3XL), a 号型 by its height, then its girth. None for anything else (F, 均码, a word)."""
    parts = hao_xing.parse(token)
    if parts is not None:
        return parts[0], parts[1]
    rank = _RANK.get(halfwidth(token).upper())
    return None if rank is None else (rank, 0)
