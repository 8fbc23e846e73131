"""WCAG contrast between two colours, for the tests that pin readable text colours."""

from __future__ import annotations


def contrast(a, b) -> float:
    """The contrast ratio of two QColor-like colours (redF/greenF/blueF), 1 to 21."""
    def luminance(color) -> float:
        channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                    for c in (color.redF(), color.greenF(), color.blueF())]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
