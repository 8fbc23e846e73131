"""Checks every group of test-set designs shares (each session's designs have a test module of their own that
adds what is particular to them): deterministic with an EAN-13 and no QR code, defects planted where the truth says,
the recipe's values printed and no print below the smallest legal size, and every character a design module prints
in every font."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from tests.test_tagsets import deterministic_rows, rows_with_planted_defects
from training.tagsets import DESIGNS
from training.tagsets.canvas import MIN_PRINT_MM
from training.tagsets.designs import HAS_QR
from training.tagsets.values import TagValues, random_values


def check_deterministic_with_one_ean(tmp_path: Path, designs: Sequence[str], seed: int) -> None:
    for row in deterministic_rows(tmp_path, designs, seed):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert tag["qr"] == []
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def check_defects_planted_where_the_truth_says(tmp_path: Path, designs: Sequence[str], seed: int) -> None:
    for row in rows_with_planted_defects(tmp_path, designs, seed):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}
    assert not set(designs) & HAS_QR


def printed_cards(designs: Sequence[str], seed: int, judged: Sequence[str]) -> list[tuple[str, object, TagValues]]:
    """Each design's card for one seed's values, checked to print the judged fields as the recipe has them and
    nothing below the smallest legal print; (design, card, values) for the module's own checks."""
    values = random_values(np.random.default_rng(seed))
    cards = []
    for design in designs:
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in judged:
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        cards.append((design, art, values))
    return cards


def check_one_seed_one_card(design: str) -> None:
    """The same seed draws the same card, another seed another."""
    values = random_values(np.random.default_rng(7))
    first, again, other = (DESIGNS[design](s, values, 6.0).rgba for s in (7, 7, 8))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def source_characters(module: object, skip: str = "—…→·×±¥") -> list[str]:
    """The characters beyond ASCII a design module's source holds (its labels, words and values), less `skip`."""
    return sorted({c for c in inspect.getsource(module) if ord(c) > 127 and c not in skip})


def assert_every_font_prints(chars: Iterable[str]) -> None:
    """Each font the generator draws with has a glyph for every one of `chars`: a missing glyph prints the font's box
    (what it draws for a private-use code point) where the truth says a character is."""
    from training.tagsets import fonts

    wanted = sorted(set(chars))
    for name in fonts.font_names():
        face = fonts.font(name, 40)
        box = np.asarray(face.getmask("\U000F0000")).tobytes()
        missing = [c for c in wanted if np.asarray(face.getmask(c)).tobytes() == box]
        assert not missing, (name, "".join(missing))
