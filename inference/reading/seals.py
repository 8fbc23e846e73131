"""Red seals pressed over a tag's print (a round 检验合格 stamp on a 合格证): where they lie on the upright crop, and
the crop with their ink lifted, so the lines under a seal are found whole and read without it (text_lines)."""

from __future__ import annotations

import cv2
import numpy as np

from inference.reading.lines import Box

# A red seal over the print (see `seal_areas`): red ink SEAL_RED above green and blue, in a round (SEAL_ASPECT)
# thin (SEAL_FILL) patch SEAL_SIDE of the crop's shorter side across; crops with under SEAL_MIN_SHARE red skip it.
SEAL_RED = 25
SEAL_SIDE = 0.15
SEAL_ASPECT = 1.6
SEAL_FILL = 0.4
SEAL_MIN_SHARE = 0.005
SEAL_ROUND = 0.75  # a seal's outline fills this share of its enclosing circle (a square only 0.64)


def _reddish(image: np.ndarray) -> np.ndarray:
    """Pixels of red ink: the red channel SEAL_RED above both others, which are about equal (a seal's red or pink;
    not gold, orange or kraft, whose green stands above blue, nor magenta, whose blue stands above green).

    In saturating uint8 arithmetic, which decides exactly as signed arithmetic would: a lift below zero comes out 0
    and fails `> SEAL_RED` either way, and twice the green-blue difference, capped at 255, is below a lift of at
    most 255 only where the true double is."""
    b, g, r = cv2.split(image)[:3]
    lift = cv2.subtract(r, cv2.max(g, b))
    gap = cv2.absdiff(g, b)
    return cv2.bitwise_and(cv2.compare(lift, SEAL_RED, cv2.CMP_GT), cv2.compare(cv2.add(gap, gap), lift, cv2.CMP_LT)) > 0


def _red_share(red: np.ndarray) -> float:
    """The share of pixels set in a 0/1 mask: the count over the size, the division np.mean makes."""
    return cv2.countNonZero(red) / red.size


def seal_areas(image: np.ndarray) -> list[Box]:
    """Where red seals lie on an upright tag crop: connected red ink at least SEAL_SIDE of the crop's shorter side
    across both ways, round (its outline fills SEAL_ROUND of its enclosing circle), thin (at most SEAL_FILL of its
    box inked: a ring, a star, arced text) and clear of the crop's edges. A red price, a red panel or a table ruled
    in red is a line, a block or a rectangle; a red ground shows along the crop's edges around the tag."""
    if image.ndim != 3 or min(image.shape[:2]) < 16:
        return []
    red = _reddish(image).view(np.uint8)
    if _red_share(red) < SEAL_MIN_SHARE:
        return []
    joined = cv2.dilate(red, np.ones((5, 5), np.uint8))
    count, labels, stats, _centroids = cv2.connectedComponentsWithStats(joined, connectivity=8)
    side = SEAL_SIDE * min(image.shape[:2])
    seals: list[Box] = []
    for k in range(1, count):
        x, y, w, h, _area = (int(v) for v in stats[k])
        if w < side or h < side or not (1 / SEAL_ASPECT <= w / h <= SEAL_ASPECT):
            continue
        if red[y : y + h, x : x + w].mean() > SEAL_FILL:
            continue  # a solid block: a red panel, not a seal's ring
        if x <= 1 or y <= 1 or x + w >= image.shape[1] - 1 or y + h >= image.shape[0] - 1:
            continue  # red running into the crop's edge is the ground around the tag, not a seal on it
        contours = cv2.findContours((labels[y : y + h, x : x + w] == k).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        outline = max(contours, key=cv2.contourArea)
        (_cx, _cy), radius = cv2.minEnclosingCircle(outline)
        if cv2.contourArea(outline) >= SEAL_ROUND * np.pi * radius * radius:
            seals.append((float(x), float(y), float(x + w), float(y + h)))  # round: a seal, not a table ruled in red
    return seals


def without_seal_ink(image: np.ndarray) -> np.ndarray:
    """The crop with red ink lifted: each red pixel takes its red channel in all three (light red ink is then as
    light as the paper; dark print under it, dark in every channel, is not red and stays as it was)."""
    red = _reddish(image)
    if not red.any():
        return image
    out = image.copy()
    out[red] = np.repeat(image[:, :, 2][red][:, None], 3, axis=1)
    return out
