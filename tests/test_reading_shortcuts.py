"""The reader's shortcuts must not change an answer: each is checked against the plain computation it skips."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inference.reading import labels
from inference.reading.matching import Glyphs, _align, _least_cost, align, fold, search, tolerance
from inference.reading.ocr.recognizer import MIN_ALTERNATIVE_P, _runners_up, _runners_up_partitioned
from inference.reading.types import OcrLine

ALPHABET = "0123456789OBSZGIl/-.%¥AXLM 类米号码棉涤纶锦颜色尺寸货款价格：:"


def glyphs_of(text: str, alternatives: tuple[str, ...] | None = None) -> Glyphs:
    alts = alternatives if alternatives is not None else ("",) * len(text)
    return Glyphs.of(OcrLine(text, 0.9, (0.0, 0.0, 1.0, 1.0), (0.9,) * len(text), alts))


def random_pairs(count: int, seed: int) -> list[tuple[str, Glyphs]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        line = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 24)))
        alts = tuple("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 2))) for _ in line)
        pattern = fold("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 12))))
        if pattern:
            out.append((pattern, glyphs_of(line, alts)))
    return out


def test_the_skipped_alignments_could_not_have_matched() -> None:
    """search skips a line when _least_cost exceeds the tolerance: the bound never exceeds the real cost."""
    pairs = random_pairs(600, seed=14)
    for pattern, glyphs in pairs:
        cost, _start, _end = align(pattern, glyphs, anywhere=True)
        assert _least_cost(pattern, glyphs) <= cost + 1e-9, (pattern, glyphs.chars)


def test_an_alignment_cut_at_a_limit_is_the_full_one_or_over_it() -> None:
    for pattern, glyphs in random_pairs(600, seed=15):
        limit = tolerance(pattern)
        full = _align(pattern, glyphs.chars, glyphs.alternatives, True)
        cut = _align(pattern, glyphs.chars, glyphs.alternatives, True, limit)
        if cut is None:
            assert full[0] > limit
        else:
            assert cut == full


@pytest.mark.parametrize(
    ("expected", "line", "found"),
    [
        ("170/92A", "号型：17O/92A", "match"),  # O read for 0 is forgiven
        ("¥399.00", "RMB ¥39.00", "near"),  # a merged repeat is only near
        ("W3116679", "款号：W3116679", "match"),
        ("棉95%", "产地：福建", "absent"),  # nothing like it: skipped without aligning
    ],
)
def test_search_answers(expected: str, line: str, found: str) -> None:
    assert search(expected, [glyphs_of(line)]).found.value == found


def plain_fuzzy_label(text: str, start: int) -> tuple[str, int, bool] | None:
    """The definition: every CJK label of the text's length with one wrong character and a colon (or
    an English half-label) after it; the longest wins, the first of equals."""
    best = None
    for label in labels._LABELS_LONGEST_FIRST:
        if label.isascii():
            continue
        end = start + len(label)
        candidate = text[start:end]
        after = labels._skip_english_label(text, end)
        if len(candidate) != len(label) or (text[end : end + 1] not in (":", "：") and after == end):
            continue
        if candidate in labels.OTHER_NUMBER_LABELS:
            continue
        mismatches = sum(1 for a, b in zip(candidate, label) if a != b)
        if mismatches == 1 and (len(label) >= 3 or candidate[0] == label[0] or candidate[1] == label[1]):
            if best is None or len(label) > len(best[0]):
                best = (label, labels._skip_separators(text, after), False)
    return best


def test_fuzzy_labels_found_by_their_first_two_characters_are_all_of_them() -> None:
    rng = random.Random(16)
    label_chars = "".join(labels.LABELS) + "：: XYZ谁剥亏批箱"
    for _ in range(3000):
        text = "".join(rng.choice(label_chars) for _ in range(rng.randint(1, 12)))
        for start in range(len(text)):
            assert labels._fuzzy_label_at(text, start) == plain_fuzzy_label(text, start), (text, start)


def test_runners_up_match_the_partition_ties_included() -> None:
    rng = np.random.default_rng(17)
    charset = ("",) + tuple(chr(0x4E00 + i) for i in range(300)) + ("ab", " ")
    logits = rng.normal(0.0, 1.0, (400, len(charset))) * rng.uniform(0.5, 6.0, (400, 1))
    probs = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(np.float32)
    for row in range(0, 400, 7):  # ties between likely classes, where the order among equals decides
        top = np.argsort(-probs[row])[:4]
        probs[row, top[2]] = probs[row, top[1]]
    probs[3, :] = 1.0 / len(charset)  # nothing reaches MIN_ALTERNATIVE_P
    assert (probs >= MIN_ALTERNATIVE_P).any(axis=1).mean() > 0.5
    assert _runners_up(probs, charset) == _runners_up_partitioned(probs, charset)
