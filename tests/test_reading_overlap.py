"""The reader's CPU stages made faster or run side by side (issue 19) read exactly what they read before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading import tag_extent
from inference.reading.tag_extent import median_over_boxes, paper_sides


def _median_by_sorting(lab: np.ndarray, boxes) -> np.ndarray:
    """What paper_sides took before: np.median over the boxes' pixels put end to end."""
    return np.median(np.concatenate([lab[y1:y2, x1:x2].reshape(-1, 3) for x1, y1, x2, y2 in boxes]), axis=0)


def _paper_sides_whole_crop(image_bgr: np.ndarray, boxes) -> set[str]:
    """paper_sides as it was: every pixel of the crop compared with the paper's colour, the median by sorting."""
    h, w = image_bgr.shape[:2]
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.int16)
    paper = _median_by_sorting(lab, boxes)
    is_paper = np.abs(lab - paper.astype(np.int16)).sum(axis=2) <= tag_extent.PAPER_DISTANCE
    band_x, band_y = max(2, int(tag_extent.PAPER_BAND_SHARE * w)), max(2, int(tag_extent.PAPER_BAND_SHARE * h))
    share = {"left": is_paper[:, :band_x].mean(), "right": is_paper[:, w - band_x :].mean(),
             "top": is_paper[:band_y].mean(), "bottom": is_paper[h - band_y :].mean()}
    if min(share.values()) > tag_extent.GROUND_EDGE_SHARE:
        return set()
    return {side for side, value in share.items() if value >= tag_extent.PAPER_EDGE_SHARE}


def _random_crop(rng: np.random.Generator, k: int) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    h, w = (int(v) for v in rng.integers(16, 240, 2))
    if k % 3 == 0:  # one colour: every median an exact pixel value
        image = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    else:
        image = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
    if k % 4 == 0:  # a light paper over half the crop, so some sides are paper and some are not
        image[:, : w // 2] = (235, 240, 238)
    boxes = []
    for _ in range(int(rng.integers(3, 9))):
        x1, y1 = int(rng.integers(0, w - 2)), int(rng.integers(0, h - 2))
        boxes.append((x1, y1, int(rng.integers(x1 + 2, w + 1)), int(rng.integers(y1 + 2, h + 1))))
    return image, boxes


def test_the_median_from_histograms_is_numpys_median_over_the_boxes() -> None:
    rng = np.random.default_rng(19)
    for k in range(200):  # odd and even pixel counts, overlapping boxes (a pixel counted once per box)
        image, boxes = _random_crop(rng, k)
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        expected = _median_by_sorting(lab.astype(np.int16), boxes)
        found = median_over_boxes(lab, boxes)
        assert np.array_equal(found, expected), f"crop {k}: expected {expected}, found {found}"


def test_paper_sides_says_what_it_said_when_it_compared_the_whole_crop() -> None:
    rng = np.random.default_rng(20)
    said = set()
    for k in range(200):
        image, boxes = _random_crop(rng, k)
        expected = _paper_sides_whole_crop(image, boxes)
        assert paper_sides(image, boxes) == expected, f"crop {k}"
        said |= expected
    assert said, "the random crops never showed paper at an edge: the comparison proved nothing"


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q"]))
