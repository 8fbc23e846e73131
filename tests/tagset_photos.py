"""Photos of hangtags from the independent test-set generator (training/tagsets), for tests that read tags the
way the station does. Skips the test where the generator's CJK fonts are not installed."""

from __future__ import annotations

from pathlib import Path

import pytest


def generated_photos(out: Path, count: int, seed: int, designs: list[str]) -> Path:
    """`count` photos of `designs` (no planted defects) in `out`, with truth.jsonl and recipes."""
    fonts = pytest.importorskip("training.tagsets.fonts")
    try:
        fonts.font_files()
    except fonts.FontsMissingError:
        pytest.skip("CJK fonts for training.tagsets are not installed (make system-deps)")
    from training.tagsets import generate

    generate(out, count, seed, 0.0, designs)
    return out
