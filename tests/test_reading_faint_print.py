"""Print a few levels off its stock (foil turned from the lamp on dark card, print under a polybag's haze) that the
text detector passes over: the tag's lines are found again in its crop with the contrast levelled locally."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.text_lines import FAINT_PRINT_LINES, with_faint_print

ROW_PX, PITCH_PX = 14, 30


class ContrastDetector:
    """Finds a line in each row band whose print stands at least `needs` levels off its stock, as a text detector
    passes over print too faint for it; counts its calls."""

    def __init__(self, needs: int = 50) -> None:
        self.needs, self.calls = needs, 0

    def detect(self, image: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        self.calls += 1
        gray = image.mean(axis=2)
        found = []
        for top in range(10, gray.shape[0] - ROW_PX, PITCH_PX):
            band = gray[top:top + ROW_PX, 20:220]
            if band.max() - np.median(gray[top - 6:top - 2, 20:220]) >= self.needs:
                found.append(((20.0, float(top), 220.0, float(top + ROW_PX)), 0.9))
        return found


def card(faint_rows: int, bright_rows: int, stock: int = 28, faint: int = 22) -> np.ndarray:
    """A dark card's crop: `bright_rows` rows of print lit by the lamp, then `faint_rows` only `faint` levels above
    the stock (strokes of print, not solid bars), seen through a lens and a sensor (a little blur, some noise)."""
    image = np.full((10 + PITCH_PX * (faint_rows + bright_rows) + 20, 240, 3), stock, np.uint8)
    for k in range(faint_rows + bright_rows):
        top = 10 + PITCH_PX * k
        level = 210 if k < bright_rows else stock + faint
        for x in range(24, 216, 9):  # glyph-like strokes
            image[top + 2:top + ROW_PX - 2, x:x + 3] = level
            image[top + 6:top + 8, x:x + 7] = level
    seen = cv2.GaussianBlur(image.astype(np.float32), (0, 0), 1.0) + np.random.default_rng(0).normal(0, 3, image.shape)
    return np.clip(seen + 0.5, 0, 255).astype(np.uint8)


def test_a_dark_cards_faint_foil_rows_are_found_where_the_bright_ones_alone_were():
    detector = ContrastDetector()
    image = card(faint_rows=9, bright_rows=2)
    first = detector.detect(image)
    assert len(first) == 2  # the detector passes over the faint rows
    lines = with_faint_print(detector, image, first)
    assert len(lines) == 11


def test_a_tag_whose_lines_were_found_is_not_looked_at_again():
    detector = ContrastDetector()
    image = card(faint_rows=2, bright_rows=FAINT_PRINT_LINES)
    first = detector.detect(image)
    assert with_faint_print(detector, image, first) is first
    assert detector.calls == 1


@pytest.mark.parametrize("faint_rows", [0, 2])
def test_a_stray_line_or_two_brought_up_is_not_a_tags_worth(faint_rows):
    detector = ContrastDetector()
    image = card(faint_rows=faint_rows, bright_rows=1)
    first = detector.detect(image)
    assert with_faint_print(detector, image, first) == first


class CountingRecognizer:
    def recognize(self, crops, vocabulary: str = ""):
        from inference.reading.ocr.recognizer import Recognized

        return [Recognized("行", 0.9, (0.9,)) for _ in crops]


def test_reading_a_dark_cards_lines_reads_its_faint_rows_too():
    from inference.reading.rectify import make_upright
    from inference.reading.text_lines import read_lines

    crop = card(faint_rows=9, bright_rows=2)
    frame = np.full((crop.shape[0] + 80, crop.shape[1] + 80, 3), 120, np.uint8)
    frame[40:40 + crop.shape[0], 40:40 + crop.shape[1]] = crop
    upright = make_upright(frame, (40.0, 40.0, 40.0 + crop.shape[1], 40.0 + crop.shape[0]), 0.0, margin=0.0)
    lines = read_lines(ContrastDetector(), CountingRecognizer(), upright, [], ambiguous=False)
    assert len(lines.pieces.boxes) == 11
