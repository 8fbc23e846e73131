"""A finished tag's row clicked on a moving line shows that tag, and the crops strip below speaks of it too: it kept
saying "no hangtag found on this frame" about the live frame left behind, under the tag's crop."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")

from inference.reading.verdict import Verdict  # noqa: E402
from inference.tracking.recent import RecentTag  # noqa: E402
from inference.tracking.records import UNREAD  # noqa: E402
from tests.test_line_results_dock import finished, per_tag_window  # noqa: E402


def test_the_crops_strip_names_the_tag_shown_not_the_live_frame(qtbot, tmp_path):
    window = per_tag_window(qtbot, tmp_path)
    link = window.line
    for verdict in (finished(1, Verdict.NG, "L", reasons=("尺码: read L, expected M",), frame=14),
                    finished(2, Verdict.REVIEW, None, reasons=(UNREAD,)), finished(3, Verdict.OK, "M", frame=60)):
        link.tag_finished.emit(RecentTag.of(verdict))
    qtbot.waitUntil(lambda: link.tag_rows.rowCount() == 3, timeout=3000)
    window.crops.show_crops(np.zeros((120, 160, 3), np.uint8), None)  # the live frame: an empty belt
    assert window.crops.labels[0].text() == "no hangtag found on this frame"
    link.show_tag_at(0)
    assert window.crops.labels[0].text() == "Tag #1 as it was read, above"
    link.show_tag_at(1)
    assert window.crops.labels[0].text() == "Tag #2: no crop"
    window.close()
