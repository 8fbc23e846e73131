"""Shortcuts taken for speed give exactly what they replace: results must not move by a bit."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inference.reading.lines import median
from inference.reading.spotting import Posteriors, spot


@pytest.mark.parametrize("values", [[3.0], [1, 2], [2.5, 1.25, 7.0, 4.0], [0.1, 0.2], [5, 1, 4, 2, 3], [1e16, 3.0], [float("nan"), 1.0]])
def test_median_is_np_median(values: list[float]) -> None:
    expected = float(np.median(values))
    assert median(values) == expected or (np.isnan(expected) and np.isnan(median(values)))


def test_median_is_np_median_on_random_lists() -> None:
    rng = random.Random(0)
    for _ in range(5000):
        values = [rng.choice([rng.uniform(-1e4, 1e4), rng.randint(0, 3000), rng.random() * 1e-3]) for _ in range(rng.randint(1, 8))]
        assert median(values) == float(np.median(values))


def test_median_of_numpy_scalars_falls_back() -> None:
    values = [np.float32(0.1), np.float32(0.7)]
    assert median(values) == float(np.median(values))


def _line(vocabulary: str, seed: int, steps: int = 40) -> Posteriors:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(len(vocabulary) + 1), steps).astype(np.float32)
    return Posteriors(vocabulary, probs[:, 1:], probs[:, 0], probs.max(axis=1), np.zeros(steps, np.int8))


def test_a_line_spots_the_same_asked_again_with_other_alphabets() -> None:
    """The costs kept per line and alphabet: the same spot first and after other strings and alphabets."""
    line = _line("0123456789ABC", 3)
    first = [spot(text, line, alphabet, reach=20.0) for text, alphabet in (("12", "0123456789"), ("A1", ""), ("9", "0123456789"))]
    again = [spot(text, line, alphabet, reach=20.0) for text, alphabet in (("9", "0123456789"), ("A1", ""), ("12", "0123456789"))]
    assert first == again[::-1]
    assert all(hit is not None for hit in first)
    fresh = _line("0123456789ABC", 3)
    assert spot("12", fresh, "0123456789", reach=20.0) == first[0]
