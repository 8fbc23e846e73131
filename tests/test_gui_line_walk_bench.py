"""The line's window bench takes the station's screen size: a 1920×1080 station paints each frame larger on the same
two cores, and the walks at 1920×1080 saw fewer frames inspected than at 1280×720."""

from __future__ import annotations

import argparse

import pytest

from app.line_ui_bench import window_size


@pytest.mark.parametrize("text, size", [("1920x1080", (1920, 1080)), ("1280X720", (1280, 720))])
def test_the_window_size_is_read_as_width_by_height(text, size):
    assert window_size(text) == size


@pytest.mark.parametrize("text", ["1920", "19x", "x1080", "1920×1080"])
def test_a_size_it_cannot_read_says_what_it_expected(text):
    with pytest.raises(argparse.ArgumentTypeError, match="expected WIDTHxHEIGHT such as 1920x1080"):
        window_size(text)
