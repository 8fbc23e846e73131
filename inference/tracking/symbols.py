"""LoneSymbols: a tag the detector did not outline is still a tag on the line.

Every hangtag carries its symbol (a barcode or a QR code) printed on it, so a symbol crossing the view is a tag
crossing it, whether or not the detector outlined the tag around it. The tag the detector outlines least is the
one riding the frame's edge, never whole in view: its tag box scores under the threshold in every frame, while its
barcode, whole in view, scores as high as any (BENCHMARKS, issue 18, twenty-eighth session: 43 frames at 0.92 with
no tag box at all). Such a tag had no row.

So the line follows the symbols too, with a tracker of their own (the belt carries a symbol as it carries its tag).
A symbol that touches or lies on the outline of a tag the line follows, in any frame it is seen (the tag's box in
that frame, or where its track expects it while the detector missed it), belongs to that tag and never gives a row
of its own, also when the tag's box shows up only after the symbol did. A symbol seen over `min_looks` looks, and
on no tag's outline in any of them, gets one REVIEW row when it leaves: a tag passed that the line could not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from inference.tracking.boxes import Box
from inference.tracking.tracker import TagTracker, TrackerSettings

SYMBOLS = ("barcode", "qr_code")
SPOKEN = {"barcode": "a barcode", "qr_code": "a QR code"}
MIN_LOOKS = 3  # one box alone may be print that looks like a symbol; a symbol the belt carried shows in several


def lone_reason(label: str) -> str:
    """Why a lone symbol's row is REVIEW: what crossed, and what to do."""
    return (f"{SPOKEN.get(label, 'a symbol')} crossed the view with no hangtag outlined around it: "
            "check this tag by hand")


def on_outline(symbol: Box | np.ndarray, outline: Box | np.ndarray) -> bool:
    """The symbol's box touches or overlaps the tag's box: it is printed on that tag (a tag box the edge or the
    detector cut short may stop at its symbol's side)."""
    return bool(symbol[0] <= outline[2] and outline[0] <= symbol[2] and symbol[1] <= outline[3]
                and outline[1] <= symbol[3])


@dataclass
class LoneSymbol:
    """One symbol the line followed: where it was seen, and whether it was ever on a tag's outline."""

    label: str
    first_frame: int
    last_frame: int
    last_box: Box
    looks: int = 0
    on_tag: bool = False
    crop: np.ndarray | None = None  # the symbol's pixels at its last look (the row's image to archive)


class LoneSymbols:
    """Not thread-safe: updated from the line's detection loop, with the tag tracker's outlines of each frame."""

    def __init__(self, frame_wh: tuple[int, int], settings: TrackerSettings = TrackerSettings(),
                 min_looks: int = MIN_LOOKS) -> None:
        self.tracker = TagTracker(frame_wh, settings)  # its ids are its own: a lone symbol's row takes a tag id
        self.min_looks = min_looks
        self._symbols: dict[int, LoneSymbol] = {}

    def update(self, frame: int, image: np.ndarray | None, boxes: np.ndarray, confidence: np.ndarray,
               labels: Sequence[str], outlines: Sequence[np.ndarray]) -> list[LoneSymbol]:
        """One detected frame: its symbol boxes and the outlines of the tags the line follows in it. Returns the
        symbols that left at this frame without ever being on a tag, each seen over `min_looks` looks."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        update = self.tracker.update(frame, boxes, confidence)
        for box, label, symbol_id in zip(boxes, labels, update.ids):
            if symbol_id is None:
                continue
            seen = tuple(float(v) for v in box)
            symbol = self._symbols.setdefault(symbol_id, LoneSymbol(label, frame, frame, seen))
            symbol.last_frame, symbol.last_box = frame, seen
            symbol.looks += 1
            symbol.on_tag = symbol.on_tag or any(on_outline(box, outline) for outline in outlines)
            if not symbol.on_tag and image is not None:
                h, w = image.shape[:2]
                x1, y1, x2, y2 = (int(v) for v in box)
                symbol.crop = image[max(0, y1):min(h, y2 + 1), max(0, x1):min(w, x2 + 1)].copy()
        return self._left(update.ended)

    def undecided(self) -> bool:
        """A symbol in view on no tag's outline so far has fewer than `min_looks` looks: whether it is a tag the
        detector did not outline is known only after more. A paced detector takes 2 looks in the frames a tag is
        whole, one every 16-20 frames at s1.25, and the top-edge tag's barcode is in view for 44: 2-3 looks, and it
        had no row in one live run (BENCHMARKS, issue 18, twenty-eighth session, helper line2). So the line looks on
        every frame while this holds."""
        live = set(self.tracker.live_ids)
        return any(not s.on_tag and s.looks < self.min_looks for i, s in self._symbols.items() if i in live)

    def expire(self, frame: int) -> list[LoneSymbol]:
        """A frame the paced detector skipped: symbols the belt carried wholly out of the view leave at it."""
        return self._left(self.tracker.expire(frame))

    def end_all(self) -> list[LoneSymbol]:
        """The stream ended: every symbol still in view leaves."""
        return self._left(self.tracker.end_all())

    def _left(self, ended: Sequence[int]) -> list[LoneSymbol]:
        gone = [self._symbols.pop(symbol_id) for symbol_id in ended if symbol_id in self._symbols]
        return [s for s in gone if not s.on_tag and s.looks >= self.min_looks]
