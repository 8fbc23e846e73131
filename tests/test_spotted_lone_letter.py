"""A one-letter size spotted only as a faint second guess under a glyph of another script is no read of it.

twentyseventh_b 000036 (clear_film): a small XL in a Ming face read '号型：短', the whole size one CJK glyph. Under it
the recognizer gave L 5 % and X nothing; weighed against the size's alphabet, L was the best letter there, so the
posteriors 'supported' L and a recipe of L passed a tag printed XL. The glyph may hide two letters or more, and the
posteriors that lost the X cannot tell L from XL: doubt. A letter the line read as a letter, a multi-letter size, or
a letter spotted as surely as the recipe asks are spotted as before."""

from __future__ import annotations

from inference.reading.expected import spot_fields
from inference.reading.types import OcrLine
from tests.test_spotting import read, recipe

VOCAB = "SMLX米"


def size_line(text: str, glyph: dict[str, float]) -> OcrLine:
    """A size's line, `text` as read, its value one glyph whose posteriors are `glyph` (the label's steps blank here:
    no letter of a size is placed on them)."""
    frames = [{"": 0.98}] * 6 + [glyph, {"": 0.98}]
    return OcrLine(text, 0.9, (0, 0, 1, 1), posteriors=read(frames, VOCAB))


def spotted(size: str, line: OcrLine, min_confidence: float = 0.8) -> list[str]:
    rules = recipe(f'size = {{ expected = "{size}", min_confidence = {min_confidence} }}').fields
    return [s.expected for s in spot_fields(rules, lines=[line], rivals_too=True)]


def test_a_letter_only_second_guessed_under_another_scripts_glyph_is_not_spotted() -> None:
    line = size_line("号型：米", {"米": 0.94, "L": 0.05})
    assert spotted("L", line) == []  # the old code spotted L (at 5 %) and the recipe's L passed a printed XL


def test_a_letter_the_line_read_as_a_letter_is_still_spotted_from_its_doubts() -> None:
    line = size_line("号型：M", {"M": 0.6, "L": 0.3})
    assert spotted("L", line) == ["L"]


def test_a_letter_spotted_as_surely_as_the_recipe_asks_stands_under_any_glyph() -> None:
    line = size_line("号型：米", {"米": 0.45, "L": 0.44})
    assert spotted("L", line, min_confidence=0.4) == ["L"]  # a recipe asking 40 %: L is read as surely as that


def test_a_size_of_two_letters_under_such_glyphs_is_judged_as_before() -> None:
    frames = [{"": 0.98}] * 6 + [{"米": 0.9, "X": 0.08}, {"": 0.98}, {"米": 0.9, "L": 0.08}, {"": 0.98}]
    line = OcrLine("号型：米米", 0.9, (0, 0, 1, 1), posteriors=read(frames, VOCAB))
    assert spotted("XL", line) == ["XL"]
