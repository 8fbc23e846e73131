"""A box the reader found not to be a tag is greyed on the view and left out of the crops strip, whatever the reader
did to the box before reading it: it grows a box a few pixels, and the strip's exact match then kept the crop of a
box the view called "not a tag" (a brown card under two tags made a third crop)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")

from app.widgets.crops_strip import CropsStrip  # noqa: E402
from inference.detections import Detections  # noqa: E402

BOXES = np.array([[20, 20, 120, 200], [150, 30, 300, 200], [40, 260, 110, 380]], np.float32)
THREE = Detections(BOXES, np.full(3, 0.95, np.float32), np.zeros(3, np.int32), ("hangtag",))


@pytest.mark.parametrize("dropped, shown", [
    ((40.0, 260.0, 110.0, 380.0), 2),  # the detector's box itself
    ((33.4, 251.2, 117.8, 389.5), 2),  # the box the reader grew before reading it
    ((60.0, 280.0, 100.0, 360.0), 3),  # a smaller box inside: not the same box, the crop stays
])
def test_the_strip_leaves_out_what_the_view_greys(qtbot, dropped, shown):
    strip = CropsStrip()
    qtbot.addWidget(strip)
    strip.show_crops(np.full((400, 320, 3), 200, np.uint8), THREE, not_tags=[dropped])
    assert strip.shown == shown
