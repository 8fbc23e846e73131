"""The memory plot's axis shows at least one number whatever the RSS does: pyqtgraph leaves out a label that would
cross the plot's top or bottom edge, and in the dock of a 1280×720 window (a ~58-px plot) the two round ticks of a
run whose RSS rose from 1200 to 1950 MiB were both that near an edge: 'MiB' over no number at all."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")
from PySide6.QtGui import QImage, QPainter  # noqa: E402

from app.theme import register_fonts  # noqa: E402
from app.widgets.plots_panel import STAGES, PlotsPanel  # noqa: E402

ENGINE_SWAP_RSS = [1200, 1250, 1300, 1800, 1900] + [1900 + 10 * i for i in range(6)] + [1950] * 8
FLAT_RSS = [346.3 + 0.01 * i for i in range(19)]


def drawn_labels(axis) -> list[str]:
    """The labels pyqtgraph would paint now (it drops those that do not fit inside the axis)."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in texts]


@pytest.mark.parametrize(("size", "rss"), [((456, 380), ENGINE_SWAP_RSS), ((456, 380), FLAT_RSS),
                                           ((456, 900), ENGINE_SWAP_RSS)])
def test_the_memory_axis_always_shows_a_number(qtbot, size, rss):
    register_fonts()  # the station's font: its labels are taller than Qt's default
    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(*size)
    panel.show()
    qtbot.waitExposed(panel)
    for frame, value in enumerate(rss, 1):
        panel.frames = frame
        panel.latency.push([5.0] * len(STAGES) + [frame])
        panel.memory.push([value, np.nan, frame])
        panel.share.push([0.3, frame])
        panel._draw()
        qtbot.wait(5)
    labels = drawn_labels(panel.mem_plot.getAxis("left"))
    assert labels, panel.mem_plot.getAxis("left")._tickLevels
    assert len(labels) <= max(1, panel.mem_plot.getViewBox().height() // 28)


def test_a_new_drift_limit_is_judged_at_once_while_stopped(qtbot):
    """'Alarm above' lowered on a stopped station changed nothing on screen until the next frame came."""
    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(456, 380)
    panel.show()
    qtbot.waitExposed(panel)
    for frame in range(1, 200):  # RSS rising 2 MiB per 1000 frames after the warm-up
        panel.frames = frame
        panel.memory.push([500.0 + 0.002 * frame, np.nan, frame])
    panel._dirty = True
    qtbot.waitUntil(lambda: panel.alarm.text().startswith("memory steady"), timeout=2000)
    panel.drift_limit.setValue(1.0)
    qtbot.waitUntil(lambda: "DRIFT ALARM" in panel.alarm.text(), timeout=2000)
